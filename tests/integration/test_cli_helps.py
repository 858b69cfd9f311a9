"""The command line helps: ``--version``, examples and exit codes in every ``--help``, plain
output when piped, wall-clock JSON timestamps, every landscape problem at once with "did you
mean", URLs checked by ``validate``, an empty landscape refused, exit 2 without the ``[cli]``
extra, the ``serve-mcp`` endpoint URL, and a progress indicator on a terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from typer.testing import CliRunner

import schemarouter_integrations
from schemarouter_integrations._cli._app import app

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["validate", "plan", "query", "gather", "inspect", "probe", "demo", "serve-mcp"]
BOX_DRAWING = {chr(c) for c in range(0x2500, 0x2580)}

ROUTES = """
import time

SLOW = {slow}
if SLOW:
    time.sleep(SLOW)  # a module that takes a while to import: registering takes as long


def mp_rest_api(formula: str) -> list[dict]:
    from schemarouter_integrations import InvocationUnavailableError

    raise InvocationUnavailableError("connection refused")


def mp_python_client(formula: str) -> list[dict]:
    return [{{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}}]


def healthy() -> bool:
    return True
"""

LANDSCAPE = """
python_path = ["."]

[tool]
name = "materials"
scope = "same_provider"
preferred_tools = ["mp_api"]

[routes.mp_api]
kind = "python"
function = "routes:mp_rest_api"
provider = "materials_project"
endpoint = "search"
read_only = true
fields = ["band_gap", "formula", "material_id"]

[routes.mp_python]
kind = "python"
function = "routes:mp_python_client"
provider = "materials_project"
endpoint = "search"
read_only = true
fields = ["band_gap", "formula", "material_id"]
probe = "routes:healthy"
"""


def landscape(folder: Path, text: str = LANDSCAPE, *, slow: float = 0) -> Path:
    (folder / "routes.py").write_text(ROUTES.format(slow=slow))
    path = folder / "landscape.toml"
    path.write_text(text)
    return path


def cli(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=120,
    )


# -- --version and --help -------------------------------------------------------------------


def test_version_prints_the_program_and_its_version() -> None:
    done = cli("--version")
    assert (done.returncode, done.stdout) == (
        0,
        f"schemarouter-integrations {schemarouter_integrations.__version__}\n",
    )


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_every_help_shows_examples_and_exit_codes(command: str | None) -> None:
    done = CliRunner().invoke(
        app, [command, "--help"] if command else ["--help"], prog_name="schemarouter-integrations"
    )
    assert done.exit_code == 0
    examples = done.output.split("Examples:\n", 1)[1].split("Exit codes:\n", 1)
    assert f"schemarouter-integrations {command or ''}".strip() in examples[0]
    codes = [line.split()[0] for line in examples[1].splitlines() if line.strip()]
    assert {"0", "2"} <= set(codes) <= {"0", "1", "2", "3"}
    assert not set(done.output) & BOX_DRAWING


# -- plain output when piped --------------------------------------------------------------------


def test_piped_output_is_plain_text_without_boxes_or_colour(tmp_path: Path) -> None:
    path = landscape(tmp_path)
    validated = cli("validate", "--config", str(path))
    answered = cli("query", "band gap of Si", "--arg", "formula=Si", "--config", str(path))
    for done in (validated, answered):
        assert done.returncode == 0, done.stderr
        assert not set(done.stdout) & BOX_DRAWING
        assert "\x1b[" not in done.stdout + done.stderr
    assert "mp_python  python  materials_project" in " ".join(validated.stdout.split("  ")) or (
        "mp_python" in validated.stdout
    )
    assert "Answered by mp_python.search" in answered.stdout


# -- wall-clock timestamps ----------------------------------------------------------------------


def test_probe_json_reports_last_run_as_an_iso_utc_time(tmp_path: Path) -> None:
    done = cli("probe", "--config", str(landscape(tmp_path)), "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    last_run = document["probes"]["mp_python.search"]["last_run"]
    assert last_run.endswith("Z")
    when = datetime.fromisoformat(last_run)
    assert when.tzinfo is not None and abs(datetime.now(UTC) - when) < timedelta(hours=1)
    assert datetime.fromisoformat(document["checked_at"]) >= when


def test_query_json_says_when_it_answered_in_iso_utc(tmp_path: Path) -> None:
    done = cli(
        "query", "band gap of Si", "--arg", "formula=Si", "--config", str(landscape(tmp_path)), "--json"
    )
    assert done.returncode == 0, done.stderr
    answered_at = json.loads(done.stdout)["answered_at"]
    assert answered_at.endswith("Z")
    assert abs(datetime.now(UTC) - datetime.fromisoformat(answered_at)) < timedelta(hours=1)


# -- every problem at once ----------------------------------------------------------------------

PROBLEMS = """
[cooldown]
base_secs = 30

