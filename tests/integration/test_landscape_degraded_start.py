"""Starting degraded: a landscape whose route's server is down at start loads the others, names
the pending route, registers it once its server is back; the document cache stands in for an
unreachable source. Real loopback servers (uvicorn, a refused port)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from schemarouter_integrations import PlanRequest, RegistrationError, SchemaRouter
from tests.servers.document_source import DocumentSource

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

REGISTRATION_WAIT_SECONDS = 60.0
"""A generous bound on the background retries (1 s, then 2 s, ... with jitter)."""
SI = PlanRequest(query="band gap", arguments={"formula": "Si"})


@pytest.fixture
def source() -> Iterator[DocumentSource]:
    with DocumentSource() as source:
        yield source


def _landscape(tmp_path: Path, routes: dict[str, str], *, document_cache: str | None = None) -> Path:
    """One OpenAPI route per *routes* item (name -> document URL), each probed by ``search``."""
    text = f'document_cache = "{document_cache}"\n\n' if document_cache else ""
    for name, url in routes.items():
        text += (
            f"[routes.{name}]\n"
            'kind = "openapi"\n'
            f'url = "{url}"\n'
            f'provider = "{name}"\n'
            "timeout_seconds = 5.0\n"
            'headers = { x-api-key = "landscape-secret-value" }\n'
            'probe = "search"\n\n'
        )
    path = tmp_path / "landscape.toml"
    path.write_text(text)
    return path


async def test_a_landscape_with_one_route_down_loads_the_others_and_answers_from_them(
    tmp_path: Path, source: DocumentSource, refused_url: str
) -> None:
    path = _landscape(tmp_path, {"down": f"{refused_url}/openapi.json", "up": source.document_url})

    async with await SchemaRouter.from_config(path) as router:
        result = await router.invoke(SI)

    assert result.tool == "up" and result.records == [{"band_gap": 0.61}]
    assert sorted(router.tools) == ["up"]


async def test_pending_names_the_down_route_with_its_reason(
    tmp_path: Path, source: DocumentSource, refused_url: str
) -> None:
    path = _landscape(tmp_path, {"down": f"{refused_url}/openapi.json", "up": source.document_url})

    router = await SchemaRouter.from_config(path)
    await router.aclose()

    pending = router.inspect().pending
    assert list(pending) == ["down"]
    assert "could not connect" in pending["down"] and f"{refused_url}/openapi.json" in pending["down"]
    assert "landscape-secret-value" not in str(router.inspect().model_dump())


async def test_a_route_registers_with_its_probe_once_its_server_is_back(
    tmp_path: Path, source: DocumentSource
) -> None:
    path = _landscape(tmp_path, {"mp_api": source.document_url})
    source.stop()  # connections to its port are refused now
    router = await SchemaRouter.from_config(path)
    assert list(router.inspect().pending) == ["mp_api"]

    source.start()  # back, on the same port
    async with router:
        with anyio.fail_after(REGISTRATION_WAIT_SECONDS):
            await router._pending.wait_until_settled()
        snapshot = router.inspect()
        result = await router.invoke(SI)

    assert snapshot.pending == {} and sorted(snapshot.tools) == ["mp_api"]
    assert sorted(snapshot.health.probes) == ["mp_api.search"]
    assert result.tool == "mp_api"


async def test_strict_raises_naming_the_file_line_route_and_cause(tmp_path: Path, refused_url: str) -> None:
    path = _landscape(tmp_path, {"down": f"{refused_url}/openapi.json"})

    with pytest.raises(RegistrationError) as raised:
        await SchemaRouter.from_config(path, strict=True)

    assert str(raised.value).startswith(f"{path}:1: routes.down: ")
    assert "could not connect" in str(raised.value)


async def test_the_cache_serves_the_last_good_copy_when_the_source_is_down_and_inspect_says_so(
    tmp_path: Path, source: DocumentSource
) -> None:
    path = _landscape(tmp_path, {"mp_api": source.document_url}, document_cache="cache")
    async with await SchemaRouter.from_config(path):
        pass  # the first start keeps the copy
    source.stop()

    async with await SchemaRouter.from_config(path) as router:
        snapshot = router.inspect()

    assert snapshot.pending == {} and sorted(snapshot.tools) == ["mp_api"]
    assert snapshot.documents.cache == str((tmp_path / "cache").resolve())
    copy = snapshot.documents.from_cache[source.document_url]
    assert copy.age_seconds >= 0 and "could not connect" in copy.reason


async def test_a_5xx_uses_the_cached_copy(tmp_path: Path, source: DocumentSource) -> None:
    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(source.document_url, kind="openapi", name="mp_api")
    source.status = 503

    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(source.document_url, kind="openapi", name="mp_api")
        assert "503" in router.inspect().documents.from_cache[source.document_url].reason


async def test_a_4xx_does_not_use_the_cached_copy(tmp_path: Path, source: DocumentSource) -> None:
    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(source.document_url, kind="openapi", name="mp_api")
    source.status = 401

    async with SchemaRouter(document_cache=tmp_path) as router:
        with pytest.raises(RegistrationError, match="401"):
            await router.add_url(source.document_url, kind="openapi", name="mp_api")
        assert router.inspect().documents.from_cache == {}


async def test_a_304_uses_the_cached_copy(tmp_path: Path, source: DocumentSource) -> None:
    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(source.document_url, kind="openapi", name="mp_api")

    async with SchemaRouter(document_cache=tmp_path) as router:
        spec = await router.add_url(source.document_url, kind="openapi", name="mp_api")
        in_use = router.inspect().documents.from_cache

    assert source.document_requests[-1]["if-none-match"] == '"v1"'
    assert source.not_modified == 1 and [e.name for e in spec.endpoints] == ["search"]
    assert in_use == {}  # revalidated: current, not standing in for an unreachable source


def kept(folder: Path) -> bytes:
    return b"".join(path.read_bytes() for path in folder.iterdir())


async def test_the_cache_never_contains_a_header_value(tmp_path: Path, source: DocumentSource) -> None:
    secret = {"x-api-key": "landscape-secret-value"}
    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(source.document_url, kind="openapi", name="mp_api", headers=secret)
    assert kept(tmp_path) and b"landscape-secret-value" not in kept(tmp_path)

    source.echo_header, source.etag = "x-api-key", '"v2"'  # the document now repeats the key
    async with SchemaRouter(document_cache=tmp_path) as router:
        await router.add_url(source.document_url, kind="openapi", name="mp_api", headers=secret)
    assert b"landscape-secret-value" not in kept(tmp_path)


async def test_a_pending_reason_masks_a_secret_on_an_mcp_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_TOKEN", "mcp-token-secret-value")
    path = tmp_path / "landscape.toml"
    path.write_text(
        "[routes.tools]\n"
        'kind = "mcp"\n'
        'target = ["python", "-c", "raise SystemExit(3)", "--token", "${MCP_TOKEN}"]\n'
        "timeout_seconds = 10.0\n"
    )

    router = await SchemaRouter.from_config(path)
    await router.aclose()

    reason = router.inspect().pending["tools"]
    assert "cannot list the tools" in reason and "mcp-token-secret-value" not in reason
