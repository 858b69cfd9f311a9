"""The ``openapi`` kind: how ``add_url`` reads an OpenAPI document (by URL or from a local
file), and the health probe of a landscape entry (``probe = "<operationId>"``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._local_documents import api_base_of, is_local_document, load_local_document_set
from .._requests import UrlRequest
from . import OpenApiInvoker, build_openapi_route
from .servers import validate_base_url

if TYPE_CHECKING:
    from ..._contracts import ToolSpec
    from .._entries import OpenApiRoute

__all__ = ["build_route", "entry_probe"]


async def build_route(url: str, request: UrlRequest) -> tuple[ToolSpec, OpenApiInvoker]:
    """The OpenAPI document at *url* (or in a local file) as a contract and its invoker.

    The calls go to ``base_url`` when given, else to the ``servers`` entry on the
    document's origin; the headers go to the document's origin only when the calls do.
    """
    if is_local_document(url):
        return await _local_route(url, request)
    home = await request.origin(url)
    api = validate_base_url(request.base_url) if request.base_url is not None else None
    api_origin = await request.origin(api) if api is not None else home
    target = request.target(api_origin)
    document_target = request.document_target(home, headers=home == api_origin)
    return await build_openapi_route(
        url,
        request.registration,
        target=target,
        document_target=document_target,
        base_url=api,
        network=request.network,
    )


async def _local_route(url: str, request: UrlRequest) -> tuple[ToolSpec, OpenApiInvoker]:
    """An OpenAPI document in a local file (see :mod:`.._local_documents`)."""
    loaded = await load_local_document_set(url, max_bytes=request.max_response_bytes)
    api = validate_base_url(api_base_of(loaded.document, request.base_url))
    target = request.target(await request.origin(api))
    return await build_openapi_route(
        loaded.url, request.registration, target=target, document_target=target, base_url=api, loaded=loaded
    )


def entry_probe(router: Any, name: str, entry: OpenApiRoute) -> Callable[[], Any]:
    """``probe = "<operationId>"``: that read-only operation, called with ``probe_arguments``."""
    from .._probes import openapi_operation_probe

    return openapi_operation_probe(router, name, entry.probe or "", arguments=entry.probe_arguments)
