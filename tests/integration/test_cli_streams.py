"""The console script with its standard output closed: an exit code, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _shell(command: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    landscape = tmp_path / "landscape.toml"
    table = '[routes.mp{n}]\nkind = "openapi"\nurl = "https://a.example/o{n}.json"\n'
    landscape.write_text('[tool]\nname = "m"\n\n' + "".join(table.format(n=n) for n in range(1)))
    script = f"{sys.executable} -m schemarouter_integrations validate --config {landscape} --json {command}"
    return subprocess.run(
        ["bash", "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )


def test_a_closed_standard_output_still_gives_the_exit_code_and_no_traceback(tmp_path: Path) -> None:
    done = _shell(">&-", tmp_path)

    assert done.returncode == 0
    assert "Traceback" not in done.stderr and "standard output is closed" in done.stderr
