"""The document cache: the last good copy of a document, with its validators, standing in for a
source that cannot be reached, never for a 4xx; no header value or secret is ever kept
(the one document loader over ``httpx.MockTransport``; a fake wall clock)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations._document_cache import DocumentCache, using
from schemarouter_integrations.adapters._documents import DocumentError, load_document
from schemarouter_integrations.adapters._http import HttpTarget
from schemarouter_integrations.config import load_config
from schemarouter_integrations.errors import ConfigurationError
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.anyio

URL = "https://api.example.org/v1/info"
DOCUMENT = {"data": {"type": "info", "attributes": {"api_version": "1.1.0"}}}
SECRET = "header-secret-0123456789"
Handler = Callable[[httpx.Request], httpx.Response]


class Source:
    """A scripted server: each request gets the next answer (the last one repeats)."""

    def __init__(self, *answers: Handler) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answers[min(len(self.requests), len(self.answers)) - 1](request)


def good(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json=DOCUMENT, headers={"etag": '"v1"', "last-modified": "Wed, 01 May 2024"})


def status(code: int) -> Handler:
    return lambda request: httpx.Response(code, json={"detail": "no"})


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


async def load(source: Source, cache: DocumentCache, url: str = URL, **headers: str) -> Any:
    client = httpx.AsyncClient(transport=httpx.MockTransport(source))
    target = HttpTarget(client, "https://api.example.org", headers)
    try:
        with using(cache):
            return await load_document(target, url)
    finally:
        await client.aclose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(start=1_700_000_000.0)


@pytest.fixture
def cache(tmp_path: Path, clock: FakeClock) -> DocumentCache:
    return DocumentCache(tmp_path / "documents", clock=clock)


def kept(cache: DocumentCache) -> bytes:
    return b"".join(path.read_bytes() for path in cache.directory.iterdir())


async def test_a_fetched_document_is_kept_in_a_file_named_by_the_hash_of_its_url(
    cache: DocumentCache,
) -> None:
    await load(Source(good), cache)
    name = hashlib.sha256(URL.encode()).hexdigest() + ".json"
    assert [p.name for p in cache.directory.iterdir()] == [name]
    record = json.loads((cache.directory / name).read_bytes())
    assert (record["etag"], record["last_modified"], record["url"]) == ('"v1"', "Wed, 01 May 2024", URL)


async def test_the_copy_stands_in_when_the_source_cannot_be_reached(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    assert await load(Source(refused), cache) == DOCUMENT


async def test_the_copy_in_use_is_listed_with_its_age_and_reason(
    cache: DocumentCache, clock: FakeClock
) -> None:
    await load(Source(good), cache)
    clock.advance(600)
    await load(Source(refused), cache)
    (copy,) = cache.in_use().values()
    assert copy["age_seconds"] == 600 and "could not connect" in copy["reason"]
    assert copy["stored_at"] == "2023-11-14T22:13:20+00:00"


async def test_a_5xx_uses_the_copy(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    assert await load(Source(status(503)), cache) == DOCUMENT
    assert await load(Source(status(501)), cache) == DOCUMENT


@pytest.mark.parametrize("code", [401, 404, 429])
async def test_a_4xx_does_not_use_the_copy(cache: DocumentCache, code: int) -> None:
    await load(Source(good), cache)
    with pytest.raises(DocumentError, match=str(code)):
        await load(Source(status(code)), cache)
    assert cache.in_use() == {}


async def test_a_request_is_conditional_when_a_copy_exists(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    source = Source(status(304))
    await load(source, cache)
    sent = source.requests[0].headers
    assert (sent["if-none-match"], sent["if-modified-since"]) == ('"v1"', "Wed, 01 May 2024")


async def test_a_304_uses_the_copy_as_current(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    assert await load(Source(status(304)), cache) == DOCUMENT
    assert cache.in_use() == {}


async def test_reading_the_source_again_ends_the_use_of_the_copy(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    await load(Source(refused), cache)
    await load(Source(good), cache)
    assert cache.in_use() == {}


async def test_without_a_copy_an_unreachable_source_is_still_a_document_error(cache: DocumentCache) -> None:
    with pytest.raises(DocumentError) as raised:
        await load(Source(refused), cache)
    assert raised.value.unavailable


async def test_the_cache_never_contains_a_header_value(cache: DocumentCache) -> None:
    await load(Source(good), cache, **{"x-api-key": SECRET})
    assert kept(cache) and SECRET.encode() not in kept(cache)


async def test_a_document_that_repeats_a_header_value_is_not_kept(cache: DocumentCache) -> None:
    echo = Source(lambda request: httpx.Response(200, json={"data": {"key": request.headers["x-api-key"]}}))
    await load(echo, cache, **{"x-api-key": SECRET})
    assert not cache.directory.exists() or kept(cache) == b""


async def test_a_document_that_repeats_a_query_secret_is_not_kept(cache: DocumentCache) -> None:
    url = f"{URL}?api_key={SECRET}"
    echo = Source(lambda request: httpx.Response(200, json={"meta": {"query": str(request.url)}}))
    await load(echo, cache, url)
    assert not cache.directory.exists() or kept(cache) == b""


async def test_a_body_that_is_not_an_object_does_not_replace_the_copy(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    await load(Source(lambda request: httpx.Response(200, json=["not", "a", "document"])), cache)
    assert await load(Source(refused), cache) == DOCUMENT


async def test_an_unreadable_copy_is_ignored(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    cache.path_for(URL).write_text("{not json")
    with pytest.raises(DocumentError):
        await load(Source(refused), cache)


async def test_writing_a_copy_leaves_no_temporary_file(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    await load(Source(lambda request: httpx.Response(200, json=DOCUMENT, headers={"etag": '"v2"'})), cache)
    assert [p.suffix for p in cache.directory.iterdir()] == [".json"]


async def test_without_a_cache_the_document_is_read_as_before() -> None:
    source = Source(good)
    client = httpx.AsyncClient(transport=httpx.MockTransport(source))
    try:
        assert await load_document(HttpTarget(client, "https://api.example.org"), URL) == DOCUMENT
    finally:
        await client.aclose()
    assert "if-none-match" not in source.requests[0].headers


def test_the_router_takes_a_folder_and_refuses_anything_else(tmp_path: Path) -> None:
    router = SchemaRouter(document_cache=tmp_path)
    assert router.inspect().documents.cache == str(tmp_path)
    with pytest.raises(ConfigurationError, match="document_cache"):
        SchemaRouter(document_cache=3)  # type: ignore[arg-type]


def test_the_landscape_key_is_relative_to_the_file(tmp_path: Path) -> None:
    path = tmp_path / "landscape.toml"
    path.write_text('document_cache = "cache/documents"\n')
    assert load_config(path).document_cache_path == (tmp_path / "cache" / "documents").resolve()
