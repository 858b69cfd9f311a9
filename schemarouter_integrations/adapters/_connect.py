"""The connection rule at connect time: the address the router's HTTP client connects to.

:class:`._network.NetworkPolicy` checks a host's addresses when a route is registered. A name
can answer differently a moment later (DNS rebinding: public when checked, loopback or a
metadata address when connected). :class:`GuardedBackend` closes that gap in the router's own
HTTP client: every new connection resolves its host with the router's resolver, checks each
address it got (:meth:`.NetworkPolicy.connect_refusal`) and connects to the checked address
itself, never to the name, so what was checked is what is connected. TLS still verifies the
certificate against the host name (httpcore passes it as the server name).

A refused connection raises :class:`.AddressRefusedError` (nothing is sent); a host that does
not resolve is an ordinary connection error.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import httpcore
import httpx

from ._network import AddressRefusedError, NetworkPolicy

__all__ = ["GuardedBackend", "guard"]


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to addresses *policy* allows."""

    def __init__(self, policy: NetworkPolicy, inner: httpcore.AsyncNetworkBackend | None = None) -> None:
        self.policy = policy
        self.inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore.AsyncNetworkBackend's signature
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self.policy.connect_addresses(host)
        if isinstance(addresses, str):
            raise httpcore.ConnectError(f"{host} {addresses}")
        refusals = [self.policy.connect_refusal(host, address) for address in addresses]
        if not addresses:  # a metadata service's name: refused before it is looked up
            refusals = [f"is a cloud metadata service ({host})"]
        for reason in refusals:
            if reason is not None:
                raise AddressRefusedError(f"refused to connect to {host}:{port}: it {reason}", reason=reason)
        return await self.inner.connect_tcp(
            str(addresses[0]),
            port,
            timeout=timeout,
            local_address=local_address,
            socket_options=socket_options,
        )

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore.AsyncNetworkBackend's signature
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return await self.inner.connect_unix_socket(path, timeout=timeout, socket_options=socket_options)

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def guard(client: httpx.AsyncClient, policy: NetworkPolicy) -> httpx.AsyncClient:
    """*client* (one the router made) with its connections checked by *policy*."""
    pool = getattr(getattr(client, "_transport", None), "_pool", None)
    if not isinstance(pool, httpcore.AsyncConnectionPool):  # pragma: no cover - httpx changed its layout
        raise RuntimeError("cannot guard the connections of this httpx version's client")
    pool._network_backend = GuardedBackend(policy, pool._network_backend)
    return client
