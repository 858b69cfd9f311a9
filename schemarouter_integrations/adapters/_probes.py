"""Health probes that the application registers explicitly (``router.register_health_probe``).

SchemaRouter never invents health traffic; these helpers only build the trusted callbacks
for documented cheap requests: an OPTIMADE ``/info`` document, or a chosen read-only
operation of a registered OpenAPI tool (a heartbeat, a status route).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from ..errors import InvocationError, PolicyViolationError, RegistrationError
from ._bindings import bound_invoker
from ._http import HttpTarget, origin_of
from ._openapi.invoker import OpenApiInvoker
from ._optimade.discovery import VERSIONED, is_info_document

Probe = Callable[[], Awaitable[bool]]
PROBE_BODY_BYTES = 1024 * 1024


def optimade_info_probe(
    client_or_router: Any,
    base_url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout_seconds: float = 5.0,
) -> Probe:
    """``async () -> bool``: True when ``GET <base>/v1/info`` answers an info document.

    *base_url* may be the unversioned base (``/v1`` is added) or a versioned one.
    *client_or_router* is an ``httpx.AsyncClient`` or a router (its shared client).
    """
    base = base_url.rstrip("/")
    try:
        versioned = base if VERSIONED.search(httpx.URL(base).path) else f"{base}/v1"
        origin = origin_of(versioned)
    except (ValueError, httpx.InvalidURL) as exc:
        raise RegistrationError(f"optimade_info_probe needs an absolute http(s) URL: {exc}") from None
    secrets = dict(headers or {})

    async def probe() -> bool:
        target = HttpTarget(_client(client_or_router), origin, secrets, timeout_seconds, PROBE_BODY_BYTES)
        try:
            document = await target.fetch_json("GET", f"{versioned}/info")
        except InvocationError:
            return False
        return is_info_document(document)

    return probe


def openapi_operation_probe(
    router: Any,
    tool: str,
    operation: str,
    *,
    arguments: Mapping[str, Any] | None = None,
) -> Probe:
    """``async () -> bool``: True when the chosen read-only *operation* of *tool* succeeds.

    The operation runs through the tool's own bound invoker (same origin, same headers,
    same timeout). Refused (``PolicyViolationError``) unless the operation is a GET/HEAD
    or otherwise ``read_only=True``.
    """
    invoker = _openapi_invoker(router, tool)
    known = invoker.endpoints.get(operation)
    if known is None:
        raise RegistrationError(f"{tool} has no operation {operation!r}; known: {sorted(invoker.endpoints)}")
    if known.read_only is not True:
        raise PolicyViolationError(f"{tool}.{operation} is not read_only=True; it cannot be a probe")
    chosen = dict(arguments or {})

    async def probe() -> bool:
        try:
            current = _openapi_invoker(router, tool)
            await current.send(operation, chosen)
        except (InvocationError, RegistrationError):
            return False
        return True

    return probe


def _openapi_invoker(router: Any, tool: str) -> OpenApiInvoker:
    return bound_invoker(router, tool, OpenApiInvoker, what="an OpenAPI invoker", registered_with="add_url")


def _client(client_or_router: Any) -> httpx.AsyncClient:
    if isinstance(client_or_router, httpx.AsyncClient):
        return client_or_router
    client = getattr(client_or_router, "http_client", None)
    if not isinstance(client, httpx.AsyncClient):
        raise RegistrationError("a probe needs an httpx.AsyncClient or a SchemaRouter")
    return client
