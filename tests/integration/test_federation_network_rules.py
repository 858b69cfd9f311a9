"""The federation walk over real loopback HTTP follows the connection rule: an index or database
a document names on a more closed network, or on a metadata address, is skipped with its
reason, and nothing is sent to it.

Host names resolve for the check through ``resolver=`` (``public.example`` -> 93.184.216.34,
...); the requests themselves all go to one loopback server, whatever their host, through a
transport that keeps the ``Host`` header: no DNS query and no packet leaves loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import httpx
import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.errors import RegistrationError
from tests.servers.tiny_optimade import child, provider, tiny_federation
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

NAMES = {
    "public.example": ["93.184.216.34"],
    "other.example": ["203.0.113.7"],
    "private.example": ["10.0.0.5"],
    "intranet.example": ["192.168.7.7"],
    "mixed.example": ["93.184.216.34", "10.9.8.7"],
}


async def resolve(host: str) -> Sequence[str]:
    if host not in NAMES:
        raise OSError(f"{host} is not known")
    return NAMES[host]


class ToLoopback(httpx.AsyncBaseTransport):
    """Sends every request to 127.0.0.1 on the URL's port; the Host header stays as it was."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(host="127.0.0.1")
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


class Federation:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str]]] = []
        self.thread: UvicornThread | None = None

    @property
    def port(self) -> int:
        assert self.thread is not None
        return httpx.URL(self.thread.url).port or 80

    def at(self, host: str, path: str = "") -> str:
        return f"http://{host}:{self.port}{path}"

    def start(self, providers: Any, links: Any, databases: Any) -> Federation:
        self.thread = UvicornThread(tiny_federation(providers, links, databases, self.received)).start()
        return self

    def hosts(self) -> set[str]:
        """The host names requests were sent for (the Host header, without the port)."""
        return {headers["host"].rsplit(":", 1)[0] for _, headers in self.received}


@pytest.fixture
def federation() -> Iterator[Federation]:
    served = Federation()
    try:
        yield served
    finally:
        if served.thread is not None:
            served.thread.stop()


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=ToLoopback()) as client:
        yield client


def router(client: httpx.AsyncClient, **settings: Any) -> SchemaRouter:
    return SchemaRouter(http_client=client, resolver=resolve, **settings)


def lab(federation: Federation, far: str) -> Federation:
    """Provider ``lab``: its index links ``main`` beside it ({base}) and ``far`` at *far*
    (``{port}`` is the server's port)."""
    links = {"lab": [child("main", "{base}/labdb"), child("far", far)]}
    return federation.start([provider("lab", "{base}/lab")], links, {"labdb": "lab", "fardb": "lab"})


async def walk(client: httpx.AsyncClient, federation: Federation, host: str, **settings: Any) -> Any:
    return await router(client, **settings).add_optimade_federation(
        federation.at(host, "/providers.json"), probes=False
    )


