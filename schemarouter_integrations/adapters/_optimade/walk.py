"""One walk of the OPTIMADE federation: providers list -> index meta-databases -> databases.

Reads the documents (at most ``concurrency`` at a time, each on the origin of the document it
reads), applies the network rule to every URL it learns, and records what it skipped and why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

import anyio
import httpx

from ...errors import RegistrationError, SchemaRouterError
from .._documents import load_document
from .._fields import as_dict, safe_name
from .._http import ClientSource, HttpTarget, origin_of, public_url
from .._network import AddressRefusedError, AddressSpace, NetworkChecker, NetworkPolicy
from .discovery import VERSIONED
from .invoker import next_link
from .links import attributes, bundled_providers, database_id, prefix, unusable_url

__all__ = ["MAX_DATABASES_PER_INDEX", "MAX_LINK_PAGES", "Database", "Source", "Walk"]

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
