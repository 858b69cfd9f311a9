"""Discovery of an OPTIMADE API: the versioned base URL, its ``/info`` and each entry's properties.

``/v1/info`` is tried first, then ``/versions`` (to tell "not version 1" from "not there")
and an unversioned ``/info``. Every document is read with the shared loader
(:func:`~.._documents.load_document`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

import httpx

from ...errors import InvocationError, RegistrationError
from .._documents import DocumentError, load_document
from .._http import HttpTarget, public_url

VERSIONED = re.compile(r"/v\d+(?:\.\d+){0,2}$")
"""A base URL path that already names a version (``/v1``, ``/v1.2``)."""
_NOT_ENTRIES = frozenset({"info", "links", "versions", "extensions", "index"})


def is_info_document(document: Any) -> TypeGuard[dict[str, Any]]:
    """Whether *document* looks like an OPTIMADE ``/info`` response."""
    return isinstance(document, dict) and isinstance(document.get("data"), dict)


async def discover(target: HttpTarget, url: str) -> tuple[str, dict[str, Any]]:
    """The versioned base URL and its ``/info`` document."""
    root = str(httpx.URL(url).copy_with(query=None, fragment=None)).rstrip("/")
    if VERSIONED.search(httpx.URL(root).path):
        return root, await info_document(target, f"{root}/info")
    try:
        return f"{root}/v1", await info_document(target, f"{root}/v1/info")
    except DocumentError as exc:
        if exc.unavailable:
            raise
        first = exc.reason
    majors = await _versions(target, root)
    if majors is not None and "1" not in majors:
        raise RegistrationError(
            f"{public_url(root)} serves OPTIMADE major version(s) {sorted(majors)}; 1.x is supported"
        )
    if majors is not None:
        raise RegistrationError(f"{public_url(root)} lists version 1 but /v1/info failed: {first}")
    try:
        return root, await info_document(target, f"{root}/info")
    except DocumentError as exc:
        if exc.unavailable:
            raise
        raise RegistrationError(
            f"no OPTIMADE API found at {public_url(root)}: /v1/info, /versions and /info failed ({first})"
        ) from None


async def info_document(target: HttpTarget, url: str) -> dict[str, Any]:
    """The ``/info`` document at *url*; anything else is a :class:`DocumentError`."""
    document = await load_document(target, url)
    if not is_info_document(document):
        reason = f"{public_url(url)} is not an OPTIMADE info document"
        raise DocumentError(f"could not read {public_url(url)}: {reason}", reason=reason)
    return document


async def entry_properties(target: HttpTarget, base: str, entry: str) -> dict[str, Any]:
    """The ``properties`` of ``/info/<entry>``."""
    url = f"{base}/info/{entry}"
    document = await load_document(target, url)
    data = document.get("data") if isinstance(document, dict) else None
    properties = data.get("properties") if isinstance(data, dict) else None
    if not isinstance(properties, dict):
        raise RegistrationError(f"{public_url(url)} lists no properties")
    return properties


def entry_types(attributes: Mapping[str, Any], chosen: str | Iterable[str] | None) -> list[str]:
    """The entry types served in JSON, or the *chosen* ones (each must be served)."""
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


async def _versions(target: HttpTarget, root: str) -> set[str] | None:
    try:
        fetched = await target.fetch("GET", f"{root}/versions", accept="text/csv, text/plain;q=0.9")
    except InvocationError:
        return None
    lines = [line.strip() for line in fetched.body.decode("utf-8", "replace").splitlines()]
    if not lines or lines[0].split(",")[0].strip().lower() != "version":
        return None
    return {line.split(",")[0].strip().lstrip("v").split(".")[0] for line in lines[1:] if line}