[routes.mp_api]
kind = "openapi"
url = "${MP_API_URL}/openapi.json"
provder = "materials_project"
headers = { x-api-key = "${MP_API_KEY}" }
"""


def test_every_missing_variable_and_bad_key_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "landscape.toml"
    path.write_text(PROBLEMS)
    env = {k: v for k, v in os.environ.items() if k not in {"MP_API_URL", "MP_API_KEY"}}
    done = subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", "validate", "--config", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["problems"] == [
        f"{path}:3: cooldown.base_secs: unknown key (did you mean 'base_seconds'?)",
        f"{path}:7: routes.mp_api.url: environment variable MP_API_URL is not set",
        f"{path}:8: routes.mp_api.provder: unknown key (did you mean 'provider'?)",
        f"{path}:9: routes.mp_api.headers.x-api-key: environment variable MP_API_KEY is not set",
    ]


# -- URLs and empty landscapes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [("htp://api.example.org/openapi.json", "got scheme 'htp'"), ("https:///openapi.json", "got no host")],
)
def test_validate_refuses_a_url_that_is_not_http_with_a_host(tmp_path: Path, url: str, reason: str) -> None:
    path = tmp_path / "landscape.toml"
    path.write_text(f'[routes.mp_api]\nkind = "openapi"\nurl = "{url}"\n')
    done = cli("validate", "--config", str(path))
    assert done.returncode == 2
    assert (
        f"{path}:3: routes.mp_api.url: must be an http:// or https:// URL with a host, {reason}"
        in done.stderr
    )


@pytest.mark.parametrize("command", [["validate"], ["query", "band gap"]])
def test_a_landscape_without_routes_is_a_configuration_error(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "landscape.toml"
    path.write_text('[tool]\nname = "materials"\n')
    done = cli(*command, "--config", str(path))
    assert done.returncode == 2
    assert "the landscape has no routes" in done.stderr


# -- without the [cli] extra -------------------------------------------------------------------

WITHOUT_TYPER = """
import sys

class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"typer", "rich"}:
            raise ImportError(f"No module named {name!r}")

sys.meta_path.insert(0, Hide())
from schemarouter_integrations._cli import main
main()
"""


def test_without_the_cli_extra_the_exit_code_is_2_and_names_the_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_TYPER, "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2
    assert 'pip install "schemarouter-integrations[cli]"' in done.stderr
    assert "Traceback" not in done.stderr


# -- serve-mcp over HTTP -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def read_line_with(stream: Any, text: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 1.0)
        if ready:
            line = stream.readline()
            if text in line:
                return str(line)
            if not line:
                break
    raise AssertionError(f"no line with {text!r}")


def test_serve_mcp_over_http_prints_the_endpoint_url_it_serves(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "schemarouter_integrations", "serve-mcp", "--transport", "http"]
    server = subprocess.Popen(
        [*command, "--port", str(port), "--config", str(landscape(tmp_path))],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        line = read_line_with(server.stderr, "serving MCP", seconds=90)
        url = line.rsplit(" ", 1)[1].strip()
        assert url == f"http://127.0.0.1:{port}/mcp"
        assert anyio.run(tools_at, url) == ["materials"]
    finally:
        server.terminate()
        server.wait(timeout=30)


async def tools_at(url: str) -> list[str]:
    for _ in range(120):  # the address is printed just before uvicorn listens
        try:
            async with Client(url) as client:
                return [tool.name for tool in (await client.list_tools()).tools]
        except Exception:
            await anyio.sleep(0.5)
    raise AssertionError(f"nothing answered at {url}")


# -- progress on a terminal ----------------------------------------------------------------------


def test_a_slow_registration_shows_progress_on_a_terminal_only(tmp_path: Path) -> None:
    path = landscape(tmp_path, slow=2.5)
    leader, follower = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", "inspect", "--config", str(path)],
        stdout=subprocess.PIPE,
        stderr=follower,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "120"},
    )
    os.close(follower)
    seen = b""
    while select.select([leader], [], [], 0.5)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert done.returncode == 0
    assert b"Registering 2 route(s)" in seen
    piped = cli("inspect", "--config", str(path))
    assert piped.returncode == 0 and "Registering" not in piped.stderr
