"""PyPI ``mcp-server-time`` (the MCP project's reference time server, in its own environment)
as a route: its tools declare output schemas, so their structured answers are the records."""

from __future__ import annotations

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter

pytestmark = [pytest.mark.anyio, pytest.mark.integration, pytest.mark.timeout(300)]


async def test_the_current_time_in_a_time_zone(time_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(time_server, name="time", read_only=True)

        result = await router.invoke(PlanRequest(query="current time", arguments={"timezone": "Asia/Tokyo"}))

    assert result.endpoint == "get_current_time"
    (record,) = result.records
    assert record["timezone"] == "Asia/Tokyo" and record["datetime"].endswith("+09:00")


async def test_a_time_converted_between_time_zones(time_server: list[str]) -> None:
    async with SchemaRouter() as router:
        await router.add_mcp(time_server, name="time", read_only=True)
        arguments = {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}

        result = await router.invoke(PlanRequest(query="convert a time", arguments=arguments))

    assert result.endpoint == "convert_time"
    (record,) = result.records
    assert record["time_difference"] == "+9.0h"
    assert record["target"]["datetime"].endswith("T21:00:00+09:00")
