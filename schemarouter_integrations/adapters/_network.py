"""Where the router may connect: address spaces after Private Network Access, one rule.

Every address falls in one of three spaces, from the most open to the most closed
(:class:`AddressSpace`): **public**, **private** (RFC 1918 ``10/8``, ``172.16/12``,
``192.168/16``, carrier-grade NAT ``100.64/10``, benchmarking ``198.18/15``, IETF protocol
assignments ``192.0.0/24``, unique-local ``fc00::/7``, the old site-local ``fec0::/10``) and
**local** (loopback ``127/8``, ``::1``, and link-local ``169.254/16``, ``fe80::/10``).
Private Network Access puts link-local in the private space; here it is local, because a
link-local host is reachable only from this machine's own link, like loopback, and that is
where cloud credential services listen. IPv4 written inside IPv6 (``::ffff:a.b.c.d``,
NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``, ``::a.b.c.d``) counts as the IPv4 address.

Some addresses are never a data source: cloud metadata services (:data:`METADATA_ADDRESSES`,
:data:`METADATA_NAMES`), the unspecified addresses (``0.0.0.0/8``, ``::``; Linux connects
them to this machine) and what is not unicast (multicast, ``240/4``, broadcast).

The rule (:class:`NetworkPolicy`), checked on *every* address a host name resolves to,
before anything connects:

* a URL the application gives (code, a landscape file) is used as given, except a metadata
  or unspecified address, which is refused unless ``allow_private_networks=True``;
* a URL learned from a fetched document (a providers list's or index's links, OpenAPI
  ``servers``, an external ``$ref``) may not lead to a more closed space than the
  document's own: public -> private or local, and private -> local, are refused; a
  metadata or unspecified address is refused always, ``allow_private_networks=True`` or not.
  ``allow_private_networks=True`` lifts the space rule only.

A document's space is the most open of its host's addresses; a learned URL's space is the
most closed of its host's addresses (one private address among public ones makes it private).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from urllib.parse import unquote

import anyio
import httpx

from ..errors import RegistrationError
from ._address_spaces import (
    METADATA_ADDRESSES,
    METADATA_NAMES,
    AddressSpace,
    IPAddress,
    address_space,
    literal_address,
    never_reason,
)

__all__ = [
    "METADATA_ADDRESSES",
    "METADATA_NAMES",
    "AddressRefusedError",
    "AddressSpace",
    "NetworkPolicy",
    "Resolver",
    "address_space",
    "never_reason",
    "system_resolver",
]

Resolver = Callable[[str], Awaitable[Sequence[str]]]
"""An async callable ``host -> IP address strings`` (every address the name resolves to)."""

RESOLVE_TIMEOUT_SECONDS = 10.0
"""How long one name may take to resolve before the check gives up on it."""


class AddressRefusedError(RegistrationError):
    """A URL the router will not connect to; ``reason`` says why, without the URL."""

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


async def system_resolver(host: str) -> list[str]:
    """The system's answer for *host* (anyio's ``getaddrinfo``): every address, in order."""
    infos = await anyio.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _host_of(url: str) -> str:
    """The host *url* connects to, as httpx sends it (IDNA, lower case, no brackets)."""
    try:
        raw = httpx.URL(url).raw_host.decode("ascii")
    except (httpx.InvalidURL, TypeError, ValueError, UnicodeDecodeError):
        raise AddressRefusedError(f"{url[:200]!r} is not a valid URL", reason="is not a valid URL") from None
    return unquote(raw).lower()


def _same_host(host: str, url: str) -> bool:
    try:
        return _host_of(url) == host
    except AddressRefusedError:
        return False


class NetworkPolicy:
    """The connection rule of one router (see the module docstring).

    *resolver* (default: :func:`system_resolver`, looked up when used) answers the check's
    questions only; the connection itself is made by the HTTP client.
    """

    def __init__(self, *, allow_private_networks: bool = False, resolver: Resolver | None = None) -> None:
        self.allow_private_networks = allow_private_networks
        self.resolver = resolver
        self.pins: dict[str, AddressSpace] = {}
        """Host -> the most closed space it had when checked (or first connected): a later
        connection may not go anywhere more closed (see :mod:`._connect`)."""

    def pin(self, host: str, addresses: Iterable[IPAddress]) -> None:
        """Remember the most closed space of *host*'s checked *addresses*."""
        spaces = [address_space(a) for a in addresses]
        if spaces:
            self.pins[host] = max(max(spaces), self.pins.get(host, AddressSpace.PUBLIC))

    async def connect_addresses(self, host: str) -> tuple[IPAddress, ...] | str:
        """The addresses *host* resolves to now (a fresh lookup: never a remembered answer)."""
        return await NetworkChecker(self)._addresses(host.lower())

    def connect_refusal(self, host: str, address: IPAddress) -> str | None:
        """Why a connection to *host* at *address* is refused now, else None.

        Never a metadata, unspecified or non-unicast address (unless ``allow_private_networks``
        and the host was given as such); never a space more closed than the host had when it
        was checked, or when it was first connected to (unless ``allow_private_networks``).
        """
        host = host.lower()
        pinned = self.pins.get(host)
        never = never_reason(address)
        if never is not None and (pinned is not None or not self.allow_private_networks):
            return f"is {never} ({host} resolves to {address} now)"
        if self.allow_private_networks:
            return None
        space = address_space(address)
        if pinned is None:
            self.pins[host] = space  # first use: what it is now is what it stays
            return None
        if space > pinned:
            return (
                f"resolves to a {space} address now ({address}), not the {pinned} address it had "
                "when checked (DNS rebinding)"
            )
        return None

    def checker(self) -> NetworkChecker:
        """A checker that resolves each host once (for one registration or federation walk)."""
        return NetworkChecker(self)

    async def check_given(self, url: str) -> None:
        """Refuse a URL the application gave when it is a metadata or unspecified address."""
        await self.checker().check_given(url)

    async def check_learned(self, url: str, *, learned_from: str | AddressSpace) -> None:
        """Refuse a URL learned from the document at *learned_from* (its URL, or its space
        when it has no address: the bundled providers list counts as public)."""
        await self.checker().check_learned(url, learned_from=learned_from)


