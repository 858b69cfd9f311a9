"""What a kind's adapter is handed: :class:`UrlRequest` (``add_url``) and :class:`EntryContext`
(a landscape entry), both checked before any kind sees them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..errors import RegistrationError
from ._http import ClientSource, HttpTarget, origin_of
from ._network import NetworkChecker
from ._route import UrlRegistration

__all__ = ["EntryContext", "UrlRequest"]


@dataclass(frozen=True, slots=True)
class UrlRequest:
    """One ``add_url`` call, checked: what a kind's builder needs besides the URL.

    ``registration`` holds the tool's name, provider, access mode and the options (already
    checked against the kind's options type); ``headers`` are the application's secrets,
    sent only to the API's own origin; ``network`` is the router's connection rule, to be
    asked before anything is sent to an address (:meth:`origin` asks it for the URL given).
    """

    registration: UrlRegistration
    client: ClientSource
    headers: Mapping[str, str] = field(repr=False)
    base_url: str | None
    timeout_seconds: float
    document_timeout_seconds: float
    max_response_bytes: int
    network: NetworkChecker

    async def origin(self, url: str) -> str:
        """The origin of *url*, an address the application gave (checked by the connection
        rule); not an absolute http(s) URL is a ``RegistrationError``."""
        try:
            home = origin_of(url)
        except (ValueError, httpx.InvalidURL) as exc:
            raise RegistrationError(f"add_url() needs an absolute http(s) URL: {exc}") from None
        await self.network.check_given(url)
        return home

    def target(self, origin: str, *, headers: bool = True) -> HttpTarget:
        """Where the calls go: *origin*, with the headers (unless not *headers*) and the
        call timeout ``timeout_seconds``."""
        sent = self.headers if headers else {}
        return HttpTarget(self.client, origin, sent, self.timeout_seconds, self.max_response_bytes)

    def document_target(self, origin: str, *, headers: bool = True) -> HttpTarget:
        """Where the document is read: :meth:`target` with ``document_timeout_seconds``."""
        sent = self.headers if headers else {}
        return HttpTarget(self.client, origin, sent, self.document_timeout_seconds, self.max_response_bytes)


@dataclass(frozen=True, slots=True)
class EntryContext:
    """What the landscape gives a kind's entry adder besides the router and the entry.

    ``resolve(key, "package.module:function")`` imports a function the entry names under
    *key*; a failure is an error naming the file, the line and the key.
    """

    resolve: Callable[[str, str], Callable[..., Any]]
