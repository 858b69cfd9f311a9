"""Where the router may connect: the address spaces, the rule for learned and given URLs, and
the router's settings. Names resolve through a dict (``resolver=``); nothing is sent anywhere
but to an ``httpx.MockTransport``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.adapters import _network
from schemarouter_integrations.adapters._network import (
    AddressRefusedError,
    AddressSpace,
    NetworkPolicy,
    address_space,
    never_reason,
    system_resolver,
)
from schemarouter_integrations.errors import ConfigurationError, InvalidCallbackError, RegistrationError
from tests.support.openapi import DOC_URL, FakeApi, document, get

pytestmark = pytest.mark.anyio

PUBLIC, PRIVATE, LOCAL = AddressSpace.PUBLIC, AddressSpace.PRIVATE, AddressSpace.LOCAL
NAMES = {
    "public.example": ["93.184.216.34"],
    "other.example": ["203.0.113.7"],
    "private.example": ["10.0.0.5"],
    "intranet.example": ["192.168.1.20"],
    "mixed.example": ["93.184.216.34", "10.1.2.3"],
    "loopback.example": ["127.0.0.1"],
    "imds.example": ["169.254.169.254"],
}


class Names:
    """A resolver over :data:`NAMES` that records every question."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def __call__(self, host: str) -> Sequence[str]:
        self.asked.append(host)
        if host not in NAMES:
            raise OSError(f"{host} is not known")
        return NAMES[host]


def policy(*, allow: bool = False) -> tuple[NetworkPolicy, Names]:
    names = Names()
    return NetworkPolicy(allow_private_networks=allow, resolver=names), names


# -- the address spaces ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("address", "space"),
    [
        ("93.184.216.34", PUBLIC),
        ("2606:2800:220:1:248:1893:25c8:1946", PUBLIC),
        ("10.0.0.1", PRIVATE),
        ("172.16.5.4", PRIVATE),
        ("172.32.0.1", PUBLIC),
        ("192.168.0.1", PRIVATE),
        ("100.64.0.1", PRIVATE),
        ("198.18.0.1", PRIVATE),
        ("fd12:3456::1", PRIVATE),
        ("fc00::1", PRIVATE),
        ("127.0.0.1", LOCAL),
        ("127.255.0.9", LOCAL),
        ("::1", LOCAL),
        ("169.254.10.10", LOCAL),
        ("fe80::1", LOCAL),
        ("fe80::1%eth0", LOCAL),
    ],
)
def test_each_address_is_in_its_documented_space(address: str, space: AddressSpace) -> None:
    assert address_space(address) is space


def test_link_local_addresses_are_local_like_loopback() -> None:
    assert address_space("169.254.1.1") is address_space("fe80::abcd") is address_space("127.0.0.1")


@pytest.mark.parametrize(
    ("address", "space"),
    [
        ("::ffff:10.0.0.1", PRIVATE),
        ("::ffff:127.0.0.1", LOCAL),
        ("64:ff9b::c0a8:1", PRIVATE),
        ("2002:0a00:0001::", PRIVATE),
    ],
)
def test_ipv4_written_inside_ipv6_counts_as_the_ipv4_address(address: str, space: AddressSpace) -> None:
    assert address_space(address) is space


@pytest.mark.parametrize(
    "address",
    ["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "169.254.170.2", "::ffff:169.254.169.254"],
)
def test_cloud_metadata_addresses_are_never_connected_to(address: str) -> None:
    assert never_reason(_network.ipaddress.ip_address(address)) == "a cloud metadata address"


@pytest.mark.parametrize("address", ["0.0.0.0", "0.1.2.3", "::"])
def test_unspecified_addresses_are_never_connected_to(address: str) -> None:
    assert never_reason(_network.ipaddress.ip_address(address)) == "the unspecified address"


@pytest.mark.parametrize("address", ["224.0.0.1", "255.255.255.255", "ff02::1"])
def test_addresses_that_are_not_unicast_are_never_connected_to(address: str) -> None:
    assert never_reason(_network.ipaddress.ip_address(address)) == "not a unicast address"


def test_an_ordinary_address_has_no_reason_to_be_refused() -> None:
    assert never_reason(_network.ipaddress.ip_address("10.0.0.1")) is None


# -- learned URLs -----------------------------------------------------------------------------
async def test_a_public_document_may_lead_to_another_public_host() -> None:
    rule, _ = policy()
    await rule.check_learned("https://other.example/v1", learned_from="https://public.example/links")


async def test_a_public_document_may_not_lead_to_a_name_that_resolves_to_a_private_address() -> None:
    rule, _ = policy()
    with pytest.raises(
        AddressRefusedError, match=r"public address to a private address \(private.example: 10.0.0.5\)"
    ):
        await rule.check_learned("https://private.example/db", learned_from="https://public.example/links")


async def test_one_private_address_among_the_names_answers_makes_it_private() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match=r"10\.1\.2\.3"):
        await rule.check_learned("https://mixed.example/db", learned_from="https://public.example/links")


