"""OPTIMADE 1.x APIs as tools: one read-only search endpoint per entry type served.

Discovery reads ``/v1/info`` (or ``/versions``, or an unversioned ``/info``) and
``/info/<entry>``. Standard properties keep their names; a provider property
``_<prefix>_<name>`` becomes the field ``<name>`` read from the wire name, so
``_oqmd_band_gap`` answers a band-gap need. ``fields=`` overrides fields by name: a list
applies to ``search_structures``, a mapping targets endpoints (or entry types) by name.
Records are flattened (``id``, ``type`` and
every attribute at top level) and returned as ``{"data": [...]}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin

import httpx
from pydantic import ValidationError

from .._contracts import EndpointSpec, FieldSpec, RetryPolicy, ServerProjectionSpec, ToolSpec
from ..errors import (
    InvocationError,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RegistrationError,
    SchemaValidationError,
)
from ._fields import (
    as_dict,
    coerce_fields,
    complete_projection,
    merge_fields,
    per_endpoint,
    reject_unknown_options,
    safe_name,
    short_description,
    tool_spec,
)
from ._http import HttpTarget, public_url
from ._http_errors import error_document_message
from ._optimade_filter import build_filter

OPTIONS = frozenset({"fields", "max_pages", "entries", "retry", "cost_units", "description"})
DEFAULT_MAX_PAGES = 5
_NOT_ENTRIES = frozenset({"info", "links", "versions", "extensions", "index"})
_VERSIONED = re.compile(r"/v\d+(?:\.\d+){0,2}$")
_STRING = {"type": "string", "minLength": 1}


class OptimadeInvoker:
    """The trusted invoker of an OPTIMADE tool: ``await invoker(call) -> {"data": [...]}``."""

    def __init__(self, target: HttpTarget, base: str, entries: Mapping[str, str], *, max_pages: int) -> None:
        self.target = target
        self.base = base
        self.entries = dict(entries)
        self.max_pages = max_pages

    def __repr__(self) -> str:
        return f"OptimadeInvoker(base={public_url(self.base)!r}, entries={sorted(self.entries)})"

    async def __call__(self, call: Any) -> dict[str, Any]:
        return await self.search(call.endpoint, call.arguments, extra_params=call.server_projection)

    async def search(
        self,
        endpoint: str,
        arguments: Mapping[str, Any],
        *,
        extra_params: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """Query one entry listing, following ``links.next`` for at most ``max_pages`` pages."""
        entry = self.entries.get(endpoint)
        if entry is None:
            raise SchemaValidationError(f"this tool has no endpoint {endpoint!r}")
        params: list[tuple[str, str]] = []
        query_filter = build_filter(arguments)
        if query_filter:
            params.append(("filter", query_filter))
        if arguments.get("page_limit") is not None:
            params.append(("page_limit", str(int(arguments["page_limit"]))))
        params.extend((key, str(value)) for key, value in (extra_params or {}).items())
        url = f"{self.base}/{entry}"
        records: list[dict[str, Any]] = []
        pages, more = 0, False
        while True:
            document = await self.target.fetch_json("GET", url, params=params if pages == 0 else None)
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
        return {"data": records, "meta": {"pages": pages, "more_data_available": more}}


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


def next_link(document: Mapping[str, Any]) -> str | None:
    links = document.get("links")
    link = links.get("next") if isinstance(links, dict) else None
    if isinstance(link, dict):
        link = link.get("href")
    return link if isinstance(link, str) and link else None


async def build_optimade_route(
    url: str,
    *,
    name: str,
    target: HttpTarget,
    provider: str | None,
    access_mode: str | None,
    options: Mapping[str, Any],
) -> tuple[ToolSpec, OptimadeInvoker]:
    """Discover the OPTIMADE API at *url* and build its contract and invoker."""
    reject_unknown_options(options, OPTIONS, what=f"add_url(kind='optimade', name={name!r})")
    max_pages = options.get("max_pages", DEFAULT_MAX_PAGES)
    if not isinstance(max_pages, int) or isinstance(max_pages, bool) or not 1 <= max_pages <= 1000:
        raise RegistrationError("max_pages must be an integer from 1 to 1000")
    base, info = await discover(target, url)
    attributes = as_dict(as_dict(info.get("data")).get("attributes"))
    version = str(attributes.get("api_version", "")).lstrip("v")
    if not version.startswith("1."):
        raise RegistrationError(
            f"{public_url(base)} serves OPTIMADE {version or '(unknown)'}; 1.x is supported"
        )
    meta = as_dict(info.get("meta"))
    provider_meta = as_dict(meta.get("provider"))
    prefix = provider_meta.get("prefix") if isinstance(provider_meta.get("prefix"), str) else None
    endpoints: list[EndpointSpec] = []
    entries: dict[str, str] = {}
    for entry in _entry_types(attributes, options.get("entries")):
        properties = await _entry_properties(target, base, entry)
        endpoint = safe_name(f"search_{entry}")
        entries[endpoint] = entry
        endpoints.append(_endpoint(endpoint, entry, properties, prefix, options))
    known = set(entries) | set(entries.values())
    for option in ("fields", "retry", "cost_units"):
        keys = options.get(option)
        unknown = sorted(set(keys) - known) if isinstance(keys, Mapping) else []
        if unknown:
            raise RegistrationError(
                f"{option}= names unknown endpoint(s) {unknown}; known: {sorted(entries)}"
            )
    description = options.get("description") or short_description(
        provider_meta.get("description"), provider_meta.get("name"), f"OPTIMADE API at {public_url(base)}"
    )
    spec = tool_spec(
        where=f"the OPTIMADE API at {public_url(base)}",
        name=name,
        provider=provider,
        access_mode=access_mode,
        description=description,
        endpoints=endpoints,
    )
    return spec, OptimadeInvoker(target, base, entries, max_pages=max_pages)


async def discover(target: HttpTarget, url: str) -> tuple[str, dict[str, Any]]:
    """The versioned base URL and its ``/info`` document."""
    root = str(httpx.URL(url).copy_with(query=None, fragment=None)).rstrip("/")
    if _VERSIONED.search(httpx.URL(root).path):
        return root, await _info(target, root)
    try:
        return f"{root}/v1", await _fetch(target, f"{root}/v1/info")
    except NonRetryableInvocationError as exc:
        first = exc
    majors = await _versions(target, root)
    if majors is not None and "1" not in majors:
        raise RegistrationError(
            f"{public_url(root)} serves OPTIMADE major version(s) {sorted(majors)}; 1.x is supported"
        )
    if majors is not None:
        raise RegistrationError(f"{public_url(root)} lists version 1 but /v1/info failed: {first}")
    try:
        return root, await _fetch(target, f"{root}/info")
    except NonRetryableInvocationError:
        raise RegistrationError(
            f"no OPTIMADE API found at {public_url(root)}: /v1/info, /versions and /info failed ({first})"
        ) from None


async def _info(target: HttpTarget, base: str) -> dict[str, Any]:
    try:
        return await _fetch(target, f"{base}/info")
    except InvocationError as exc:
        raise RegistrationError(f"could not read {public_url(base)}/info: {exc}") from exc


async def _fetch(target: HttpTarget, url: str) -> dict[str, Any]:
    try:
        document = await target.fetch_json("GET", url)
    except InvocationUnavailableError as exc:
        raise RegistrationError(f"could not read {public_url(url)}: {exc}") from exc
    if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
        raise NonRetryableInvocationError(f"{public_url(url)} is not an OPTIMADE info document")
    return document


async def _versions(target: HttpTarget, root: str) -> set[str] | None:
    try:
        fetched = await target.fetch("GET", f"{root}/versions", accept="text/csv, text/plain;q=0.9")
    except InvocationError:
        return None
    lines = [line.strip() for line in fetched.body.decode("utf-8", "replace").splitlines()]
    if not lines or lines[0].split(",")[0].strip().lower() != "version":
        return None
    return {line.split(",")[0].strip().lstrip("v").split(".")[0] for line in lines[1:] if line}


def _entry_types(attributes: Mapping[str, Any], chosen: Any) -> list[str]:
    by_format = attributes.get("entry_types_by_format")
    served = by_format.get("json") if isinstance(by_format, dict) else None
    if not isinstance(served, list):
        served = [e for e in attributes.get("available_endpoints") or () if e not in _NOT_ENTRIES]
    served = [e for e in served if isinstance(e, str) and e and "/" not in e]
    if chosen is None:
        if not served:
            raise RegistrationError("the OPTIMADE API serves no entry type in JSON")
        return served
    wanted = [chosen] if isinstance(chosen, str) else list(chosen)
    unknown = sorted(set(wanted) - set(served))
    if unknown:
        raise RegistrationError(f"entries= names entry type(s) {unknown} not served; served: {served}")
    return wanted


async def _entry_properties(target: HttpTarget, base: str, entry: str) -> dict[str, Any]:
    url = f"{base}/info/{entry}"
    try:
        document = await target.fetch_json("GET", url)
    except InvocationError as exc:
        raise RegistrationError(f"could not read {public_url(url)}: {exc}") from exc
    data = document.get("data") if isinstance(document, dict) else None
    properties = data.get("properties") if isinstance(data, dict) else None
    if not isinstance(properties, dict):
        raise RegistrationError(f"{public_url(url)} lists no properties")
    return properties


def entry_fields(properties: Mapping[str, Any], prefix: str | None) -> list[FieldSpec]:
    """Fields of one entry type: standard names kept, ``_<prefix>_<name>`` shortened to ``<name>``."""
    standard = {wire for wire in properties if not wire.startswith("_")}
    marker = f"_{prefix}_" if prefix else None
    taken: set[str] = set()
    fields: list[FieldSpec] = []
    for wire in sorted(properties, key=lambda w: (w not in standard, w)):
        meta = properties[wire] if isinstance(properties[wire], dict) else {}
        name = wire
        if marker and wire.startswith(marker) and len(wire) > len(marker):
            short = wire[len(marker) :]
            if short not in standard and short not in taken:
                name = short
        taken.add(name)
        description = short_description(meta.get("description"))
        if isinstance(meta.get("unit"), str) and meta["unit"]:
            description = f"{description} (unit: {meta['unit']})".strip()
        fields.append(
            FieldSpec(
                name=name,
                path=[wire],
                aliases=[wire] if name != wire else [],
                description=description,
            )
        )
    return fields


def input_schema(entry: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical arguments of one entry listing."""
    schema: dict[str, Any] = {}
    if entry == "structures" or "chemical_formula_reduced" in properties:
        schema["formula"] = {**_STRING, "description": "Reduced chemical formula, e.g. Si or GaAs"}
    if entry == "structures" or "elements" in properties:
        schema["elements"] = {
            "anyOf": [{"type": "array", "items": _STRING, "minItems": 1}, _STRING],
            "description": "Elements that must all be present: a list or 'Ga,As'",
        }
    schema["filter"] = {"type": "string", "description": "Raw OPTIMADE filter, AND-ed with the rest"}
    schema["page_limit"] = {"type": "integer", "minimum": 1, "description": "Entries per page"}
    return {"type": "object", "properties": schema, "additionalProperties": False}


def _endpoint(
    endpoint: str,
    entry: str,
    properties: Mapping[str, Any],
    prefix: str | None,
    options: Mapping[str, Any],
) -> EndpointSpec:
    fields: tuple[FieldSpec, ...] = tuple(entry_fields(properties, prefix))
    option = options.get("fields")
    override = per_endpoint(option, endpoint, entry)
    if override is not None and (isinstance(option, Mapping) or entry == "structures"):
        fields = merge_fields(fields, coerce_fields(override, what=f"endpoint {endpoint!r}"))
    cost = per_endpoint(options.get("cost_units"), endpoint, entry)
    try:
        return EndpointSpec(
            name=endpoint,
            description=f"Search OPTIMADE {entry} (filter, projection through response_fields)",
            input_schema=input_schema(entry, properties),
            fields=fields,
            projection=complete_projection(ServerProjectionSpec(parameter="response_fields"), fields),
            read_only=True,
            retry=per_endpoint(options.get("retry"), endpoint, entry) or RetryPolicy(),
            cost_units=1.0 if cost is None else cost,
            records_path=["data"],
        )
    except ValidationError as exc:
        raise RegistrationError(f"endpoint {endpoint!r} is not valid: {exc}") from exc
