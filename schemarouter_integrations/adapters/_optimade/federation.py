"""The OPTIMADE federation: providers -> index meta-databases -> databases, each one tool.

The walk reads a providers list (the one shipped with ``optimade``, or one by URL), each
provider's index meta-database ``/v1/links`` (its ``child`` links whose ``aggregate`` is
``"ok"``; a missing ``aggregate`` means ``"ok"``, as the specification says) and then each
database's ``/v1/info`` and ``/v1/info/structures``. Requests run concurrently, at most
``concurrency`` at a time, each bounded by ``timeout_seconds`` and kept on the origin of the
document it reads. A provider or database that fails, times out or serves no structures is
reported in :attr:`FederationReport.skipped` and never holds up the others.

Where the walk may go (:mod:`.._network`): the source is the application's (a metadata
address is refused); every index and database URL is learned from the document that lists it
(the bundled providers list counts as a public one) and is skipped, with its reason, when it
leads to a more closed address space or to a metadata address.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urljoin

import anyio
import httpx

from ..._contracts import RetryPolicy, ToolSpec
from ..._registry.reports import FederationReport
from ...errors import RegistrationError, SchemaRouterError
from .._documents import load_document
from .._fields import as_dict, safe_name
from .._http import ClientSource, HttpTarget, origin_of, public_url
from .._network import AddressRefusedError, AddressSpace, NetworkChecker, NetworkPolicy
from .._probes import Probe, optimade_info_probe
from .._route import UrlRegistration
from .._url import check_headers
from . import build_optimade_route
from .canonical import canonical_table
from .discovery import VERSIONED, discover
from .invoker import OptimadeInvoker, next_link
from .links import attributes, bundled_providers, database_id, prefix, served, unusable_url

__all__ = ["Database", "FederationReport", "FederationRoute", "Walk", "add_federation", "unusable_url"]

FEDERATION_RETRY = RetryPolicy(max_attempts=2, backoff_seconds=0.5, max_backoff_seconds=5.0)
"""Each database's retry policy: one retry, after Retry-After when the database sends one."""
MAX_LINK_PAGES = 10
"""Pages of a providers list or ``/links`` listing followed (``links.next``, same origin)."""
MAX_DATABASES_PER_INDEX = 64
"""Child databases one index meta-database may contribute; the rest are reported as skipped
(the largest real index lists a few dozen)."""
ENDPOINT = "search_structures"
Source = str | Sequence[str] | None


@dataclass(frozen=True, slots=True)
class Database:
    """One database to register: its provider id (None: read from its ``/info``), id, base URL."""

    provider: str | None
    database: str
    url: str


@dataclass(frozen=True, slots=True)
class FederationRoute:
    """A discovered database: its contract, invoker and versioned base URL."""

    spec: ToolSpec
    invoker: OptimadeInvoker
    base: str


class FederationRouter(Protocol):
    """What the federation needs of a router (a ``SchemaRouter``)."""

    @property
    def http_client(self) -> httpx.AsyncClient: ...

    @property
    def tools(self) -> dict[str, ToolSpec]: ...

    @property
    def max_response_bytes(self) -> int: ...

    @property
    def network_policy(self) -> NetworkPolicy: ...

    def binding_state(self, name: str) -> str: ...

    def register(self, spec: ToolSpec, invoker: Any = None) -> None: ...

    def remove_tool(self, name: str) -> None: ...

    def unbind(self, name: str) -> None: ...

    def register_health_probe(self, tool: str, endpoint: str, probe: Any) -> None: ...


_REGISTERED: weakref.WeakKeyDictionary[Any, dict[str, set[str]]] = weakref.WeakKeyDictionary()
"""Per router, per source: the tools the federation registered (what a refresh may remove)."""


