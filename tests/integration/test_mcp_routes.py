"""MCP servers as routes (``router.add_mcp``), against real servers written with the ``mcp`` SDK:
a stdio subprocess that is killed mid-session, one over streamable HTTP on loopback, and
one in-process."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from schemarouter_integrations import (
    NonRetryableInvocationError,
    PlanRequest,
    RegistrationError,
    SchemaRouter,
)
from schemarouter_integrations.adapters import mcp_ping_probe
from schemarouter_integrations.adapters._mcp.entry import mcp_route_arguments
from schemarouter_integrations.errors import ConfigurationError
from tests.servers.mcp_materials import build_materials_server
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.anyio, pytest.mark.integration]

SCRIPT = str(Path(__file__).resolve().parents[1] / "servers" / "mcp_materials.py")


@pytest.fixture
def http_materials() -> Iterator[UvicornThread]:
    server = UvicornThread(build_materials_server(source="http").streamable_http_app()).start()
    try:
        yield server
    finally:
        server.stop()


def band_gap(tool: str, scope: str = "cross_provider") -> PlanRequest:
    return PlanRequest(
        query="band gap", arguments={"formula": "Si"}, preferred_tools=[tool], fallback_scope=scope
    )


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (killed, not yet reaped) counts as gone
        return Path(f"/proc/{pid}/status").read_text().find("State:\tZ") < 0
    except OSError:
        return True


async def test_each_mcp_tool_is_an_endpoint_and_only_the_applications_word_classifies_it() -> None:
    router = SchemaRouter()
    spec = await router.add_mcp(
        build_materials_server(), name="mat", provider="mp", read_only=["search_materials"]
    )
    endpoints = {e.name: e for e in spec.endpoints}
    assert set(endpoints) == {"search_materials", "delete_material", "strict_lookup"}
    search = endpoints["search_materials"]
    assert spec.access_mode == "mcp" and search.read_only is True
    assert search.input_schema["properties"] == {"formula": {"title": "Formula", "type": "string"}}
    assert search.records_path == ["records"]
    assert {f.name for f in search.fields} == {"material_id", "formula", "band_gap", "source"}
    # strict_lookup says readOnlyHint=true, but the application did not: unclassified
    assert endpoints["strict_lookup"].read_only is None
    assert "readOnlyHint=true" in endpoints["strict_lookup"].description
    plan = router.plan(
        PlanRequest(query="band gap", arguments={"formula": "Si"}, fallback_scope="cross_provider")
    )
    assert [c.access_path for c in plan.calls] == ["mat.search_materials"]
    assert "server hints, untrusted: readOnlyHint=true" in plan.explain()
    result = await router.invoke(plan)
    # the tool's summary names its records "band gap and identifier of materials": the whole record
    whole = {"band_gap": 0.61, "formula": "Si", "material_id": "mp-149", "source": "inproc"}
    assert result.records == [whole]
    await router.aclose()


async def test_an_is_error_result_is_non_retryable_and_never_falls_back() -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(build_materials_server(), name="mat", tools=["strict_lookup"], read_only=True)
        with pytest.raises(NonRetryableInvocationError, match="unknown formula 'Xx'"):
            await router.invoke(
                PlanRequest(query="band gap", arguments={"formula": "Xx"}, fallback_scope="cross_provider")
            )
        assert router.inspect().execution.unavailable_access_paths == []


async def test_registration_refuses_unknown_names_and_misplaced_options() -> None:
    router = SchemaRouter()
    server = build_materials_server()
    with pytest.raises(RegistrationError, match="search_material"):
        await router.add_mcp(server, name="mat", tools=["search_material"])
    with pytest.raises(RegistrationError, match="read_only"):
        await router.add_mcp(server, name="mat", tools=["search_materials"], read_only=["delete_material"])
    with pytest.raises(RegistrationError, match="URL target only"):
        await router.add_mcp(server, name="mat", headers={"Authorization": "Bearer x"})
    with pytest.raises(RegistrationError, match="target"):
        await router.add_mcp("ftp://example.org", name="mat")
    with pytest.raises(RegistrationError, match="unknown option"):
        await router.add_mcp(server, name="mat", color="red")  # type: ignore[call-arg]
    with pytest.raises(RegistrationError):  # nothing listens there: nothing is registered
        await router.add_mcp(
            [sys.executable, "-c", "import sys; sys.exit(1)"], name="gone", timeout_seconds=5
        )
    assert router.tools == {}


def test_a_landscape_entry_becomes_add_mcp_arguments() -> None:
    entry = {
        "kind": "mcp",
        "name": "mat",
        "target": ["python", "server.py"],
        "read_only": ["search_materials"],
        "timeout": 5,
        "headers": {"Authorization": "Bearer x"},
    }
    assert mcp_route_arguments(entry) == {
        "target": ["python", "server.py"],
        "name": "mat",
        "read_only": ["search_materials"],
        "headers": {"Authorization": "Bearer x"},
        "timeout_seconds": 5.0,
    }
    with pytest.raises(ConfigurationError, match="timeout"):
        mcp_route_arguments({**entry, "timeout": -1})
    with pytest.raises(ConfigurationError, match="unknown key"):
        mcp_route_arguments({**entry, "tool": ["x"]})


async def test_a_killed_stdio_server_falls_back_cools_down_and_reconnects_when_it_returns(
    tmp_path: Path, http_materials: UvicornThread
) -> None:
    now = [1000.0]
    pid_file, down_file = tmp_path / "pid", tmp_path / "down"
    command = [sys.executable, SCRIPT, "--pid-file", str(pid_file), "--down-file", str(down_file)]
    router = SchemaRouter(clock=lambda: now[0])
    await router.add_mcp(
        command, name="mp_stdio", provider="materials_project", tools=["search_materials"], read_only=True
    )
    await router.add_mcp(
        http_materials.url + "/mcp",
        name="mp_http",
        provider="materials_project",
        tools=["search_materials"],
        read_only=True,
    )

    def oqmd_band_gap(formula: str) -> list[dict[str, object]]:
        return [{"formula": formula, "band_gap": 0.62}]

    router.add_callable(
        oqmd_band_gap, name="oqmd_python", provider="oqmd", read_only=True, fields=["formula", "band_gap"]
    )
    probe = mcp_ping_probe(router, "mp_stdio")
    async with router:
        first = await router.invoke(band_gap("mp_stdio"))
        assert first.route == ["mp_stdio.search_materials"]
        assert await probe() is True

        # killed mid-session (and kept from starting again): the HTTP route answers
        pid = int(pid_file.read_text())
        down_file.touch()
        os.kill(pid, signal.SIGKILL)
        second = await router.invoke(band_gap("mp_stdio"))
        assert second.route == ["mp_stdio.search_materials", "mp_http.search_materials"]
        assert second.access_mode == "mcp"
        assert "mp_stdio.search_materials" in router.inspect().execution.cooldowns
        assert await probe() is False  # the process exits at once while the down file exists

        # the HTTP server goes too: the non-MCP route of another provider answers
        http_materials.stop()
        third = await router.invoke(band_gap("mp_http"))
        assert third.route == ["mp_http.search_materials", "oqmd_python.oqmd_band_gap"]
        assert third.records == [{"band_gap": 0.62, "formula": "Si"}]

        # it comes back, the cooldown ends: a new session answers
        down_file.unlink()
        now[0] += 301
        assert router.inspect().execution.unavailable_access_paths == []
        fourth = await router.invoke(band_gap("mp_stdio"))
        assert fourth.route == ["mp_stdio.search_materials"]
        new_pid = int(pid_file.read_text())
        assert new_pid != pid and alive(new_pid)
    # the router closed its sessions: the subprocess is gone
    for _ in range(100):
        if not alive(new_pid):
            break
        await anyio.sleep(0.05)
    assert not alive(new_pid)
