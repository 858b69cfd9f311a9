"""The real command line (``python -m schemarouter_integrations``, the console script's target)
against a landscape file of loopback services: exit codes, JSON output, configuration errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from cookbook.services.landscape import LOCAL_LANDSCAPE, LocalLandscape

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SI = ["What is the band gap of Si?", "--arg", "formula=Si"]


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment,
        timeout=300,  # a bound, not a speed check (the machine may be loaded)
    )


def as_json(done: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(done.stdout)


HEALTHY = {
    "validate": ("validate", "--config", str(LOCAL_LANDSCAPE), "--json"),
    "query": ("query", *SI, "--config", str(LOCAL_LANDSCAPE), "--json"),
    "query_plain": ("query", *SI, "--config", str(LOCAL_LANDSCAPE)),
    "plan": ("plan", *SI, "--config", str(LOCAL_LANDSCAPE), "--json"),
    "no_route": (
        "plan",
        "melting point of Si",
        "--arg",
        "formula=Si",
        "--config",
        str(LOCAL_LANDSCAPE),
        "--json",
    ),
    "inspect": ("inspect", "--config", str(LOCAL_LANDSCAPE), "--json"),
    "probe": ("probe", "--config", str(LOCAL_LANDSCAPE), "--json"),
    "gather": ("gather", *SI, "--config", str(LOCAL_LANDSCAPE), "--json"),
}
OUTAGE = {
    "query": ("query", *SI, "--config", str(LOCAL_LANDSCAPE), "--json"),
    "probe": ("probe", "--config", str(LOCAL_LANDSCAPE), "--json"),
}


def run_all(commands: dict[str, tuple[str, ...]], env: dict[str, str]) -> dict[str, Any]:
    """Run the commands side by side (each is a separate process; the machine has 2 cores)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(cli, *args, env=env) for name, args in commands.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def services() -> Iterator[LocalLandscape]:
    with LocalLandscape() as landscape:
        yield landscape


@pytest.fixture(scope="module")
def healthy(services: LocalLandscape) -> dict[str, subprocess.CompletedProcess[str]]:
    services.api.reset(api_key=services.api_key)
    return run_all(HEALTHY, services.env)


@pytest.fixture(scope="module")
def outage(
    services: LocalLandscape, healthy: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, subprocess.CompletedProcess[str]]]:
    only_mp = tmp_path_factory.mktemp("cli") / "mp.toml"
    text = LOCAL_LANDSCAPE.read_text()
    only_mp.write_text(text[: text.index("[routes.oqmd]")])
    services.api.faults.always("503")
    try:
        yield run_all({**OUTAGE, "only_mp": ("query", *SI, "--config", str(only_mp), "--json")}, services.env)
    finally:
        services.api.reset(api_key=services.api_key)


def test_the_console_script_is_the_cli_entry() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"schemarouter-integrations": "schemarouter_integrations._cli:main"}
    done = subprocess.run(
        [sys.executable, "-c", "from schemarouter_integrations._cli import main; main()", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0
    for command in ("validate", "plan", "query", "gather", "inspect", "probe", "demo", "serve-mcp"):
        assert command in done.stdout


def test_validate_reads_the_file_without_contacting_anything(
    healthy: dict[str, Any], services: LocalLandscape
) -> None:
    done = healthy["validate"]
    assert done.returncode == 0, done.stderr
    document = as_json(done)
    assert sorted(document["routes"]) == ["alexandria", "mp_api", "oqmd"]
    assert document["routes"]["mp_api"]["headers"] == ["x-api-key"]
    assert services.api_key not in done.stdout


def test_a_bad_file_exits_2_naming_its_line_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[tool]\nname = "materials"\nscope = "everywhere"\n')
    done = cli("validate", "--config", str(bad), "--json")
    assert done.returncode == 2
    document = as_json(done)
    assert (document["line"], document["key"], document["file"]) == (3, "tool.scope", str(bad))
    plain = cli("query", "x", "--config", str(bad))
    assert plain.returncode == 2
    assert f"{bad}:3: tool.scope:" in plain.stderr


def test_a_missing_variable_exits_2_and_names_it() -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"MP_API_KEY", "MP_API_URL"}}
    done = subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", "validate", "--config", str(LOCAL_LANDSCAPE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert "environment variable MP_API_URL is not set" in done.stderr


