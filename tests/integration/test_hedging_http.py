"""Hedging over real loopback HTTP: an OpenAPI route whose server hangs, hedged to a mirror.

The hanging route (``tests/servers/fault_server.py`` ``Hang``) costs its whole client timeout;
with ``HedgePolicy(after_seconds)`` the run answers from the mirror (another real route of the
same server) without waiting for it, and the hanging call still ends with its own timeout and
cools its route down after the run.
"""

from __future__ import annotations

import anyio
import pytest

from schemarouter_integrations import HedgePolicy, PlanRequest, RouterEvent, SchemaRouter
from tests.servers.fault_server import FaultServer
from tests.support.hedging import MIRROR_RECORDS, add_hanging_and_mirror

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

TIMEOUT = 0.5
REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["hanging"],
    fallback_scope="same_provider",
    hedge=HedgePolicy(0.05),
)


async def test_a_hanging_route_is_hedged_to_its_mirror_and_cooled_after_the_run(
    fault_server: FaultServer,
) -> None:
    heard: list[RouterEvent] = []
    cooled = anyio.Event()

    def sink(event: RouterEvent) -> None:
        heard.append(event)
        if event.type == "route.unavailable":
            cooled.set()

    async with SchemaRouter() as router:
        router.subscribe(sink)
        await add_hanging_and_mirror(router, fault_server, "hedge", timeout_seconds=TIMEOUT)
        result = await router.invoke(REQUEST)
        assert result.tool == "mirror"
        assert result.records == MIRROR_RECORDS
        assert [e.type for e in result.events if e.type.startswith("tool.")] == [
            "tool.start",
            "tool.hedge",
            "tool.start",
            "tool.end",
        ]
        assert not cooled.is_set()  # the hanging call is still waiting for its timeout
        with anyio.fail_after(TIMEOUT * 10):
            await cooled.wait()
        unavailable = next(e for e in heard if e.type == "route.unavailable")
        assert unavailable.run_id == result.events[0].run_id
        assert "hanging.search" in router.inspect().execution.cooldowns
        again = await router.invoke(REQUEST)
        assert again.tool == "mirror" and again.route == ["mirror.search"]


def test_invoke_sync_cancels_the_outrun_http_call_before_its_loop_closes_the_client(
    fault_server: FaultServer,
) -> None:
    """The slower call must not fail on the client that the end of ``invoke_sync`` closes
    (that failure would read as an outage): it is cancelled, and cancelling marks nothing."""
    router = SchemaRouter()

    anyio.run(lambda: add_hanging_and_mirror(router, fault_server, "sync", timeout_seconds=TIMEOUT))
    result = router.invoke_sync(REQUEST)
    assert result.tool == "mirror"
    assert router.inspect().execution.cooldowns == {}
