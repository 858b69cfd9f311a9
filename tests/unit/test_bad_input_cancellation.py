"""A run that stops early still ends for the sinks: they see ``run.error`` (error_type
``Cancelled``), and nothing is marked unavailable."""

from __future__ import annotations

import asyncio
from contextlib import aclosing
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackHandler

from schemarouter_integrations import RouterEvent
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.support.execution import CHAIN, fake_router, types


@pytest.mark.anyio
async def test_sinks_see_the_run_end_when_its_stream_is_closed_early() -> None:
    router, _, _ = fake_router()
    seen: list[RouterEvent] = []
    router.subscribe(seen.append)
    async with aclosing(router.stream(CHAIN)) as stream:
        async for event in stream:
            if event.type == "tool.start":
                break
    assert types(seen) == ["run.start", "plan.compiled", "tool.start", "run.error"]
    assert seen[-1].error_type == "Cancelled"  # type: ignore[attr-defined]
    assert router.inspect().execution.unavailable_access_paths == []


@pytest.mark.anyio
async def test_sinks_see_the_run_end_when_a_langchain_tool_is_cancelled_inside_a_callback() -> None:
    router, _, _ = fake_router()
    seen: list[RouterEvent] = []
    router.subscribe(seen.append)
    handling = asyncio.Event()

    class Busy(AsyncCallbackHandler):
        async def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            if name == "tool.start":
                handling.set()
                await asyncio.Event().wait()

    tool = SchemaRouterTool(router=router, name="materials", preferred_tools=["mp_api"])
    call = {"type": "tool_call", "id": "c1", "name": "materials", "args": {"query": "Si band gap"}}
    task = asyncio.create_task(tool.ainvoke(call, config={"callbacks": [Busy()]}))
    await handling.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert types(seen)[-1] == "run.error"