async def test_a_public_document_may_not_lead_to_a_loopback_literal() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match="to a local address"):
        await rule.check_learned("http://127.0.0.1:8080/db", learned_from="https://public.example/links")


async def test_a_public_document_may_not_lead_to_a_host_written_the_old_numeric_way() -> None:
    rule, names = policy()
    with pytest.raises(AddressRefusedError, match="local address"):
        await rule.check_learned("http://2130706433/db", learned_from="https://public.example/links")
    assert "2130706433" not in names.asked  # read as 127.0.0.1, as the C library would


async def test_a_private_document_may_lead_to_another_private_host() -> None:
    rule, _ = policy()
    await rule.check_learned("http://intranet.example/db", learned_from="http://private.example/links")


async def test_a_private_document_may_not_lead_to_loopback() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match="private address to a local address"):
        await rule.check_learned("http://loopback.example/db", learned_from="http://private.example/links")


async def test_a_loopback_document_may_lead_to_loopback() -> None:
    rule, _ = policy()
    await rule.check_learned("http://127.0.0.1:9001/db", learned_from="http://127.0.0.1:9000/links")


async def test_a_document_with_a_public_address_among_its_hosts_answers_counts_as_public() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError):
        await rule.check_learned("http://intranet.example/db", learned_from="http://mixed.example/links")


async def test_a_document_without_an_address_counts_as_public() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError):
        await rule.check_learned("http://private.example/db", learned_from=AddressSpace.PUBLIC)


async def test_a_learned_metadata_address_is_refused_from_a_local_document() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match="cloud metadata address"):
        await rule.check_learned("http://169.254.169.254/latest", learned_from="http://127.0.0.1:9000/links")


async def test_a_learned_metadata_address_is_refused_even_when_private_networks_are_allowed() -> None:
    rule, _ = policy(allow=True)
    with pytest.raises(AddressRefusedError, match="cloud metadata address"):
        await rule.check_learned("http://imds.example/latest", learned_from="http://public.example/links")


async def test_a_learned_metadata_name_is_refused_without_being_looked_up() -> None:
    rule, names = policy()
    with pytest.raises(AddressRefusedError, match="metadata service"):
        await rule.check_learned("http://metadata.google.internal./computeMetadata/v1/", learned_from=LOCAL)
    assert names.asked == []


async def test_a_learned_unspecified_address_is_refused() -> None:
    rule, _ = policy(allow=True)
    with pytest.raises(AddressRefusedError, match="unspecified address"):
        await rule.check_learned("http://0.0.0.0:8000/db", learned_from=LOCAL)


async def test_allowing_private_networks_lets_a_public_document_lead_to_a_private_host() -> None:
    rule, _ = policy(allow=True)
    await rule.check_learned("https://private.example/db", learned_from="https://public.example/links")


async def test_a_learned_name_that_does_not_resolve_is_refused() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match=r"names a host \(nowhere.example\) that does not resolve"):
        await rule.check_learned("https://nowhere.example/db", learned_from=PUBLIC)


async def test_a_url_on_the_documents_own_host_passes_without_a_lookup() -> None:
    rule, names = policy()
    await rule.check_learned(
        "https://unknown.example/api", learned_from="https://unknown.example/openapi.json"
    )
    assert names.asked == []


async def test_a_checker_looks_each_host_up_once() -> None:
    rule, names = policy()
    checker = rule.checker()
    for database in ("a", "b", "c"):
        await checker.check_learned(
            f"https://other.example/{database}", learned_from="https://public.example/"
        )
    assert sorted(names.asked) == ["other.example", "public.example"]


async def test_an_answer_that_is_not_an_ip_address_refuses_the_learned_url() -> None:
    async def broken(host: str) -> list[str]:
        return ["not-an-address"]

    with pytest.raises(AddressRefusedError, match="not an IP address"):
        await NetworkPolicy(resolver=broken).check_learned("https://x.example/", learned_from=PUBLIC)


# -- given URLs -------------------------------------------------------------------------------
async def test_a_given_private_address_is_used_as_given() -> None:
    rule, _ = policy()
    await rule.check_given("http://private.example/openapi.json")


async def test_a_given_metadata_address_is_refused() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match="cloud metadata address"):
        await rule.check_given("http://169.254.169.254/latest/meta-data/")


async def test_a_given_name_resolving_to_a_metadata_address_is_refused() -> None:
    rule, _ = policy()
    with pytest.raises(AddressRefusedError, match=r"imds\.example resolves to 169\.254\.169\.254"):
        await rule.check_given("http://imds.example/latest")


async def test_a_given_metadata_address_is_used_when_private_networks_are_allowed() -> None:
    rule, _ = policy(allow=True)
    await rule.check_given("http://169.254.169.254/latest/meta-data/")


async def test_a_given_name_that_does_not_resolve_is_let_through_to_fail_on_connect() -> None:
    rule, _ = policy()
    await rule.check_given("http://nowhere.example/openapi.json")


