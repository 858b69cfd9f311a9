"""The command line with an answer cache on a real redis-server: a second ``query`` is
answered from the cache, ``query --no-cache`` asks upstream, ``inspect`` shows the cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.servers.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]
CALLS = Path(os.environ.get("SCHEMAROUTER_CACHE_CLI_CALLS", "/nonexistent"))


def lab_search(formula: str) -> list[dict[str, Any]]:
    """Appends one line per call to the file the test names (the CLI runs in another process)."""
    with CALLS.open("a") as log:
        log.write(formula + "\n")
    return [{"formula": formula, "band_gap": 1.1}]


def cli(calls: Path, *args: str) -> Any:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SCHEMAROUTER_CACHE_CLI_CALLS": str(calls)}
    done = subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", *args, "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_second_query_is_answered_from_the_shared_cache(redis_server: RedisServer, tmp_path: Path) -> None:
    landscape = tmp_path / "lab.toml"
    landscape.write_text(
        f'[answer_cache]\nstore = "{redis_server.url}"\nnamespace = "cli-{uuid.uuid4().hex[:8]}"\n\n'
        "[tool]\ncache = { ttl_seconds = 300 }\n\n"
        '[routes.lab]\nkind = "python"\nfunction = "tests.integration.test_cache_cli:lab_search"\n'
        'read_only = true\nfields = ["band_gap", "formula"]\n'
    )
    calls = tmp_path / "calls.txt"
    question = ("query", "band gap of Si", "--arg", "formula=Si", "--config", str(landscape))
    first = cli(calls, *question)
    second = cli(calls, *question)
    fresh = cli(calls, *question, "--no-cache")
    assert (first["cached"], second["cached"], fresh["cached"]) == (False, True, False)
    assert calls.read_text().splitlines() == ["Si", "Si"]
    shown = cli(calls, "inspect", "--config", str(landscape))
    assert shown["cache"]["kind"] == "redis"
