"""OpenAPI 3.0/3.1 documents as tools: one endpoint per operation, bound to an httpx invoker.

The flow: load the document (:mod:`.._documents`), walk its operations once
(:mod:`.operations`), build the contract from those records (:mod:`.contract`) and pair it
with an :class:`~.invoker.OpenApiInvoker`. Requests only ever go to the document's origin
(the ``servers`` entry on that origin), or to ``base_url`` when the application names it;
``headers`` (API keys) go only there.
"""

from __future__ import annotations

import httpx

from ..._contracts import ToolSpec
from ...errors import RegistrationError
from .._documents import load_document
from .._fields import as_dict, short_description
from .._http import HttpTarget, public_url
from .._options import OpenApiOptions, UrlOptions, check_options
from .._route import RouteOptions
from .contract import ContractBuilder
from .invoker import OpenApiInvoker
from .operations import openapi_version, walk_operations
from .schema import SchemaResolver

__all__ = ["OpenApiInvoker", "build_openapi_route"]

_KEYED = ("fields", "projection", "read_only", "retry", "cost_units")
"""The options that may be a mapping keyed by operation."""


async def build_openapi_route(
    url: str,
    *,
    name: str,
    target: HttpTarget,
    document_target: HttpTarget,
    base_url: str | None,
    provider: str | None,
    access_mode: str | None,
    options: UrlOptions,
) -> tuple[ToolSpec, OpenApiInvoker]:
    """Read the OpenAPI document at *url* and build the tool contract and its invoker."""
    checked = check_options(options, OpenApiOptions, what=f"add_url(kind='openapi', name={name!r})")
    where = public_url(url)
    document = await load_document(
        document_target, url, syntax="json_or_yaml", failure="could not fetch the OpenAPI document"
    )
    if not isinstance(document, dict):
        raise RegistrationError(f"{where} is not an OpenAPI document (not an object)")
    version = openapi_version(document)
    resolver = SchemaResolver(document, str(httpx.URL(url).copy_with(fragment=None)), version)
    route = RouteOptions(checked, noun="operation", keyed=_KEYED)
    builder = ContractBuilder(
        list(walk_operations(document, resolver)),
        document=document,
        resolver=resolver,
        url=url,
        base_url=base_url,
        secret_headers={h.lower() for h in target.headers},
        options=checked,
        route=route,
    )
    endpoints, operations = builder.build()
    info = as_dict(document.get("info"))
    spec = route.tool(
        where=f"the OpenAPI document at {where}",
        name=name,
        provider=provider,
        access_mode=access_mode,
        description=short_description(
            " — ".join(t for t in (info.get("title"), info.get("description")) if isinstance(t, str))
        ),
        endpoints=endpoints,
        known=builder.known,
    )
    return spec, OpenApiInvoker(target, operations)