class Walk:
    """One walk of the federation: the documents read and what was skipped on the way."""

    def __init__(
        self,
        client: ClientSource,
        *,
        timeout_seconds: float,
        max_response_bytes: int,
        limiter: anyio.CapacityLimiter,
        include: Sequence[str] | None,
        exclude: Sequence[str] | None,
        network: NetworkChecker | None = None,
    ) -> None:
        self.client = client
        self.network = network or NetworkPolicy().checker()
        self.timeout_seconds = timeout_seconds
        self.max_response_bytes = max_response_bytes
        self.limiter = limiter
        self.include = set(include) if include is not None else None
        self.exclude = set(exclude or ())
        self.skipped: dict[str, str] = {}

    def wanted(self, provider: str) -> bool:
        return (self.include is None or provider in self.include) and provider not in self.exclude

    def target(self, url: str, headers: Mapping[str, str] | None = None) -> HttpTarget:
        return HttpTarget(
            self.client, origin_of(url), dict(headers or {}), self.timeout_seconds, self.max_response_bytes
        )

    async def document(self, url: str) -> Any:
        """One document, without secret headers, within the concurrency limit."""
        async with self.limiter:
            return await load_document(self.target(url), url)

    async def entries(self, url: str) -> list[dict[str, Any]]:
        """The entries of a links listing at *url*, pages followed on its own origin."""
        out: list[dict[str, Any]] = []
        for _ in range(MAX_LINK_PAGES):
            document = await self.document(url)
            data = as_dict(document).get("data")
            if not isinstance(data, list):
                raise RegistrationError(f"{public_url(url)} is not a links listing")
            out.extend(item for item in data if isinstance(item, dict))
            following = next_link(as_dict(document))
            if following is None or not self.target(url).allows(urljoin(url, following)):
                break
            url = urljoin(url, following)
        return out

    async def databases(self, source: Source) -> list[Database]:
        """Every database the *source* lists (providers and indexes that fail are skipped)."""
        if source is None:
            return await self.from_providers(bundled_providers(), AddressSpace.PUBLIC)
        if isinstance(source, str):
            await self.network.check_given(source)
            try:
                listed = await self.entries(source)
            except RegistrationError:
                listed = []
            if listed and not any(attributes(e).get("link_type") == "child" for e in listed):
                return await self.from_providers(listed, source)
            return await self.from_index(None, source.removesuffix("/links"))
        if not all(isinstance(url, str) for url in source):
            raise RegistrationError("source must be None, a URL, or a list of database base URLs")
        usable = []
        for url in source:
            problem = unusable_url(url) or await self.refusal(url, None)
            if problem is None:
                usable.append(Database(None, database_id(url), url))
            else:
                self.skipped[url[:200]] = problem
        return usable

    async def refusal(self, url: str, learned_from: str | AddressSpace | None) -> str | None:
        """Why the network rule refuses *url* (None: it may be reached); *learned_from* is
        the document that named it, None when the application gave it."""
        try:
            if learned_from is None:
                await self.network.check_given(url)
            else:
                await self.network.check_learned(url, learned_from=learned_from)
        except AddressRefusedError as exc:
            return exc.reason
        return None

    async def from_providers(
        self, providers: list[dict[str, Any]], learned_from: str | AddressSpace
    ) -> list[Database]:
        found: dict[str, list[Database]] = {}

        async def index(provider: str, base: str) -> None:
            refused = await self.refusal(base, learned_from)
            if refused is not None:
                self.skipped[provider] = f"its index meta-database URL {refused}"
                return
            try:
                found[provider] = await self.from_index(provider, base)
            except SchemaRouterError as exc:
                self.skipped[provider] = f"index meta-database at {public_url(base)}: {exc}"

        seen: set[str] = set()
        async with anyio.create_task_group() as group:
            for entry in providers:
                provider, base = entry.get("id"), attributes(entry).get("base_url")
                base = base.get("href") if isinstance(base, dict) else base
                if not isinstance(provider, str) or not self.wanted(provider):
                    continue
                if provider in seen:
                    self.skipped[f"{provider} (listed again)"] = (
                        "the providers list names it twice; the first entry is used"
                    )
                    continue
                seen.add(provider)
                if not isinstance(base, str) or not base:
                    self.skipped[provider] = "lists no index meta-database (base_url is null)"
                    continue
                problem = unusable_url(base)
                if problem is not None:
                    self.skipped[provider] = f"its index meta-database URL {problem}"
                    continue
                group.start_soon(index, provider, base)
        return [db for provider in sorted(found) for db in found[provider]]

    async def from_index(self, provider: str | None, base: str) -> list[Database]:
        """The aggregatable child databases of one index meta-database."""
        root = base.rstrip("/")
        versioned = root if VERSIONED.search(httpx.URL(root).path) else f"{root}/v1"
        if provider is None:
            provider = prefix(await self.document(f"{versioned}/info"))
            if provider is None:
                raise RegistrationError(f"{public_url(root)}: its /info names no provider prefix")
            if not self.wanted(provider):
                return []
        out: list[Database] = []
        listing = f"{versioned}/links"
        for entry in await self.entries(listing):
            link, database = attributes(entry), entry.get("id")
            if link.get("link_type") != "child" or not isinstance(database, str):
                continue
            name = safe_name(f"{provider}_{database}")
            aggregate = link.get("aggregate", "ok")
            url = link.get("base_url")
            url = url.get("href") if isinstance(url, dict) else url
            if aggregate not in ("ok", None):
                self.skipped[name] = f"its index says aggregate={aggregate!r}"
            elif not isinstance(url, str) or not url:
                self.skipped[name] = "its link has no base_url"
            elif len(out) >= MAX_DATABASES_PER_INDEX:
                self.skipped[name] = (
                    f"its index lists more than {MAX_DATABASES_PER_INDEX} databases (the limit)"
                )
            elif (problem := unusable_url(url) or await self.refusal(url, listing)) is not None:
                self.skipped[name] = f"its base_url {problem}"
            else:
                out.append(Database(provider, database, url))
        return out


