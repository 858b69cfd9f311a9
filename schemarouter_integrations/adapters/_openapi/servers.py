"""Where an OpenAPI operation's requests go: ``servers[]`` against the document's origin."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

import httpx

from ...errors import RegistrationError
from .._http import origin_of

_VARIABLE = re.compile(r"\{([^{}]+)\}")


def server_base(servers: Any, *, document_url: str, base_url: str | None, where: str) -> str:
    """The base URL (no trailing ``/``) that an operation's paths are appended to.

    With *base_url* that is the answer. Otherwise server URLs are resolved against the
    document URL (a missing list means ``/``) and the first one on the document's own origin
    wins; when every server points at another host a ``RegistrationError`` names the hosts.
    """
    if base_url is not None:
        return base_url.rstrip("/")
    entries = servers if isinstance(servers, list) and servers else [{"url": "/"}]
    home = origin_of(document_url)
    foreign: list[str] = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("url"), str):
            continue
        absolute = urljoin(document_url, _substitute(entry["url"], entry.get("variables")))
        try:
            same = origin_of(absolute) == home
        except ValueError:
            foreign.append(absolute)
            continue
        if same:
            return str(httpx.URL(absolute).copy_with(query=None, fragment=None)).rstrip("/")
        foreign.append(_host(absolute))
    hosts = ", ".join(sorted(set(foreign))) or "no usable server"
    raise RegistrationError(
        f"{where}: the document's servers point at {hosts}, not at the document's own origin "
        f"{home}; requests (and headers) only go to that origin unless base_url= names the API"
    )


def validate_base_url(base_url: str) -> str:
    """An absolute http(s) base URL without query or fragment, else ``RegistrationError``."""
    try:
        origin_of(base_url)
        parsed = httpx.URL(base_url)
    except (ValueError, httpx.InvalidURL) as exc:
        raise RegistrationError(f"base_url must be an absolute http(s) URL: {exc}") from None
    if parsed.query or parsed.fragment:
        raise RegistrationError("base_url must not carry a query string or fragment")
    return str(parsed).rstrip("/")


def _substitute(url: str, variables: Any) -> str:
    values = variables if isinstance(variables, dict) else {}

    def default(match: re.Match[str]) -> str:
        spec = values.get(match.group(1))
        value = spec.get("default") if isinstance(spec, dict) else None
        return str(value) if value is not None else match.group(0)

    return _VARIABLE.sub(default, url)


def _host(url: str) -> str:
    try:
        return httpx.URL(url).host or url
    except httpx.InvalidURL:
        return url


def first_absolute_server(servers: Any) -> str | None:
    """The first ``servers`` entry that is an absolute http(s) URL (variables at their
    defaults), without query or fragment or a trailing ``/``; None when there is none."""
    for entry in servers if isinstance(servers, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("url"), str):
            url = _substitute(entry["url"], entry.get("variables"))
            try:
                origin_of(url)
            except ValueError:
                continue
            return str(httpx.URL(url).copy_with(query=None, fragment=None)).rstrip("/")
    return None
