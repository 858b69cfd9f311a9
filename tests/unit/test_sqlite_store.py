"""``SqliteStore``: cooldowns, answers and rate limits that outlive one process, shared by the
routers of one host through one file; safe under concurrent writers and a damaged file."""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    CachePolicy,
    InvocationUnavailableError,
    PlanRequest,
    RateLimit,
    SchemaRouter,
)
from schemarouter_integrations.stores import SqliteStore

pytestmark = pytest.mark.anyio
FIELDS = ["band_gap", "formula"]
ROOT = Path(__file__).resolve().parents[2]


class Route:
    def __init__(self, gap: float) -> None:
        self.gap, self.calls, self.down = gap, 0, False

    async def __call__(self, formula: str) -> list[dict[str, Any]]:
        self.calls += 1
        if self.down:
            raise InvocationUnavailableError("the service is down")
        return [{"formula": formula, "band_gap": self.gap}]


def process(path: Path, primary: Route, backup: Route | None = None, **limits: Any) -> SchemaRouter:
    """What one process of the host builds: a router on the shared file."""
    store = SqliteStore(path)
    router = SchemaRouter(
        availability_store=store, answer_cache=store.answers, rate_limiter=store.rate_limits
    )
    router.add_callable(primary, name="mp", provider="mp", read_only=True, fields=FIELDS, **limits)
    if backup is not None:
        router.add_callable(backup, name="oqmd", provider="oqmd", read_only=True, fields=FIELDS)
    return router


def ask(policy: CachePolicy | None = None) -> PlanRequest:
    return PlanRequest(
        query="band gap", arguments={"formula": "Si"}, cache=policy, fallback_scope="cross_provider"
    )


