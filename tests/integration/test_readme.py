"""The README runs as written: every ```python block is executed as a script, as a reader who
installed the package would run it.

Each block runs from a fresh temporary directory outside the repository, without the repository
on ``PYTHONPATH`` (``tests/docs/blocks.py``), so a block that imports ``cookbook`` or ``tests``
fails; blocks that need a server use the loopback twins of ``schemarouter_integrations.testing``.
A block marked ``<!-- file: NAME -->`` is saved as NAME beside the blocks; a block right after
a line ``<!-- not run: reason; run by tests/<path>::<test> -->`` is left out, and the test it
names must exist.
"""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.docs.blocks import ROOT, blocks_of, files_of, named_test_exists, run_block

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1200)]  # the first test waits for every block

README_PATH = ROOT / "README.md"
README = README_PATH.read_text()
ALL_BLOCKS = blocks_of(README_PATH)
BLOCKS = {block.where: block.code for block in ALL_BLOCKS if block.marker is None}
MARKED = [block for block in ALL_BLOCKS if block.marker is not None]
FILES = files_of(README_PATH)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, subprocess.CompletedProcess[str]]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {where: pool.submit(run_block, code, files=FILES) for where, code in BLOCKS.items()}
        return {where: future.result() for where, future in futures.items()}


def test_the_readme_starts_with_the_two_commands() -> None:
    commands = [line.split()[:2] for line in README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()]
    assert commands == [["make", "demo"], ["make", "test"]]


def test_the_readme_is_a_front_door() -> None:
    assert len(README.splitlines()) < 300


def test_the_readme_has_python_blocks_to_run() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("where", sorted(BLOCKS))
def test_readme_block_runs(where: str, outcomes: dict[str, subprocess.CompletedProcess[str]]) -> None:
    done = outcomes[where]
    assert done.returncode == 0, f"{where}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_no_readme_block_imports_the_repository() -> None:
    for where, code in BLOCKS.items():
        assert "import cookbook" not in code and "from cookbook" not in code, where
        assert "from tests" not in code, where


def test_a_block_not_run_names_an_existing_test() -> None:
    for block in MARKED:
        assert block.marker is not None and named_test_exists(block.marker), f"{block.where}: {block.marker}"


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert script[-1] == "make test"
