"""The command line with one route's server down at start: validate --connect, inspect and probe
name the pending route, query answers from the others, --strict exits 1; --document-cache."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_cli import as_json, cli, run_all
from tests.servers.document_source import DocumentSource
from tests.servers.uvicorn_thread import RefusedPort

pytestmark = pytest.mark.integration

SI = ["What is the band gap of Si?", "--arg", "formula=Si"]


def landscape(folder: Path, routes: dict[str, str]) -> Path:
    path = folder / "landscape.toml"
    text = '[tool]\nscope = "cross_provider"\n\n'
    for name, url in routes.items():
        text += f'[routes.{name}]\nkind = "openapi"\nurl = "{url}"\nprovider = "{name}"\nprobe = "search"\n\n'
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, subprocess.CompletedProcess[str]]]:
    with DocumentSource() as source, RefusedPort() as down:
        routes = {"down": f"{down.url}/openapi.json", "up": source.document_url}
        config = str(landscape(tmp_path_factory.mktemp("degraded"), routes))
        commands = {
            "validate": ("validate", "--config", config, "--connect", "--json"),
            "validate_plain": ("validate", "--config", config, "--connect"),
            "validate_strict": ("validate", "--config", config, "--strict", "--json"),
            "inspect": ("inspect", "--config", config, "--json"),
            "inspect_plain": ("inspect", "--config", config),
            "inspect_strict": ("inspect", "--config", config, "--strict", "--json"),
            "probe": ("probe", "--config", config, "--json"),
            "query": ("query", *SI, "--config", config, "--json"),
            "query_strict": ("query", *SI, "--config", config, "--strict"),
        }
        yield run_all(commands, {})


def test_validate_connect_lists_the_pending_route_and_exits_0(runs: dict[str, Any]) -> None:
    done = runs["validate"]
    assert done.returncode == 0, done.stderr
    document = as_json(done)
    assert document["registered"] == ["up"]
    assert list(document["pending"]) == ["down"] and "could not connect" in document["pending"]["down"]


def test_validate_connect_prints_the_pending_route(runs: dict[str, Any]) -> None:
    done = runs["validate_plain"]
    assert done.returncode == 0, done.stderr
    assert "pending: down: could not fetch the OpenAPI document" in done.stdout


def test_inspect_shows_the_pending_route_and_its_reason(runs: dict[str, Any]) -> None:
    done = runs["inspect"]
    assert done.returncode == 0, done.stderr
    document = as_json(done)
    assert list(document["tools"]) == ["up"]
    assert list(document["pending"]) == ["down"] and "could not connect" in document["pending"]["down"]
    assert "pending: down:" in runs["inspect_plain"].stdout


def test_probe_reports_the_pending_route_and_exits_1(runs: dict[str, Any]) -> None:
    done = runs["probe"]
    assert done.returncode == 1
    document = as_json(done)
    assert document["probes"]["up.search"]["last_outcome"] == "ok"
    assert list(document["pending"]) == ["down"]


def test_query_answers_from_the_routes_that_loaded(runs: dict[str, Any]) -> None:
    done = runs["query"]
    assert done.returncode == 0, done.stderr
    assert as_json(done)["tool"] == "up"


@pytest.mark.parametrize("command", ["validate_strict", "inspect_strict", "query_strict"])
def test_strict_exits_1_naming_the_file_line_route_and_cause(runs: dict[str, Any], command: str) -> None:
    done = runs[command]
    assert done.returncode == 1
    message = as_json(done)["error"] if "--json" in done.args else done.stderr
    assert "landscape.toml:4: routes.down:" in message and "could not connect" in message


def test_the_document_cache_option_keeps_copies_that_stand_in_later(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    with DocumentSource() as source:
        config = str(landscape(tmp_path, {"up": source.document_url}))
        first = cli("inspect", "--config", config, "--document-cache", str(cache), "--json")
    assert first.returncode == 0, first.stderr

    later = cli("inspect", "--config", config, "--document-cache", str(cache), "--json")

    assert later.returncode == 0, later.stderr
    document = as_json(later)
    assert list(document["tools"]) == ["up"] and document["pending"] == {}
    assert list(document["documents"]["from_cache"]) == [source.document_url]