async def build_database(walk: Walk, db: Database, options: FederationOptions) -> FederationRoute | None:
    """Discover one database and build its route; a failure is recorded as skipped."""
    what = safe_name(f"{db.provider}_{db.database}") if db.provider else public_url(db.url)
    try:
        async with walk.limiter:
            headers = options.headers.get(db.provider, {}) if db.provider else options.headers.get(db.url, {})
            target = walk.target(db.url, headers)
            base, info = await discover(target, db.url)
            provider = db.provider or prefix(info)
            if provider is None:
                raise RegistrationError("its /info names no provider prefix")
            if db.provider is None and not walk.wanted(provider):
                return None
            name = safe_name(f"{provider}_{db.database}")
            what = name
            if "structures" not in served(info):
                raise RegistrationError("serves no structures")
            # headers follow the application's own word only (the provider its source named,
            # or the URL it gave), never a prefix the database claims for itself in /info
            registration = UrlRegistration(
                "optimade",
                name,
                provider,
                "optimade",
                {"entries": "structures", "canonical_fields": options.table, "retry": FEDERATION_RETRY},
            )
            spec, invoker = await build_optimade_route(
                db.url, registration, target=target, discovered=(base, info)
            )
    except SchemaRouterError as exc:
        walk.skipped[what] = str(exc)
        return None
    return FederationRoute(spec, invoker, base)


@dataclass(frozen=True, slots=True)
class FederationOptions:
    table: dict[str, tuple[str, ...]]
    headers: dict[str, dict[str, str]]


async def add_federation(
    router: FederationRouter,
    source: Source,
    include: Sequence[str] | None,
    exclude: Sequence[str] | None,
    headers: Mapping[str, Mapping[str, str]] | None,
    timeout_seconds: float,
    concurrency: int,
    probes: bool,
    field_aliases: Mapping[str, str | Sequence[str]] | None,
) -> FederationReport:
    """Walk *source* and register (or refresh) every database it lists on *router*."""
    if not 0 < timeout_seconds < math.inf:
        raise RegistrationError("timeout_seconds must be a positive, finite number of seconds")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise RegistrationError("concurrency must be a positive integer")
    options = FederationOptions(
        canonical_table(field_aliases), {k: check_headers(v) for k, v in (headers or {}).items()}
    )
    walk = Walk(
        lambda: router.http_client,
        timeout_seconds=timeout_seconds,
        max_response_bytes=router.max_response_bytes,
        limiter=anyio.CapacityLimiter(concurrency),
        include=include,
        exclude=exclude,
        network=router.network_policy.checker(),
    )
    databases = await walk.databases(source)
    built: dict[int, FederationRoute | None] = {}

    async def build(position: int, db: Database) -> None:
        built[position] = await build_database(walk, db, options)

    async with anyio.create_task_group() as group:
        for position, db in enumerate(databases):
            group.start_soon(build, position, db)
    routes: dict[str, FederationRoute] = {}
    for position in sorted(built):
        route = built[position]
        if route is not None and route.spec.name in routes:
            walk.skipped[f"{route.spec.name} ({public_url(route.base)})"] = "another database has this name"
        elif route is not None:
            routes[route.spec.name] = route

    def probe_factory(base: str) -> Probe:
        return optimade_info_probe(router, base, timeout_seconds=timeout_seconds)

    return _apply(router, _source_key(source), routes, walk, probes=probes, probe_factory=probe_factory)


def _apply(
    router: FederationRouter,
    key: str,
    routes: dict[str, FederationRoute],
    walk: Walk,
    *,
    probes: bool,
    probe_factory: Callable[[str], Any],
) -> FederationReport:
    """Register what changed, keep what did not, remove what is no longer listed."""
    unchanged = []
    for name, route in sorted(routes.items()):
        current = router.tools.get(name)
        same = current is not None and current.fingerprint == route.spec.fingerprint
        if same and router.binding_state(name) == "ready":
            unchanged.append(name)
        else:
            router.register(route.spec, route.invoker)
        if probes:
            router.register_health_probe(name, ENDPOINT, probe_factory(route.base))
    state = _REGISTERED.setdefault(router, {})
    previous = state.get(key, set())
    # a database that is still listed but failed this time keeps its registered contract
    kept = set(routes) | {name for name in walk.skipped if name in previous}
    removed = sorted(previous - kept)
    for name in removed:
        if name in router.tools:
            router.remove_tool(name)
        if router.binding_state(name) == "orphaned":
            router.unbind(name)
    state[key] = kept
    return FederationReport(
        registered=sorted(n for n in kept if n in router.tools),
        skipped=dict(sorted(walk.skipped.items())),
        unchanged=unchanged,
        removed=removed,
    )


def _source_key(source: Source) -> str:
    """Which earlier walk a refresh replaces: the same URL, the bundled list, or any list of URLs."""
    return "bundled" if source is None else source if isinstance(source, str) else "database URLs"
