"""OPTIMADE 1.x APIs as tools: one read-only search endpoint per entry type served.

Discovery (:mod:`.discovery`) reads ``/v1/info`` (or ``/versions``, or an unversioned
``/info``) and ``/info/<entry>``. Standard properties keep their names; a provider property
``_<prefix>_<name>`` becomes the field ``<name>`` read from the wire name, so
``_oqmd_band_gap`` answers a band-gap need. ``fields=`` overrides fields by name: a list
applies to ``search_structures``, a mapping targets endpoints (or entry types) by name.
Records are flattened (``id``, ``type`` and every attribute at top level) and returned as
``{"data": [...]}`` (:mod:`.invoker`).

Entry types degrade one by one: the ``/info/<entry>`` documents are read concurrently, and an
entry type whose document fails (a 404, a timeout, no ``properties``) is left out, with a
warning logged (logger ``schemarouter_integrations.adapters.optimade``) and named at the end of
the tool's description (``Left out: references (/info/references: ... 404 ...).``), which
``router.tools[name].description`` and the returned ``ToolSpec`` show. The database registers
with the entry types that answered; when none does, the ``RegistrationError`` gives each one's
reason (a single entry type's error as it is).
"""

from __future__ import annotations

import logging
from typing import Any

import anyio

from ..._contracts import ToolSpec
from ...errors import RegistrationError
from .._documents import DocumentError
from .._fields import as_dict, safe_name, short_description
from .._http import HttpTarget, public_url
from .._options import OptimadeOptions
from .._route import RouteBuilder, UrlRegistration, left_out_note
from .contract import entry_endpoint, range_bounds, route_table
from .discovery import discover, entry_properties, entry_types
from .invoker import OptimadeInvoker
from .sorting import sort_names

__all__ = ["DEFAULT_MAX_PAGES", "OptimadeInvoker", "build_optimade_route"]

DEFAULT_MAX_PAGES = 5
logger = logging.getLogger("schemarouter_integrations.adapters.optimade")
_KEYED = ("fields", "retry", "cost_units")
"""The options that may be a mapping keyed by endpoint or entry type."""


async def build_optimade_route(
    url: str,
    registration: UrlRegistration,
    *,
    target: HttpTarget,
    discovered: tuple[str, dict[str, Any]] | None = None,
    document_target: HttpTarget | None = None,
) -> tuple[ToolSpec, OptimadeInvoker]:
    """Discover the OPTIMADE API at *url* and build its contract and invoker.

    *discovered* is the versioned base URL and ``/info`` document when already read;
    *document_target* reads the ``/info`` documents (default: *target*, which the invoker uses).
    """
    reader = target if document_target is None else document_target
    route = RouteBuilder(registration, OptimadeOptions, noun="endpoint", keyed=_KEYED)
    max_pages = route.options.get("max_pages", DEFAULT_MAX_PAGES)
    if not isinstance(max_pages, int) or isinstance(max_pages, bool) or not 1 <= max_pages <= 1000:
        raise RegistrationError("max_pages must be an integer from 1 to 1000")
    page_limit = route.options.get("page_limit")
    if page_limit is not None and (
        not isinstance(page_limit, int) or isinstance(page_limit, bool) or not 1 <= page_limit <= 10_000
    ):
        raise RegistrationError("page_limit must be an integer from 1 to 10000 (or None: the database's)")
    base, info = discovered if discovered is not None else await discover(reader, url)
    attributes = as_dict(as_dict(info.get("data")).get("attributes"))
    version = str(attributes.get("api_version", "")).lstrip("v")
    if not version.startswith("1."):
        raise RegistrationError(
            f"{public_url(base)} serves OPTIMADE {version or '(unknown)'}; 1.x is supported"
        )
    provider_meta = as_dict(as_dict(info.get("meta")).get("provider"))
    prefix = provider_meta.get("prefix") if isinstance(provider_meta.get("prefix"), str) else None
    wanted = entry_types(attributes, route.options.get("entries"))
    found, failed = await _entry_properties(reader, base, wanted)
    endpoints = []
    entries: dict[str, str] = {}
    for entry, properties in found.items():
        endpoint = safe_name(f"search_{entry}")
        entries[endpoint] = entry
        endpoints.append(entry_endpoint(endpoint, entry, properties, prefix, route))
    where = f"OPTIMADE API at {public_url(base)}"
    description = short_description(provider_meta.get("description"), provider_meta.get("name"), where)
    spec = route.tool(
        where=f"the {where}",
        description=description,
        endpoints=endpoints,
        known=entries,
        origin=target.origin,
        note=left_out_note(failed),
    )
    for entry, reason in failed.items():
        logger.warning("%s: entry type %r left out: %s", where, entry, reason)
    table = route_table(route)
    bounds = {e.name: range_bounds(e.fields, table) for e in endpoints}
    sorts = {e.name: sort_names(e.fields) for e in endpoints}
    invoker = OptimadeInvoker(
        target, base, entries, max_pages=max_pages, page_limit=page_limit, bounds=bounds, sorts=sorts
    )
    invoker.left_out.update(failed)
    return spec, invoker


async def _entry_properties(
    reader: HttpTarget, base: str, wanted: list[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The properties of each entry type in *wanted* order, and why the others failed.

    Raises when every entry type failed: the one error as it is, or all the reasons.
    """
    results: dict[str, dict[str, Any] | RegistrationError] = {}

    async def read(entry: str) -> None:
        try:
            results[entry] = await entry_properties(reader, base, entry)
        except RegistrationError as exc:
            results[entry] = exc

    async with anyio.create_task_group() as group:
        for entry in wanted:
            group.start_soon(read, entry)
    found = {e: r for e in wanted if not isinstance(r := results[e], RegistrationError)}
    errors = {e: r for e in wanted if isinstance(r := results[e], RegistrationError)}
    if not found:
        if len(errors) == 1:
            raise next(iter(errors.values()))
        reasons = "; ".join(f"{entry}: {exc}" for entry, exc in errors.items())
        raise RegistrationError(f"no entry type of {public_url(base)} could be read ({reasons})")
    return found, {entry: _reason(exc) for entry, exc in errors.items()}


def _reason(exc: RegistrationError) -> str:
    """Why an entry type failed, without the URL prefix a document error carries."""
    return exc.reason if isinstance(exc, DocumentError) else str(exc)