async def test_a_route_one_process_found_down_is_skipped_by_the_next(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    down, backup = Route(1.1), Route(2.2)
    down.down = True
    async with process(path, down, backup) as first:
        answered = await first.invoke(ask())
    assert answered.route == ["mp.call", "oqmd.call"]
    later_primary, later_backup = Route(1.1), Route(2.2)
    async with process(path, later_primary, later_backup) as second:
        result = await second.invoke(ask())
        assert "mp.call" in second.inspect().execution.unavailable_access_paths
    assert (result.route, later_primary.calls, later_backup.calls) == (["oqmd.call"], 0, 1)


async def test_an_answer_one_process_stored_is_served_to_the_next(tmp_path: Path) -> None:
    path, policy = tmp_path / "state.db", CachePolicy(ttl_seconds=300)
    first_route, second_route = Route(1.1), Route(9.9)
    async with process(path, first_route) as first:
        await first.invoke(ask(policy))
    async with process(path, second_route) as second:
        result = await second.invoke(ask(policy))
    assert (result.cached, result.records[0]["band_gap"], second_route.calls) == (True, 1.1, 0)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # answers are data: owner-only


async def test_a_rate_limit_is_shared_by_the_processes_of_the_host(tmp_path: Path) -> None:
    path, limit = tmp_path / "state.db", RateLimit(0.5, burst=1, max_wait_seconds=0)
    async with process(path, Route(1.1), rate_limit=limit) as first:
        await first.invoke(ask())
    async with process(path, Route(1.1), rate_limit=limit) as second:
        with pytest.raises(AllRoutesUnavailableError) as raised:
            await second.invoke(ask())
    assert [a.error_type for a in raised.value.attempts] == ["RateLimitedError"]


async def test_a_damaged_state_file_is_a_miss_never_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    path.write_bytes(b"not a database at all\x00" * 300)
    route = Route(1.1)
    async with process(path, route) as router:
        first = await router.invoke(ask(CachePolicy(ttl_seconds=300)))
        again = await router.invoke(ask(CachePolicy(ttl_seconds=300)))
        router.mark_access_unavailable("mp", "call", seconds=60)
        status = router.inspect().health.store
    assert (first.records[0]["band_gap"], first.cached, again.cached, route.calls) == (1.1, False, False, 2)
    assert status["kind"] == "sqlite" and "DatabaseError" in (status["last_error"] or ""), status


async def test_an_answer_changed_in_the_file_is_a_miss(tmp_path: Path) -> None:
    path, policy, route = tmp_path / "state.db", CachePolicy(ttl_seconds=300), Route(1.1)
    async with process(path, route) as router:
        await router.invoke(ask(policy))
        with sqlite3.connect(path) as db:
            db.execute("UPDATE answers SET value = replace(value, '1.1', '9.9')")
        changed = await router.invoke(ask(policy))
        with sqlite3.connect(path) as db:
            db.execute("UPDATE answers SET value = ?", (json.dumps({"records": "SURPRISE"}),))
        damaged = await router.invoke(ask(policy))
    assert (changed.cached, changed.records[0]["band_gap"]) == (False, 1.1)
    assert (damaged.cached, damaged.records[0]["band_gap"], route.calls) == (False, 1.1, 3)


def test_a_mark_that_finds_the_file_held_by_another_writer_waits_in_the_queue(tmp_path: Path) -> None:
    from schemarouter_integrations.stores import AvailabilityMark

    store = SqliteStore(tmp_path / "state.db")
    store.active()  # creates the file
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writes for longer than the mark may wait
    store.mark_unavailable(AvailabilityMark("mp.rest", store.clock() + 600, "down"))
    held = (store.file.errors, store.status()["pending_writes"], store.status()["breaker"]["state"])
    store.mark_unavailable(AvailabilityMark("mp.optimade", store.clock() + 600, "down"))  # left queued
    waited = store.status()["busy"]
    other.execute("COMMIT")
    other.close()
    anyio.run(store.flush)
    with sqlite3.connect(store.path) as db:
        written = db.execute("SELECT path FROM marks").fetchall()
    assert held == (0, 1, "closed")
    assert waited == 1  # the second mark did not wait on the held file again
    assert (sorted(written), store.status()["pending_writes"], store.file.errors) == (
        [("mp.optimade",), ("mp.rest",)],
        0,
        0,
    )


WRITER = textwrap.dedent(
    """
    import sys, anyio
    from schemarouter_integrations.stores import AnswerEntry, AvailabilityMark, SqliteStore

    async def main(path, me):
        store = SqliteStore(path, busy_timeout_seconds=30.0)  # a loaded machine: wait, never fail
        for n in range(150):
            store.mark_unavailable(AvailabilityMark(f"w{me}.e{n % 10}", store.clock() + 600, "down"))
            await store.answers.put(f"{me}-{n}", AnswerEntry("mp.call", [{"n": n}], 0.0, 60.0), 60.0)
            await store.rate_limits.reserve("route:mp", 1e6, 1e6, 1.0)
        await store.flush()
        print(store.file.errors)

    anyio.run(main, sys.argv[1], sys.argv[2])
    """
)


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(me)], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for me in range(4)
    ]
    errors = [int(proc.communicate(timeout=120)[0].strip()) for proc in writers]
    assert errors == [0, 0, 0, 0]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM marks").fetchone()[0] == 40
        assert db.execute("SELECT count(*) FROM answers").fetchone()[0] == 600
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def wait_for(check: Any) -> None:
    with anyio.fail_after(30):
        while not check():  # noqa: ASYNC110 - another store's writes reach this one by refresh
            await anyio.sleep(0.02)


async def test_running_processes_see_each_others_cooldowns_and_reopens(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    one, two = SqliteStore(path, refresh_seconds=0.05), SqliteStore(path, refresh_seconds=0.05)
    first, second = SchemaRouter(availability_store=one), SchemaRouter(availability_store=two)
    for router in (first, second):
        router.add_callable(Route(1.1), name="mp", read_only=True, fields=FIELDS)
    async with first, second:
        first.mark_access_unavailable("mp", "call", seconds=600, reason="maintenance")
        await wait_for(lambda: two.get("mp.call") is not None)
        assert two.get("mp.call").reason == "maintenance"  # type: ignore[union-attr]
        first.mark_access_available("mp", "call")
        await wait_for(lambda: two.get("mp.call") is None)
