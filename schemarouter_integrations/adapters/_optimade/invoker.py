"""The invoker of an OPTIMADE tool: one entry listing per endpoint, pages followed, records flat."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin

import anyio

from ...errors import NonRetryableInvocationError
from .._http import Fetched, HttpTarget, decode_json, public_url, with_hints
from .._http_errors import error_document_message
from .._route import HttpInvoker
from .filter import build_filter
from .sorting import sort_parameter

MAX_REQUEST_DELAY_SECONDS = 5.0
"""The longest ``meta.request_delay`` honoured (the reference server refuses more than 5 s)."""


class OptimadeInvoker(HttpInvoker[str]):
    """The trusted invoker of an OPTIMADE tool: ``await invoker(call) -> {"data": [...]}``.

    ``endpoints`` maps each endpoint name to the entry type it lists (``"structures"``).
    A page's ``meta.request_delay`` (seconds, at most :data:`MAX_REQUEST_DELAY_SECONDS`) is
    left between that response and this invoker's next request, next page or next call.
    ``page_limit`` is the application's page size (``None``: the database's default); a
    ``page_limit`` argument the application passes in a request wins.
    """

    def __init__(
        self,
        target: HttpTarget,
        base: str,
        entries: Mapping[str, str],
        *,
        max_pages: int,
        page_limit: int | None = None,
        bounds: Mapping[str, Mapping[str, tuple[str, str]]] | None = None,
        sorts: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        super().__init__(target, entries)
        self.bounds = {name: dict(b) for name, b in (bounds or {}).items()}
        """Each endpoint's range arguments: argument -> (property, operator)."""
        self.sort_names = {name: dict(s) for name, s in (sorts or {}).items()}
        """Each endpoint's field names sent otherwise in ``sort``: field -> property."""
        self.base = base
        self.max_pages = max_pages
        self.page_limit = page_limit
        self._not_before = 0.0

    async def _polite(self, url: str, params: list[tuple[str, str]] | None) -> tuple[Any, Fetched]:
        """One GET, after the delay the database asked for; remembers the next delay."""
        wait = self._not_before - time.monotonic()
        if wait > 0:
            await anyio.sleep(wait)
        fetched = await self.target.fetch("GET", url, params=params)
        document = decode_json(fetched, "GET", url)
        delay = request_delay(document)
        if delay:
            self._not_before = max(self._not_before, time.monotonic() + delay)
        return document, fetched

    def __repr__(self) -> str:
        return f"OptimadeInvoker(base={public_url(self.base)!r}, entries={sorted(self.endpoints)})"

    async def send(
        self, endpoint: str, arguments: Mapping[str, Any], *, extra_params: Mapping[str, str] | None = None
    ) -> Any:
        """Query one entry listing, following ``links.next`` for at most ``max_pages`` pages.

        The first page's caching headers (``Cache-Control``, ``Expires``) travel with the
        answer as :class:`CacheHints`."""
        entry = self.endpoint(endpoint)
        params: list[tuple[str, str]] = []
        query_filter = build_filter(arguments, self.bounds.get(endpoint))
        if query_filter:
            params.append(("filter", query_filter))
        sort = arguments.get("sort")
        if sort is not None:
            params.append(("sort", sort_parameter(sort, self.sort_names.get(endpoint, {}))))
        page_limit = arguments.get("page_limit", self.page_limit)
        if page_limit is not None:
            params.append(("page_limit", str(int(page_limit))))
        params.extend((key, str(value)) for key, value in (extra_params or {}).items())
        url = f"{self.base}/{entry}"
        records: list[dict[str, Any]] = []
        pages, more, matched = 0, False, None
        first: Fetched | None = None
        while True:
            document, fetched = await self._polite(url, params if pages == 0 else None)
            if first is None and isinstance(document, dict) and isinstance(document.get("meta"), dict):
                matched = document["meta"].get("data_returned")  # how many entries match the filter
            first = first or fetched
            pages += 1
            records.extend(flatten(item) for item in page_entries(document, f"GET /{entry}"))
            following = next_link(document)
            if following is None:
                break
            following = urljoin(url, following)
            if pages >= self.max_pages or not self.target.allows(following):
                more = True
                break
            url = following
        meta: dict[str, Any] = {"pages": pages, "more_data_available": more}
        if type(matched) is int:
            meta["data_returned"] = matched
        answer = {"data": records, "meta": meta}
        return answer if first is None else with_hints(answer, first)


def flatten(entry: Mapping[str, Any]) -> dict[str, Any]:
    """``id``, ``type`` and every attribute of one entry resource, at top level."""
    attributes = entry.get("attributes")
    flat = dict(attributes) if isinstance(attributes, Mapping) else {}
    flat["id"] = entry.get("id")
    flat["type"] = entry.get("type")
    return flat


def page_entries(document: Any, what: str) -> list[Mapping[str, Any]]:
    """The entry resources of one response page; an error document raises."""
    if not isinstance(document, dict):
        raise NonRetryableInvocationError(f"{what} answered something that is not a JSON:API document")
    if "data" not in document:
        message = error_document_message(document) or "no data and no error"
        raise NonRetryableInvocationError(f"{what} answered an OPTIMADE error document: {message[:200]}")
    data = document["data"]
    if data is None:
        return []
    items = [data] if isinstance(data, dict) else data
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise NonRetryableInvocationError(f"{what}: 'data' is not a list of entry resources")
    return items


def request_delay(document: Any) -> float:
    """The page's ``meta.request_delay`` in seconds, bounded to ``[0, MAX_REQUEST_DELAY_SECONDS]``."""
    meta = document.get("meta") if isinstance(document, dict) else None
    value = meta.get("request_delay") if isinstance(meta, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.0
    return min(max(float(value), 0.0), MAX_REQUEST_DELAY_SECONDS)


def next_link(document: Mapping[str, Any]) -> str | None:
    """The ``links.next`` URL of a page, if any."""
    links = document.get("links")
    link = links.get("next") if isinstance(links, dict) else None
    if isinstance(link, dict):
        link = link.get("href")
    return link if isinstance(link, str) and link else None
