"""The document cache reads its files as untrusted and keeps no secret, however it is written:
a copy stands in only for the URL it was fetched from and only with the body it was stored
with; a validator that cannot be sent back as a header is neither kept nor sent; a body
that repeats the token of an ``Authorization`` header, or a key written with JSON escapes,
is not kept (the one document loader over ``httpx.MockTransport``; a fake wall clock)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations._document_cache import DocumentCache
from schemarouter_integrations.adapters._documents import DocumentError
from schemarouter_integrations.errors import SchemaRouterError
from tests.support.fakes import FakeClock
from tests.support.openapi import DOC_URL, get, param
from tests.support.openapi import document as oa_document
from tests.unit.test_document_cache import DOCUMENT, URL, Source, good, kept, load, refused

pytestmark = pytest.mark.anyio

OTHER = "https://api.example.org/v2/info"
TOKEN = "tok-9f8e7d6c5b4a39281706"
KEY = "key/with/slashes-0123456789"


@pytest.fixture
def cache(tmp_path: Path) -> DocumentCache:
    return DocumentCache(tmp_path / "documents", clock=FakeClock(start=1_700_000_000.0))


def nothing_kept(cache: DocumentCache) -> bool:
    return not cache.directory.exists() or kept(cache) == b""


# -- a copy belongs to its URL and its body ----------------------------------------------
async def test_a_copy_put_under_another_urls_file_does_not_stand_in_for_it(cache: DocumentCache) -> None:
    await load(Source(good), cache, URL)
    shutil.copyfile(cache.path_for(URL), cache.path_for(OTHER))
    with pytest.raises(DocumentError):
        await load(Source(refused), cache, OTHER)
    assert await load(Source(refused), cache, URL) == DOCUMENT  # the true copy still serves


async def test_a_copy_whose_body_was_changed_in_place_is_no_copy(cache: DocumentCache) -> None:
    await load(Source(good), cache, URL)
    path = cache.path_for(URL)
    record = json.loads(path.read_bytes())
    record["body"] = "eyJkYXRhIjogImV2aWwifQ=="  # {"data": "evil"}
    path.write_text(json.dumps(record))
    with pytest.raises(DocumentError):
        await load(Source(refused), cache, URL)


async def test_the_file_names_the_digests_of_its_url_and_body(cache: DocumentCache) -> None:
    await load(Source(good), cache, URL)
    assert cache.path_for(URL).exists() and len(list(cache.directory.glob("*.json"))) == 1
    record = json.loads(cache.path_for(URL).read_bytes())
    assert len(record["url_sha256"]) == 64 and len(record["body_sha256"]) == 64


# -- validators that cannot be sent back ---------------------------------------------------
def etag(value: bytes) -> Source:
    return Source(lambda request: httpx.Response(200, json=DOCUMENT, headers=[(b"etag", value)]))


async def test_a_non_ascii_etag_is_not_kept_and_later_loads_still_work(cache: DocumentCache) -> None:
    await load(etag('"v\u00e9"'.encode()), cache)
    assert json.loads(cache.path_for(URL).read_bytes())["etag"] is None
    source = Source(good)
    assert await load(source, cache) == DOCUMENT
    assert "if-none-match" not in source.requests[0].headers


async def test_a_bad_validator_already_in_a_file_is_never_sent(cache: DocumentCache) -> None:
    await load(Source(good), cache)
    path = cache.path_for(URL)
    record = json.loads(path.read_bytes())
    record["etag"], record["last_modified"] = '"v\u00e9"', "Wed\r\nX-Evil: 1"
    path.write_text(json.dumps(record))
    source = Source(good)
    assert await load(source, cache) == DOCUMENT
    assert "if-none-match" not in source.requests[0].headers
    assert "if-modified-since" not in source.requests[0].headers


async def test_add_url_after_a_non_ascii_etag_registers_again(tmp_path: Path) -> None:
    document = oa_document({"/s": get("s", parameters=[param("q")])})
    url = DOC_URL

    def serve(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=document, headers=[(b"etag", '"\u00e9t\u00e9"'.encode())])

    client = httpx.AsyncClient(transport=httpx.MockTransport(serve))
    router = SchemaRouter(http_client=client, document_cache=tmp_path)
    try:
        await router.add_url(url, kind="openapi", name="first")
        await router.add_url(url, kind="openapi", name="second")  # once raised UnicodeEncodeError
        assert {"first", "second"} <= set(router.tools)
    finally:
        await router.aclose()
        await client.aclose()


async def test_a_header_that_cannot_be_sent_is_a_typed_error(tmp_path: Path) -> None:
    client = httpx.AsyncClient(transport=httpx.MockTransport(good))
    router = SchemaRouter(http_client=client)
    try:
        with pytest.raises(SchemaRouterError, match="not ASCII"):
            await router.add_url(
                "http://api.test/openapi.json", kind="openapi", name="x", headers={"k": "v\u00e9"}
            )
    finally:
        await router.aclose()
        await client.aclose()


# -- secrets in any form ---------------------------------------------------------------------
def echo(body: str) -> Source:
    return Source(
        lambda request: httpx.Response(
            200, content=body.encode(), headers={"content-type": "application/json"}
        )
    )


async def test_a_document_repeating_only_the_bearer_token_is_not_kept(cache: DocumentCache) -> None:
    await load(echo(json.dumps({"data": {"seen": TOKEN}})), cache, authorization=f"Bearer {TOKEN}")
    assert nothing_kept(cache)


async def test_a_document_repeating_a_key_with_json_escaped_slashes_is_not_kept(cache: DocumentCache) -> None:
    escaped = KEY.replace("/", "\\/")
    await load(echo('{"data": {"key": "' + escaped + '"}}'), cache, **{"x-api-key": KEY})
    assert nothing_kept(cache)


async def test_a_document_repeating_a_key_in_unicode_escapes_is_not_kept(cache: DocumentCache) -> None:
    escaped = "".join(f"\\u{ord(c):04x}" for c in KEY)
    await load(echo('{"data": {"key": "' + escaped + '"}}'), cache, **{"x-api-key": KEY})
    assert nothing_kept(cache)


async def test_a_document_repeating_a_long_run_of_a_key_is_not_kept(cache: DocumentCache) -> None:
    await load(echo(json.dumps({"data": {"hint": KEY[2:18]}})), cache, **{"x-api-key": KEY})
    assert nothing_kept(cache)


async def test_a_document_without_the_secret_is_still_kept(cache: DocumentCache) -> None:
    await load(Source(good), cache, authorization=f"Bearer {TOKEN}")
    assert kept(cache) and TOKEN.encode() not in kept(cache)
