"""``build_url_route``: read a document or discover an API by URL, and build its route.

Reads an OpenAPI document (``kind="openapi"``) or discovers an OPTIMADE API
(``kind="optimade"``) and returns the contract and a bound-ready invoker; nothing is
registered when it raises. Secrets in ``headers`` only ever go to the API's own origin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Unpack

import httpx

from .._contracts import ToolSpec
from .._headers import header_problem
from .._registry import Invoker
from ..errors import ConfigurationError, RegistrationError
from ._http import DEFAULT_MAX_RESPONSE_BYTES, ClientSource, HttpTarget, origin_of
from ._local_documents import api_base_of, is_local_document, load_local_document_set
from ._network import NetworkPolicy
from ._openapi import build_openapi_route
from ._openapi.servers import validate_base_url
from ._optimade import build_optimade_route
from ._options import UrlOptions
from ._route import UrlRegistration

__all__ = ["KINDS", "build_url_route", "check_headers"]

KINDS = ("openapi", "optimade")


async def build_url_route(
    url: str,
    *,
    kind: str,
    name: str,
    client: ClientSource,
    provider: str | None = None,
    access_mode: str | None = None,
    headers: Mapping[str, str] | None = None,
    base_url: str | None = None,
    timeout_seconds: float = 10.0,
    document_timeout_seconds: float = 30.0,
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    network: NetworkPolicy | None = None,
    **options: Unpack[UrlOptions],
) -> tuple[ToolSpec, Invoker]:
    """Read the document at *url* and build the ToolSpec and invoker for it.

    *client* is the router's shared client, or a callable returning it (preferred: the
    invoker then follows the router when it re-creates its client).
    *document_timeout_seconds* bounds the requests that read the document (OpenAPI) or
    discover the API (OPTIMADE ``/info``); *timeout_seconds* bounds each call.

    *options* are those of the kind: :class:`~._options.OpenApiOptions` or
    :class:`~._options.OptimadeOptions`; another kind's option is refused.

    *network* (default: the rule with the system resolver) is checked before anything is
    sent: *url* and *base_url* are the application's (metadata addresses refused), the
    OpenAPI ``servers`` the document names are learned from it.
    """
    if kind not in KINDS:
        raise RegistrationError(f"kind must be one of {KINDS}, got {kind!r}")
    if not 0 < timeout_seconds < math.inf:
        raise RegistrationError("timeout_seconds must be a positive, finite number of seconds")
    if not 0 < document_timeout_seconds < math.inf:
        raise RegistrationError("document_timeout_seconds must be a positive, finite number of seconds")
    if max_response_bytes < 1:
        raise RegistrationError("max_response_bytes must be positive")
    if not isinstance(url, str):
        raise RegistrationError(f"add_url() needs the URL as a string, got {type(url).__name__}")
    if kind == "openapi" and is_local_document(url):
        return await _local_openapi_route(
            url, UrlRegistration(kind, name, provider, access_mode, options), client=client,
            headers=headers, base_url=base_url, timeout_seconds=timeout_seconds,
            max_response_bytes=max_response_bytes, network=network,
        )  # fmt: skip
    try:
        home = origin_of(url)
    except (ValueError, httpx.InvalidURL) as exc:
        raise RegistrationError(f"add_url() needs an absolute http(s) URL: {exc}") from None
    secrets = check_headers(headers)
    registration = UrlRegistration(kind, name, provider, access_mode, options)
    checker = (network or NetworkPolicy()).checker()
    if kind == "optimade":
        if base_url is not None:
            raise RegistrationError("kind='optimade' reads the API at url itself; base_url is not used")
        await checker.check_given(url)
        target = HttpTarget(client, home, secrets, timeout_seconds, max_response_bytes)
        reader = HttpTarget(client, home, secrets, document_timeout_seconds, max_response_bytes)
        return await build_optimade_route(url, registration, target=target, document_target=reader)
    api = validate_base_url(base_url) if base_url is not None else None
    await checker.check_given(url)
    if api is not None:
        await checker.check_given(api)
    api_origin = origin_of(api) if api is not None else home
    target = HttpTarget(client, api_origin, secrets, timeout_seconds, max_response_bytes)
    document_target = HttpTarget(
        client, home, secrets if home == api_origin else {}, document_timeout_seconds, max_response_bytes
    )
    return await build_openapi_route(
        url, registration, target=target, document_target=document_target, base_url=api, network=checker
    )


async def _local_openapi_route(
    url: str,
    registration: UrlRegistration,
    *,
    client: ClientSource,
    headers: Mapping[str, str] | None,
    base_url: str | None,
    timeout_seconds: float,
    max_response_bytes: int,
    network: NetworkPolicy | None,
) -> tuple[ToolSpec, Invoker]:
    """An OpenAPI document in a local file (see :mod:`._local_documents`)."""
    secrets = check_headers(headers)
    loaded = await load_local_document_set(url, max_bytes=max_response_bytes)
    api = validate_base_url(api_base_of(loaded.document, base_url))
    checker = (network or NetworkPolicy()).checker()
    await checker.check_given(api)
    target = HttpTarget(client, origin_of(api), secrets, timeout_seconds, max_response_bytes)
    return await build_openapi_route(
        loaded.url, registration, target=target, document_target=target, base_url=api, loaded=loaded
    )


class InvalidHeaderError(RegistrationError, ConfigurationError):
    """A header the application gave cannot be sent (a line break, a NUL, a non-ASCII
    character, a name that is not a token): a configuration error, never retried."""


def check_headers(headers: Mapping[str, str] | None, *, what: str = "") -> dict[str, str]:
    """*headers* as a plain dict of strings; a header that cannot be sent as it is (see
    :func:`.._headers.header_problem`) is an :class:`InvalidHeaderError`."""
    out: dict[str, str] = {}
    for key, value in (headers or {}).items():
        problem = header_problem(key, value)
        if problem is not None:
            raise InvalidHeaderError(f"{what}: {problem}" if what else problem)
        out[key] = value
    return out
