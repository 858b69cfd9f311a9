"""Adapters: OpenAPI, OPTIMADE and Python callables as access paths, with one HTTP error map.

A new kind of access path is one :class:`Kind` row given to :func:`register_kind`: its
landscape entry model (a :class:`RouteEntry`, or an :class:`HttpRouteEntry` for a kind
read by URL) and its builder, handed a checked :class:`UrlRequest`, which reads the source
with :func:`load_document` (any method, through the document cache) and returns the
contract and its invoker. ``add_url(kind=...)`` and the landscape file accept it from then.

Public here are the helpers an application uses beside ``SchemaRouter.add_url`` and
``add_mcp``: trusted health probes for registered HTTP routes (:func:`openapi_operation_probe`,
:func:`optimade_info_probe`) and MCP routes (:func:`mcp_ping_probe`, needs the ``mcp``
extra), and the HTTP error map for invokers written by hand (:func:`http_failure`,
:func:`parse_retry_after`). The adapters themselves are private
modules, imported only when a route of their kind is added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._documents import load_document as load_document
    from ._entries import HttpRouteEntry as HttpRouteEntry
    from ._entries import RouteEntry as RouteEntry
    from ._http_errors import http_failure as http_failure
    from ._http_errors import parse_retry_after as parse_retry_after
    from ._kinds import Kind as Kind
    from ._kinds import register_kind as register_kind
    from ._kinds import unregister_kind as unregister_kind
    from ._mcp.probe import mcp_ping_probe as mcp_ping_probe
    from ._probes import openapi_operation_probe as openapi_operation_probe
    from ._probes import optimade_info_probe as optimade_info_probe
    from ._requests import EntryContext as EntryContext
    from ._requests import UrlRequest as UrlRequest


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._documents": ("load_document",),
        "._entries": ("HttpRouteEntry", "RouteEntry"),
        "._http_errors": ("http_failure", "parse_retry_after"),
        "._kinds": ("Kind", "register_kind", "unregister_kind"),
        "._requests": ("EntryContext", "UrlRequest"),
        "._probes": ("openapi_operation_probe", "optimade_info_probe"),
        "._mcp.probe": ("mcp_ping_probe",),  # the mcp extra: imported only when named
    },
)
