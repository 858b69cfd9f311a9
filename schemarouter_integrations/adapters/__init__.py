"""Adapters: OpenAPI, OPTIMADE and Python callables as access paths, with one HTTP error map.

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
    from ._http_errors import http_failure, parse_retry_after
    from ._mcp.probe import mcp_ping_probe
    from ._probes import openapi_operation_probe, optimade_info_probe

__all__ = [
    "http_failure",
    "mcp_ping_probe",
    "openapi_operation_probe",
    "optimade_info_probe",
    "parse_retry_after",
]

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._http_errors": ("http_failure", "parse_retry_after"),
        "._probes": ("openapi_operation_probe", "optimade_info_probe"),
        "._mcp.probe": ("mcp_ping_probe",),  # the mcp extra: imported only when named
    },
)