async def test_an_index_on_a_public_name_cannot_lead_to_a_private_name(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://private.example:{port}/fardb")

    report = await walk(client, federation, "public.example")

    assert report.registered == ["lab_main"]
    assert "public address to a private address" in report.skipped["lab_far"]
    assert "private.example" not in federation.hosts()


async def test_a_name_with_one_private_address_among_its_answers_is_caught(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://mixed.example:{port}/fardb")

    report = await walk(client, federation, "public.example")

    assert "10.9.8.7" in report.skipped["lab_far"]
    assert "mixed.example" not in federation.hosts()


async def test_an_index_on_a_public_name_may_lead_to_another_public_name(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://other.example:{port}/fardb")

    report = await walk(client, federation, "public.example")

    assert report.registered == ["lab_far", "lab_main"]


async def test_an_index_cannot_lead_to_a_metadata_address(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://169.254.169.254/latest/meta-data")

    report = await walk(client, federation, "public.example")

    assert report.registered == ["lab_main"]
    assert "cloud metadata address" in report.skipped["lab_far"]


async def test_an_index_cannot_lead_to_a_metadata_host_name(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://metadata.google.internal:{port}/fardb")

    report = await walk(client, federation, "public.example")

    assert "metadata service" in report.skipped["lab_far"]
    assert "metadata.google.internal" not in federation.hosts()


async def test_a_loopback_index_cannot_lead_to_a_metadata_address_even_with_private_networks_allowed(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://169.254.169.254/latest/meta-data")

    report = await walk(client, federation, "127.0.0.1", allow_private_networks=True)

    assert "cloud metadata address" in report.skipped["lab_far"]


async def test_an_index_on_a_private_name_cannot_lead_to_loopback(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://127.0.0.1:{port}/fardb")

    report = await walk(client, federation, "private.example")

    assert report.registered == ["lab_main"]
    assert "private address to a local address" in report.skipped["lab_far"]
    assert all(not path.startswith("/fardb") for path, _ in federation.received)


async def test_an_index_on_a_private_name_may_lead_to_another_private_name(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://intranet.example:{port}/fardb")

    report = await walk(client, federation, "private.example")

    assert report.registered == ["lab_far", "lab_main"]


async def test_allowing_private_networks_lets_a_public_index_lead_to_a_private_name(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    lab(federation, "http://private.example:{port}/fardb")

    report = await walk(client, federation, "public.example", allow_private_networks=True)

    assert report.registered == ["lab_far", "lab_main"]
    assert "private.example" in federation.hosts()


async def test_a_public_providers_list_cannot_lead_to_an_index_on_a_private_name(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    providers = [provider("lab", "{base}/lab"), provider("corp", "http://private.example:{port}/corp")]
    links = {"lab": [child("main", "{base}/labdb")], "corp": [child("main", "{base}/corpdb")]}
    federation.start(providers, links, {"labdb": "lab", "corpdb": "corp"})

    report = await walk(client, federation, "public.example")

    assert report.registered == ["lab_main"]
    assert report.skipped["corp"].startswith("its index meta-database URL leads from a document on a public")
    assert "private.example" not in federation.hosts()


async def test_a_providers_list_given_on_a_metadata_address_is_refused(client: httpx.AsyncClient) -> None:
    with pytest.raises(RegistrationError, match="cloud metadata address"):
        await router(client).add_optimade_federation("http://169.254.169.254/providers.json", probes=False)


async def test_a_given_database_url_on_a_metadata_address_is_skipped_and_the_others_registered(
    federation: Federation, client: httpx.AsyncClient
) -> None:
    federation.start([], {}, {"labdb": "lab"})
    metadata = "http://169.254.169.254/latest"

    report = await router(client).add_optimade_federation(
        [federation.at("private.example", "/labdb"), metadata], probes=False
    )

    assert report.registered == ["lab_labdb"]
    assert "cloud metadata address" in report.skipped[metadata]


async def test_loopback_documents_may_lead_to_loopback_with_the_default_resolver(
    federation: Federation,
) -> None:
    lab(federation, "http://127.0.0.1:{port}/fardb")

    report = await SchemaRouter().add_optimade_federation(
        federation.at("127.0.0.1", "/providers.json"), probes=False
    )

    assert report.registered == ["lab_far", "lab_main"]


async def test_the_bundled_providers_list_counts_as_a_public_document(
    monkeypatch: pytest.MonkeyPatch, client: httpx.AsyncClient
) -> None:
    from schemarouter_integrations.adapters._optimade import walk as federation_walk

    listed = [provider("lab", "http://127.0.0.1:9/lab"), provider("corp", "http://private.example/corp")]
    monkeypatch.setattr(federation_walk, "bundled_providers", lambda: listed)

    report = await router(client).add_optimade_federation(probes=False)

    assert report.registered == []
    assert "public address to a local address" in report.skipped["lab"]
    assert "public address to a private address" in report.skipped["corp"]
