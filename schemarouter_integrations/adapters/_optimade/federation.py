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

import anyio
import httpx

from ..._contracts import RetryPolicy, ToolSpec
from ..._registry.reports import FederationReport
from ...errors import RegistrationError, SchemaRouterError
from .._fields import safe_name
from .._http import public_url
from .._network import NetworkPolicy
from .._probes import Probe, optimade_info_probe
from .._route import UrlRegistration
from .._url import check_headers
from . import build_optimade_route
from .canonical import canonical_table
from .discovery import discover
from .invoker import OptimadeInvoker
from .links import prefix, served, unusable_url
from .walk import Database, Source, Walk

__all__ = ["Database", "FederationReport", "FederationRoute", "Walk", "add_federation", "unusable_url"]

FEDERATION_RETRY = RetryPolicy(max_attempts=2, backoff_seconds=0.5, max_backoff_seconds=5.0)
"""Each database's retry policy: one retry, after Retry-After when the database sends one."""
ENDPOINT = "search_structures"


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
