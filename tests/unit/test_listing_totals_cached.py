"""A cached answer keeps what the source said about its listing: ``ToolResult.total`` and
``ToolResult.truncated`` are the same whether the answer came upstream, fresh from the cache,
from another worker's store or stale through an outage; a stored count that was changed is a
miss like any entry that does not match its digest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import (
    CachePolicy,
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    MemoryAnswerCache,
    PlanRequest,
    SchemaRouter,
    ToolSpec,
)
from schemarouter_integrations.stores import AnswerEntry, SqliteStore
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.anyio


class Listing:
    """Three materials of a listing whose ``meta.total_doc`` says 1432 match."""

    def __init__(self) -> None:
        self.calls = 0
        self.down = False

    async def __call__(self, call: object) -> Any:
        self.calls += 1
        if self.down:
            raise InvocationUnavailableError("upstream down")
        rows = [{"material_id": f"mp-{i}", "band_gap": i / 10} for i in range(3)]
        return {"meta": {"total_doc": 1432}, "data": rows}


def make_router(upstream: Listing, clock: FakeClock, **options: Any) -> SchemaRouter:
    endpoint = EndpointSpec(
        name="search",
        read_only=True,
        input_schema={"type": "object", "properties": {}},
        fields=[FieldSpec(name="material_id", identity=True), FieldSpec(name="band_gap")],
        records_path=["data"],
    )
    router = SchemaRouter(clock=clock, **options)
    router.register(ToolSpec(name="mp", provider="mp", endpoints=[endpoint]))
    router.bind("mp", upstream)
    return router


REQUEST = PlanRequest(query="band gap", cache=CachePolicy(ttl_seconds=60, stale_if_error_seconds=600))


async def test_a_fresh_cached_answer_keeps_the_sources_total_and_truncation() -> None:
    upstream, clock = Listing(), FakeClock()
    router = make_router(upstream, clock, answer_cache=MemoryAnswerCache())
    first = await router.invoke(REQUEST)
    again = await router.invoke(REQUEST)
    assert upstream.calls == 1 and again.cached is True
    assert (first.total, first.truncated) == (1432, True)
    assert (again.total, again.truncated) == (1432, True)


async def test_a_stale_answer_through_an_outage_keeps_the_sources_total() -> None:
    upstream, clock = Listing(), FakeClock()
    router = make_router(upstream, clock, answer_cache=MemoryAnswerCache())
    await router.invoke(REQUEST)
    upstream.down = True
    clock.advance(120)
    stale = await router.invoke(REQUEST)
    assert stale.stale is True
    assert (stale.total, stale.truncated) == (1432, True)


async def test_an_answer_stored_in_sqlite_keeps_the_total_for_the_next_process(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    for expected_calls in (1, 0):
        upstream, store = Listing(), SqliteStore(path)
        router = make_router(upstream, FakeClock(), availability_store=store, answer_cache=store.answers)
        async with router:
            result = await router.invoke(REQUEST)
        assert upstream.calls == expected_calls
        assert (result.total, result.truncated) == (1432, True)


def test_a_stored_entry_whose_count_was_changed_does_not_match_its_digest() -> None:
    entry = AnswerEntry("mp.search", [{"material_id": "mp-0"}], 0.0, 60.0, total=1432, more=False)
    stored = entry.to_json()
    assert AnswerEntry.from_json(stored).total == 1432
    with pytest.raises(ValueError):
        AnswerEntry.from_json({**json.loads(json.dumps(stored)), "total": 3})
