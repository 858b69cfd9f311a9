"""Every ```python block of the documentation (docs/**/*.md) runs as written.

Blocks run in parallel, each as a standalone script from a temporary directory outside the
repository (``tests/docs/blocks.py``); a block marked ``<!-- not run: reason; run by
tests/<path>::<test> -->`` must name a test that exists.
"""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.docs.blocks import ROOT, Block, blocks_of, files_of, named_test_exists, run_block

pytestmark = [pytest.mark.integration, pytest.mark.timeout(1200)]  # the first test waits for every block

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
BLOCKS = [block for page in PAGES for block in blocks_of(page)]
FILES = {str(page.relative_to(ROOT)): files_of(page) for page in PAGES}
RUN = {block.where: block for block in BLOCKS if block.marker is None}
MARKED = {block.where: block for block in BLOCKS if block.marker is not None}


@pytest.fixture(scope="module")
def outcomes() -> dict[str, subprocess.CompletedProcess[str]]:
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {
            where: pool.submit(run_block, block.code, files=FILES[where.rsplit(":", 1)[0]])
            for where, block in RUN.items()
        }
        return {where: future.result() for where, future in futures.items()}


def test_the_docs_have_blocks_to_run() -> None:
    assert len(RUN) >= 20


@pytest.mark.parametrize("where", sorted(RUN))
def test_doc_block_runs(where: str, outcomes: dict[str, subprocess.CompletedProcess[str]]) -> None:
    done = outcomes[where]
    assert done.returncode == 0, f"{where}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("where", sorted(MARKED) or ["(none)"])
def test_a_block_not_run_names_an_existing_test(where: str) -> None:
    if where == "(none)":
        return
    block: Block = MARKED[where]
    assert block.marker is not None
    assert named_test_exists(block.marker), f"{where}: {block.marker}"


def test_a_block_importing_the_repository_fails_outside_it() -> None:
    done = run_block("import cookbook")
    assert done.returncode != 0 and "No module named 'cookbook'" in done.stderr
