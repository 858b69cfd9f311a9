"""The connection rule at connect time (``NetworkPolicy.connect_refusal``): a host may not
connect to a more closed space than it had when checked, nor ever to a metadata address."""

from __future__ import annotations

import ipaddress

from schemarouter_integrations.adapters._network import NetworkPolicy

PUBLIC, PRIVATE, LOOPBACK = "93.184.216.34", "10.0.0.5", "127.0.0.1"
METADATA = "169.254.169.254"


def refusal(policy: NetworkPolicy, host: str, address: str) -> str | None:
    return policy.connect_refusal(host, ipaddress.ip_address(address))


def pinned(space_of: str, *, allow: bool = False) -> NetworkPolicy:
    policy = NetworkPolicy(allow_private_networks=allow)
    policy.pin("api.test", [ipaddress.ip_address(space_of)])
    return policy


def test_a_host_checked_public_may_not_connect_to_loopback_or_a_private_address() -> None:
    assert "rebinding" in (refusal(pinned(PUBLIC), "api.test", LOOPBACK) or "")
    assert "rebinding" in (refusal(pinned(PUBLIC), "api.test", PRIVATE) or "")


def test_a_host_keeps_connecting_within_its_space() -> None:
    assert refusal(pinned(PUBLIC), "API.test", "93.184.216.35") is None
    assert refusal(pinned(LOOPBACK), "api.test", LOOPBACK) is None
    assert refusal(pinned(PRIVATE), "api.test", PUBLIC) is None  # more open is fine


def test_a_metadata_address_is_refused_at_connect_time_always() -> None:
    assert "metadata" in (refusal(pinned(LOOPBACK), "api.test", METADATA) or "")
    assert "metadata" in (refusal(NetworkPolicy(), "never.checked", METADATA) or "")
    assert "metadata" in (refusal(pinned(PUBLIC, allow=True), "api.test", METADATA) or "")


def test_a_host_never_checked_keeps_the_space_of_its_first_connection() -> None:
    policy = NetworkPolicy()
    assert refusal(policy, "new.test", PUBLIC) is None
    assert refusal(policy, "new.test", LOOPBACK) is not None


def test_allow_private_networks_lifts_the_space_rule_only() -> None:
    assert refusal(pinned(PUBLIC, allow=True), "api.test", LOOPBACK) is None
    assert refusal(NetworkPolicy(allow_private_networks=True), "given.test", METADATA) is None
