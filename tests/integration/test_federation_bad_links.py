"""One bad address in a providers list or an index never costs the healthy providers, and
credentials go only where the application sent them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from schemarouter_integrations import SchemaRouter
from tests.servers.tiny_optimade import child, provider, tiny_federation
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

BAD_URLS = [
    "file:///etc/passwd",
    "ftp://example.org/db",
    "javascript:alert(1)",
    "data:text/plain,x",
    "http://[::1",
]


class Served:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str]]] = []
        self.thread: UvicornThread | None = None

    @property
    def url(self) -> str:
        assert self.thread is not None
        return self.thread.url

    def start(self, providers: Any, links: Any, databases: Any) -> Served:
        self.thread = UvicornThread(tiny_federation(providers, links, databases, self.received)).start()
        return self


@pytest.fixture
def served() -> Iterator[Served]:
    server = Served()
    try:
        yield server
    finally:
        if server.thread is not None:
            server.thread.stop()


async def test_malformed_urls_in_a_providers_list_and_links_are_skipped_not_fatal(served: Served) -> None:
    providers = [provider("lab", "{base}/lab")] + [provider(f"bad{i}", url) for i, url in enumerate(BAD_URLS)]
    links = {"lab": [child("main", "{base}/labdb")] + [child(f"x{i}", url) for i, url in enumerate(BAD_URLS)]}
    served.start(providers, links, {"labdb": "lab"})
    router = SchemaRouter()

    report = await router.add_optimade_federation(f"{served.url}/providers.json", probes=False)

    assert report.registered == ["lab_main"]
    assert {f"bad{i}" for i in range(len(BAD_URLS))} <= set(report.skipped)
    assert {f"lab_x{i}" for i in range(len(BAD_URLS))} <= set(report.skipped)


async def test_a_provider_listed_twice_keeps_its_first_entry_and_says_so(served: Served) -> None:
    providers = [provider("lab", "{base}/lab"), provider("lab", "{base}/elsewhere")]
    served.start(providers, {"lab": [child("main", "{base}/labdb")], "elsewhere": []}, {"labdb": "lab"})

    report = await SchemaRouter().add_optimade_federation(f"{served.url}/providers.json", probes=False)

    assert report.registered == ["lab_main"]
    assert any("twice" in reason for reason in report.skipped.values())


async def test_a_database_claiming_a_provider_prefix_does_not_get_that_providers_headers(
    served: Served,
) -> None:
    served.start([], {}, {"impostor": "mp"})
    router = SchemaRouter()

    report = await router.add_optimade_federation(
        [f"{served.url}/impostor"], headers={"mp": {"x-api-key": "mp-secret-key-1234"}}, probes=False
    )

    assert report.registered == ["mp_impostor"]
    assert all("x-api-key" not in headers for _, headers in served.received)


async def test_headers_given_for_a_database_url_reach_that_database(served: Served) -> None:
    served.start([], {}, {"labdb": "lab"})
    url = f"{served.url}/labdb"
    router = SchemaRouter()
    await router.add_optimade_federation([url], headers={url: {"x-api-key": "lab-key-5678"}}, probes=False)

    await router.invoke("structures of Si")

    assert any(
        headers.get("x-api-key") == "lab-key-5678"
        for path, headers in served.received
        if path.endswith("/structures")
    )


async def test_an_index_contributes_at_most_the_documented_number_of_databases(served: Served) -> None:
    from schemarouter_integrations.adapters._optimade.walk import MAX_DATABASES_PER_INDEX

    children = [child(f"db{i:03d}", "{base}/labdb") for i in range(MAX_DATABASES_PER_INDEX + 3)]
    served.start([provider("lab", "{base}/lab")], {"lab": children}, {"labdb": "lab"})

    report = await SchemaRouter().add_optimade_federation(f"{served.url}/providers.json", probes=False)

    over = [name for name, reason in report.skipped.items() if "the limit" in reason]
    assert len(report.registered) + len(over) == MAX_DATABASES_PER_INDEX + 3
    assert len(over) == 3