def test_query_answers_from_the_primary(healthy: dict[str, Any]) -> None:
    done = healthy["query"]
    assert done.returncode == 0, done.stderr
    document = as_json(done)
    assert (document["tool"], document["records"][0]["band_gap"]) == ("mp_api", 0.6105)
    assert document["fallbacks"] == []


def test_plain_output_names_the_route_that_answered(healthy: dict[str, Any]) -> None:
    done = healthy["query_plain"]
    assert done.returncode == 0, done.stderr
    assert "Answered by mp_api.search (materials_project, openapi)" in done.stdout
    assert "\x1b[" not in done.stdout  # plain text when piped


def test_plan_shows_the_chain_and_the_rejections(healthy: dict[str, Any]) -> None:
    done = healthy["plan"]
    assert done.returncode == 0, done.stderr
    document = as_json(done)
    assert document["primary"]["tool"] == "mp_api"
    assert {f["tool"] for f in document["fallbacks"]} == {"oqmd", "alexandria"}
    rejected = {(r["tool"], r["endpoint"]) for r in document["rejected"]}
    assert ("mp_api", "heartbeat") in rejected


def test_a_question_no_route_can_answer_exits_3(healthy: dict[str, Any]) -> None:
    done = healthy["no_route"]
    assert done.returncode == 3
    assert as_json(done)["primary"] is None


def test_inspect_shows_bindings_and_never_the_key(healthy: dict[str, Any], services: LocalLandscape) -> None:
    done = healthy["inspect"]
    assert done.returncode == 0, done.stderr
    assert as_json(done)["execution"]["binding_states"] == {
        "alexandria": "ready",
        "mp_api": "ready",
        "oqmd": "ready",
    }
    assert services.api_key not in done.stdout


def test_probe_exits_0_when_every_probe_passes(healthy: dict[str, Any]) -> None:
    done = healthy["probe"]
    assert done.returncode == 0, done.stderr
    assert {p["last_outcome"] for p in as_json(done)["probes"].values()} == {"ok"}


def test_gather(healthy: dict[str, Any]) -> None:
    done = healthy["gather"]
    assert done.returncode == 0, done.stderr
    providers = {record["provider"] for record in as_json(done)["records"]}
    assert {"oqmd", "alexandria"} <= providers


def test_query_falls_back_across_providers_during_an_outage(outage: dict[str, Any]) -> None:
    done = outage["query"]
    assert done.returncode == 0, done.stderr
    document = as_json(done)
    assert document["route"][0] == "mp_api.search"
    assert document["provider"] in {"oqmd", "alexandria"}
    assert [f["scope"] for f in document["fallbacks"]] == ["cross_provider"]


def test_every_route_unavailable_exits_3(outage: dict[str, Any]) -> None:
    done = outage["only_mp"]
    assert done.returncode == 3
    assert as_json(done)["error_type"] == "AllRoutesUnavailableError"


def test_probe_exits_1_when_a_probe_fails(outage: dict[str, Any]) -> None:
    done = outage["probe"]
    assert done.returncode == 1
    assert as_json(done)["probes"]["mp_api.search"]["last_outcome"] == "failed"


def test_usage_errors_and_serve_mcp_exit_2() -> None:
    assert cli("query").returncode == 2
    assert cli("query", "x", "--config", "a.toml", "--arg", "no-equals-sign").returncode == 2
    done = cli("serve-mcp")  # serves a landscape (test_cli_serve_mcp.py): without one, a usage error
    assert done.returncode == 2
    assert "--config" in done.stderr