class NetworkChecker:
    """:class:`NetworkPolicy`'s checks with each host's addresses remembered."""

    def __init__(self, policy: NetworkPolicy) -> None:
        self.policy = policy
        self._resolved: dict[str, tuple[IPAddress, ...] | str] = {}

    async def check_given(self, url: str) -> None:
        """A given URL: only metadata and unspecified addresses are refused (unless allowed).

        A name that does not resolve is let through: nothing is refused by a failed lookup,
        and the request that follows fails with its own connection error.
        """
        if self.policy.allow_private_networks:
            return
        host = _host_of(url)
        addresses = await self._addresses(host)
        if isinstance(addresses, str):
            return
        self._refuse_never(url, host, addresses)
        self.policy.pin(host, addresses)

    async def check_learned(self, url: str, *, learned_from: str | AddressSpace) -> None:
        """A learned URL: never a metadata address, and never into a more closed space.

        A URL on the document's own host leads nowhere the document was not read from (that
        host was checked before it was read): it passes without a lookup.
        """
        host = _host_of(url)
        if isinstance(learned_from, str) and _same_host(host, learned_from):
            return
        addresses = await self._addresses(host)
        if isinstance(addresses, str):
            raise self._refused(url, f"names a host ({host}) that {addresses}")
        self._refuse_never(url, host, addresses)
        if self.policy.allow_private_networks:
            return
        source = (
            learned_from if isinstance(learned_from, AddressSpace) else await self._space_of(learned_from)
        )
        closed = max(addresses, key=address_space, default=None)
        if closed is not None and address_space(closed) > source:
            where = host if str(closed) == host else f"{host}: {closed}"
            raise self._refused(
                url,
                f"leads from a document on a {source} address to a {address_space(closed)} "
                f"address ({where}); allow_private_networks=True allows that",
            )
        self.policy.pin(host, addresses)

    async def _space_of(self, document_url: str) -> AddressSpace:
        """The most open space of the document's host (public when it cannot be told)."""
        try:
            addresses = await self._addresses(_host_of(document_url))
        except AddressRefusedError:
            return AddressSpace.PUBLIC
        if isinstance(addresses, str) or not addresses:
            return AddressSpace.PUBLIC
        return min(address_space(a) for a in addresses)

    def _refuse_never(self, url: str, host: str, addresses: Iterable[IPAddress]) -> None:
        if host.rstrip(".") in METADATA_NAMES:
            raise self._refused(url, f"is a cloud metadata service ({host})")
        for address in addresses:
            reason = never_reason(address)
            if reason is not None:
                where = host if str(address) == host else f"{host} resolves to {address}"
                raise self._refused(url, f"is {reason} ({where})")

    @staticmethod
    def _refused(url: str, reason: str) -> AddressRefusedError:
        from ._http import public_url

        return AddressRefusedError(f"refused to connect to {public_url(url)}: it {reason}", reason=reason)

    async def _addresses(self, host: str) -> tuple[IPAddress, ...] | str:
        """Every address *host* stands for, or why it stands for none."""
        known = self._resolved.get(host)
        if known is not None:
            return known
        literal = literal_address(host)
        if literal is not None:
            found: tuple[IPAddress, ...] | str = (literal,)
        elif host.rstrip(".") in METADATA_NAMES:
            found = ()  # refused by name, never looked up
        else:
            found = await self._resolve(host)
        self._resolved[host] = found
        return found

    async def _resolve(self, host: str) -> tuple[IPAddress, ...] | str:
        resolver = self.policy.resolver or system_resolver
        try:
            with anyio.fail_after(RESOLVE_TIMEOUT_SECONDS):
                answer = await resolver(host.rstrip(".") or host)
        except TimeoutError:
            return f"did not resolve within {RESOLVE_TIMEOUT_SECONDS:g}s"
        except OSError as exc:
            return f"does not resolve: {exc.strerror or exc}"
        except Exception as exc:  # the application's resolver failed: nothing is known
            return f"does not resolve: {type(exc).__name__}: {str(exc)[:100]}"
        if isinstance(answer, str) or not isinstance(answer, Sequence):
            return "does not resolve: the resolver did not return a list of addresses"
        out: list[IPAddress] = []
        for item in answer:
            try:
                out.append(ipaddress.ip_address(item))
            except ValueError:
                return f"does not resolve: the resolver returned {str(item)[:60]!r}, not an IP address"
        return tuple(out) if out else "does not resolve: no address"
