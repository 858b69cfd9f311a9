"""The router's HTTP clients: one pooled ``httpx.AsyncClient`` per event loop.

An ``httpx.AsyncClient`` keeps connections tied to the loop that opened them. A router used
from ``invoke_sync`` (a fresh loop per call, or a worker thread's loop inside Jupyter) and
from ``await router.invoke`` on the main loop therefore needs a client per loop; the client
of a short-lived loop is closed when its run ends.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

import httpx

from ._connect import guard
from ._http import make_http_client
from ._network import NetworkPolicy

logger = logging.getLogger(__name__)


class HttpClients:
    """Hands out the client of the running loop; a client given by the application is used as is.

    With *network* (the router's :class:`NetworkPolicy`), every connection of the clients made
    here is checked at connect time (:mod:`._connect`)."""

    def __init__(
        self, given: httpx.AsyncClient | None = None, *, network: NetworkPolicy | None = None
    ) -> None:
        self._given = given
        self._network = network
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = (
            weakref.WeakKeyDictionary()
        )
        self._loopless: httpx.AsyncClient | None = None

    def current(self) -> httpx.AsyncClient:
        """The client for the running loop (created on first use)."""
        if self._given is not None:
            return self._given
        loop = _running_asyncio_loop()
        client = self._by_loop.get(loop) if loop is not None else self._loopless
        if client is None or client.is_closed:
            client = make_http_client()
            if self._network is not None:  # the connection rule holds for the address connected
                guard(client, self._network)
            if loop is not None:
                self._by_loop[loop] = client
            else:
                self._loopless = client
        return client

    async def release_current(self) -> None:
        """Close the running loop's own client (end of a short-lived loop)."""
        if self._given is not None:
            return
        loop = _running_asyncio_loop()
        client = self._by_loop.pop(loop, None) if loop is not None else None
        if client is not None:
            await client.aclose()

    async def aclose(self) -> None:
        """Close the clients this object created (the application closes its own)."""
        if self._given is not None:
            return
        loop = _running_asyncio_loop()
        clients = list(self._by_loop.items())
        self._by_loop.clear()
        if self._loopless is not None:
            clients.append((None, self._loopless))  # type: ignore[arg-type]
            self._loopless = None
        for owner, client in clients:
            if owner is not None and owner is not loop and (owner.is_closed() or owner.is_running()):
                continue  # bound to another loop: its connections die with that loop
            try:
                await client.aclose()
            except Exception:  # pragma: no cover - best effort on shutdown
                logger.debug("closing an HTTP client failed", exc_info=True)


def _running_asyncio_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
