"""``build_url_route``: read a document or discover an API by URL, and build its route.

The kind (``"openapi"``, ``"optimade"``, or one added by ``register_kind``) is looked up in
the table of kinds (:mod:`._kinds`); what every kind shares is checked here (the timeouts,
the size limit, the headers, the options against the kind's options type) and the kind's
builder returns the contract and a bound-ready invoker; nothing is registered when it
raises. Secrets in ``headers`` only ever go to the API's own origin.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Unpack

from .._contracts import ToolSpec
from .._headers import header_problem
from .._registry import Invoker
from ..errors import ConfigurationError, RegistrationError
from ._http import DEFAULT_MAX_RESPONSE_BYTES, ClientSource
from ._kinds import url_kind, url_kinds
from ._network import NetworkPolicy
from ._options import UrlOptions, check_options
from ._requests import UrlRequest
from ._route import UrlRegistration

__all__ = ["KINDS", "build_url_route", "check_headers"]

KINDS = url_kinds()
"""The built-in ``add_url`` kinds (:func:`._kinds.url_kinds` also has those added since)."""


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

    *options* are those of the kind (its options type in the table of kinds:
    :class:`~._options.OpenApiOptions`, :class:`~._options.OptimadeOptions`); another
    kind's option is refused.

    *network* (default: the rule with the system resolver) is checked before anything is
    sent: *url* and *base_url* are the application's (metadata addresses refused), the
    OpenAPI ``servers`` the document names are learned from it.
    """
    row = url_kind(kind)
    if not 0 < timeout_seconds < math.inf:
        raise RegistrationError("timeout_seconds must be a positive, finite number of seconds")
    if not 0 < document_timeout_seconds < math.inf:
        raise RegistrationError("document_timeout_seconds must be a positive, finite number of seconds")
    if max_response_bytes < 1:
        raise RegistrationError("max_response_bytes must be positive")
    if not isinstance(url, str):
        raise RegistrationError(f"add_url() needs the URL as a string, got {type(url).__name__}")
    what = f"add_url(kind={kind!r}, name={name!r})"
    if row.options is not None:
        check_options(options, row.options, what=what)
    elif options:
        raise RegistrationError(f"{what}: unknown option(s) {sorted(options)}; this kind takes none")
    request = UrlRequest(
        UrlRegistration(kind, name, provider, access_mode, options),
        client,
        check_headers(headers),
        base_url,
        timeout_seconds,
        document_timeout_seconds,
        max_response_bytes,
        (network or NetworkPolicy()).checker(),
    )
    build = row.build
    if build is None:  # url_kind only returns add_url kinds
        raise RegistrationError(f"kind {kind!r} is not read by URL")
    return await build(url, request)


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
