"""The command line with a mistyped argument and a pending preferred route: a name no
registered route takes is a usage error (exit 2) with "did you mean"; a pending route's
warning names it as pending and masks what came from the environment, as the routes table does."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.test_cli import run_all
from tests.servers.document_source import DocumentSource
from tests.servers.uvicorn_thread import RefusedPort

pytestmark = pytest.mark.integration

SECRET = "path-token-4f9a2c71"
QUESTION = "What is the band gap of Si?"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, subprocess.CompletedProcess[str]]]:
    with DocumentSource() as source, RefusedPort() as down:
        path = tmp_path_factory.mktemp("mistakes") / "landscape.toml"
        path.write_text(
            '[tool]\nscope = "cross_provider"\npreferred_tools = ["down"]\n\n'
            f'[routes.down]\nkind = "openapi"\nprovider = "down"\n'
            f'url = "{down.url}/${{PATH_TOKEN}}/openapi.json"\n\n'
            f'[routes.up]\nkind = "openapi"\nurl = "{source.document_url}"\nprovider = "up"\n'
        )
        config = str(path)
        commands = {
            "mistyped": ("query", QUESTION, "--arg", "formulae=Si", "--config", config),
            "mistyped_plan": ("plan", QUESTION, "--arg", "formulae=Si", "--config", config, "--json"),
            "right": ("query", QUESTION, "--arg", "formula=Si", "--config", config),
            "validate": ("validate", "--config", config, "--connect"),
        }
        yield run_all(commands, {"PATH_TOKEN": SECRET})


def test_an_argument_no_route_takes_is_a_usage_error_with_did_you_mean(runs: dict[str, Any]) -> None:
    done = runs["mistyped"]
    assert done.returncode == 2, done.stderr
    assert "no registered route takes an argument 'formulae'; did you mean 'formula'?" in done.stderr
    assert "no eligible route" not in done.stderr


def test_plan_refuses_the_mistyped_argument_too(runs: dict[str, Any]) -> None:
    assert runs["mistyped_plan"].returncode == 2


def test_the_right_argument_still_answers(runs: dict[str, Any]) -> None:
    done = runs["right"]
    assert done.returncode == 0, done.stderr
    assert "Answered by up.search" in done.stdout


def test_a_pending_preferred_route_is_named_as_pending(runs: dict[str, Any]) -> None:
    said = runs["right"].stderr
    assert "preferred tool 'down' is pending" in said
    assert "is not registered" not in said


def test_no_message_shows_what_the_table_masks(runs: dict[str, Any]) -> None:
    for name, done in runs.items():
        assert SECRET not in done.stdout + done.stderr, name
    assert "/***/openapi.json" in runs["validate"].stdout  # the table and the pending line
    assert "/***/openapi.json" in runs["right"].stderr  # the registration warning