# -- the resolver -----------------------------------------------------------------------------
async def test_without_a_resolver_the_system_resolver_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    async def recording(host: str) -> list[str]:
        asked.append(host)
        return ["93.184.216.34"]

    monkeypatch.setattr(_network, "system_resolver", recording)
    await NetworkPolicy().check_learned("https://db.example/", learned_from=PUBLIC)
    assert asked == ["db.example"]


async def test_the_system_resolver_answers_an_ip_literal_without_dns() -> None:
    assert await system_resolver("127.0.0.1") == ["127.0.0.1"]


# -- the router's settings --------------------------------------------------------------------
def test_allow_private_networks_must_be_a_bool() -> None:
    with pytest.raises(ConfigurationError, match="allow_private_networks"):
        SchemaRouter(allow_private_networks="yes")  # type: ignore[arg-type]


def test_the_resolver_must_be_callable() -> None:
    with pytest.raises(InvalidCallbackError, match="resolver"):
        SchemaRouter(resolver=["10.0.0.1"])  # type: ignore[arg-type]


def test_the_routers_network_policy_carries_its_settings() -> None:
    names = Names()
    network = SchemaRouter(allow_private_networks=True, resolver=names).network_policy
    assert network.allow_private_networks is True and network.resolver is names


# -- add_url ----------------------------------------------------------------------------------
def router_over(api: FakeApi, *, allow: bool = False) -> SchemaRouter:
    return SchemaRouter(http_client=api.client, resolver=Names(), allow_private_networks=allow)


LISTING = {"/items": get("listItems")}


async def test_add_url_refuses_a_metadata_address_before_sending_anything() -> None:
    api = FakeApi({"http://169.254.169.254/openapi.json": document(LISTING)})
    with pytest.raises(RegistrationError, match="cloud metadata address"):
        await router_over(api).add_url("http://169.254.169.254/openapi.json", kind="openapi", name="m")
    assert api.requests == []


async def test_add_url_refuses_a_metadata_host_name_for_optimade_before_sending_anything() -> None:
    api = FakeApi({})
    with pytest.raises(RegistrationError, match="metadata service"):
        await router_over(api).add_url("http://metadata.google.internal/", kind="optimade", name="m")
    assert api.requests == []


async def test_add_url_refuses_a_metadata_base_url_before_sending_anything() -> None:
    api = FakeApi({DOC_URL: document(LISTING)})
    with pytest.raises(RegistrationError, match="cloud metadata address"):
        await router_over(api).add_url(DOC_URL, kind="openapi", name="m", base_url="http://169.254.169.254/")
    assert api.requests == []


async def test_add_url_uses_a_given_metadata_address_when_private_networks_are_allowed() -> None:
    api = FakeApi({"http://169.254.169.254/openapi.json": document(LISTING)})
    spec = await router_over(api, allow=True).add_url(
        "http://169.254.169.254/openapi.json", kind="openapi", name="m"
    )
    assert spec.endpoint("listItems") is not None


async def test_openapi_servers_pointing_at_a_metadata_address_are_refused() -> None:
    doc = document(LISTING, servers=[{"url": "http://169.254.169.254/latest"}])
    api = FakeApi({DOC_URL: doc})
    with pytest.raises(RegistrationError, match=r"169\.254\.169\.254"):
        await router_over(api).add_url(DOC_URL, kind="openapi", name="m")
    assert [str(r.url) for r in api.requests] == [DOC_URL]


async def test_openapi_servers_on_the_documents_own_host_are_used() -> None:
    doc = document(LISTING, servers=[{"url": "/v2"}])
    api = FakeApi({DOC_URL: doc})
    router = router_over(api)
    await router.add_url(DOC_URL, kind="openapi", name="m")
    await router.invoke("items")
    assert str(api.requests[-1].url).startswith("http://api.test/v2/items")


async def test_add_mcp_refuses_a_metadata_url_before_connecting() -> None:
    with pytest.raises(RegistrationError, match="cloud metadata address"):
        await router_over(FakeApi({})).add_mcp("http://169.254.169.254/mcp", name="m")


async def test_a_redirect_from_a_document_is_not_followed() -> None:
    requests: list[httpx.Request] = []

    def redirecting(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(302, headers={"location": "http://10.0.0.1/openapi.json"})

    router = SchemaRouter(
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(redirecting), follow_redirects=True)
    )
    with pytest.raises(RegistrationError):
        await router.add_url(DOC_URL, kind="openapi", name="m")
    assert [str(r.url) for r in requests] == [DOC_URL]


async def test_a_landscape_route_on_a_metadata_address_is_refused_naming_the_route(tmp_path: Path) -> None:
    landscape = tmp_path / "landscape.toml"
    landscape.write_text(
        '[routes.imds]\nkind = "openapi"\nurl = "http://169.254.169.254/openapi.json"\n', encoding="utf-8"
    )
    with pytest.raises(
        RegistrationError, match=r"routes\.imds: refused to connect .* cloud metadata address"
    ):
        await SchemaRouter.from_config(landscape)
