"""The README runs as written: every ```python block is executed as a script.

A block right after a line ``<!-- not run: reason -->`` is left out (none are, today). Blocks
that need services start the cookbook's loopback ones (``cookbook/services``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)\n```", re.DOTALL)


def python_blocks() -> dict[str, str]:
    blocks = {}
    for match in BLOCK.finditer(README):
        if match.group("before").startswith("<!-- not run:"):
            continue
        line = README[: match.start("code")].count("\n") + 1
        blocks[f"README.md:{line}"] = match.group("code")
    return blocks


BLOCKS = python_blocks()


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,  # a bound, not a speed check: blocks took over 120 s at load 12-15
    )


@pytest.fixture(scope="module")
def outcomes() -> dict[str, subprocess.CompletedProcess[str]]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {where: pool.submit(run, code) for where, code in BLOCKS.items()}
        return {where: future.result() for where, future in futures.items()}


def test_the_readme_starts_with_the_two_commands() -> None:
    commands = [line.split()[:2] for line in README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()]
    assert commands == [["make", "demo"], ["make", "test"]]


def test_the_readme_has_python_blocks_to_run() -> None:
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("where", sorted(BLOCKS))
def test_readme_block_runs(where: str, outcomes: dict[str, subprocess.CompletedProcess[str]]) -> None:
    done = outcomes[where]
    assert done.returncode == 0, f"{where}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert script[-1] == "make test"
