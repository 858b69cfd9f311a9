"""The address spaces of IP addresses, after Private Network Access (see :mod:`._network`).

**public**, **private** and **local**, most open first; IPv4 written inside IPv6 counts as the
IPv4 address; cloud metadata, unspecified and non-unicast addresses are never a data source.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from enum import IntEnum

__all__ = [
    "METADATA_ADDRESSES",
    "METADATA_NAMES",
    "AddressSpace",
    "IPAddress",
    "address_space",
    "literal_address",
    "never_reason",
]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressSpace(IntEnum):
    """Private Network Access's address spaces, most open first."""

    PUBLIC = 0
    PRIVATE = 1
    LOCAL = 2

    def __str__(self) -> str:
        return self.name.lower()


METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, Azure, GCP, OpenStack, Oracle, DigitalOcean, ...
        "169.254.170.2",  # AWS ECS task credentials
        "169.254.170.23",  # AWS EKS pod identity
        "fd00:ec2::254",  # AWS over IPv6
        "fd00:ec2::23",  # AWS EKS pod identity over IPv6
        "100.100.100.200",  # Alibaba Cloud
        "168.63.129.16",  # Azure WireServer
        "192.0.0.192",  # Oracle Cloud (classic)
    )
)
"""Cloud metadata and credential services: refused wherever the URL came from."""

METADATA_NAMES = frozenset(
    {
        "metadata",
        "metadata.google.internal",
        "metadata.goog",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
"""Host names of metadata services, refused before they are resolved."""

_NETWORKS = ipaddress.ip_network
_NEVER = (
    (_NETWORKS("0.0.0.0/8"), "the unspecified address"),
    (_NETWORKS("::/128"), "the unspecified address"),
    (_NETWORKS("224.0.0.0/4"), "not a unicast address"),
    (_NETWORKS("240.0.0.0/4"), "not a unicast address"),
    (_NETWORKS("ff00::/8"), "not a unicast address"),
)
_LOCAL = tuple(_NETWORKS(n) for n in ("127.0.0.0/8", "169.254.0.0/16", "::1/128", "fe80::/10"))
_PRIVATE = tuple(
    _NETWORKS(n)
    for n in (
        "10.0.0.0/8",
        "100.64.0.0/10",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "fc00::/7",
        "fec0::/10",
    )
)
_NAT64 = _NETWORKS("64:ff9b::/96")
_COMPATIBLE = _NETWORKS("::/96")
_LEGACY_IPV4 = re.compile(r"^[0-9a-fx.]+$", re.IGNORECASE)
"""Hosts the C library reads as IPv4 (``2130706433``, ``0x7f.1``, ``127.1``)."""


def _ipv4_inside(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4, compatible), else the
    address itself without its zone (``fe80::1%eth0`` is ``fe80::1``)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return address
    if address.scope_id:
        address = ipaddress.IPv6Address(str(address).split("%", 1)[0])
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or (address in _COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def never_reason(address: IPAddress) -> str | None:
    """Why *address* is never connected to (metadata, unspecified, not unicast), else None."""
    for candidate in (address, _ipv4_inside(address)):
        if candidate in METADATA_ADDRESSES:
            return "a cloud metadata address"
        for network, reason in _NEVER:
            if candidate.version == network.version and candidate in network:
                return reason
    return None


def address_space(address: str | IPAddress) -> AddressSpace:
    """The address space of one IP address (a string or an ``ipaddress`` object)."""
    parsed = ipaddress.ip_address(address) if isinstance(address, str) else address
    parsed = _ipv4_inside(parsed)
    if any(parsed.version == n.version and parsed in n for n in _LOCAL):
        return AddressSpace.LOCAL
    if any(parsed.version == n.version and parsed in n for n in _PRIVATE):
        return AddressSpace.PRIVATE
    return AddressSpace.PUBLIC


def literal_address(host: str) -> IPAddress | None:
    """*host* as an IP address when it is written as one (no resolution needed)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if _LEGACY_IPV4.match(host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None
