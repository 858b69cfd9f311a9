"""Doc blocks that need a service the test kit does not bring, run here with that service.

Each block is taken from its page (the block right after the ``<!-- not run: ... -->`` line
naming the test) and run as the docs runner runs every block, with the service's address in
the environment.
"""

from __future__ import annotations

import os

import pytest

from tests.docs.blocks import ROOT, blocks_of, run_block

pytestmark = [pytest.mark.integration, pytest.mark.redis]


def block_run_by(page: str, test: str) -> str:
    found = [b for b in blocks_of(ROOT / page) if b.marker is not None and b.marker.endswith(f"::{test} -->")]
    assert len(found) == 1, f"{page}: no single block names {test}"
    return found[0].code


def test_the_fleet_guide_runs_on_a_real_redis_server(
    redis_server: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = block_run_by("docs/how-to/redis-fleet.md", "test_the_fleet_guide_runs_on_a_real_redis_server")
    monkeypatch.setenv("REDIS_URL", redis_server.url)  # type: ignore[attr-defined]
    done = run_block(code)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "worker B: ['mp_python.search']" in done.stdout
    assert os.environ["REDIS_URL"].startswith("redis://127.0.0.1:")
