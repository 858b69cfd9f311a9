"""`validate` never prints a value taken from the environment, wherever the file put it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
KEY, TOKEN = "k3y-0f-the-mp-api-7f3a9c", "t0ken-for-the-mcp-server-2b81"
LANDSCAPE = """
[tool]
name = "materials"

[routes.mp_api]
kind = "openapi"
url = "https://api.example.org/openapi.json?api_key=${MP_KEY}"
provider = "materials_project"

[routes.lab]
kind = "mcp"
target = ["python", "-m", "lab_server", "--token", "${LAB_TOKEN}"]
provider = "lab"

[routes.broken]
kind = "python"
function = "exploding_module:search"
"""


def _validate(tmp_path: Path, *extra: str, module: str = "") -> subprocess.CompletedProcess[str]:
    path = tmp_path / "landscape.toml"
    path.write_text(LANDSCAPE if module else LANDSCAPE.split("[routes.broken]")[0])
    (tmp_path / "exploding_module.py").write_text(module)
    env = {**os.environ, "MP_KEY": KEY, "LAB_TOKEN": TOKEN, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}
    return subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", "validate", "--config", str(path), *extra],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )


def test_validate_masks_a_key_in_a_url_query_and_a_token_on_a_command_line(tmp_path: Path) -> None:
    done = _validate(tmp_path, "--json")

    assert done.returncode == 0, done.stderr
    assert KEY not in done.stdout and TOKEN not in done.stdout
    routes = json.loads(done.stdout)["routes"]
    assert "api_key=***" in routes["mp_api"]["url"] and "***" in routes["lab"]["target"]


def test_validate_as_text_masks_them_too(tmp_path: Path) -> None:
    done = _validate(tmp_path)

    assert done.returncode == 0, done.stderr
    assert KEY not in done.stdout + done.stderr and TOKEN not in done.stdout + done.stderr


def test_a_route_module_that_raises_on_import_is_a_clean_error_without_secrets(tmp_path: Path) -> None:
    module = "import os\nraise RuntimeError('cannot start with key ' + os.environ['MP_KEY'])\n"

    done = _validate(tmp_path, module=module)

    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "RuntimeError" in done.stderr and KEY not in done.stdout + done.stderr
