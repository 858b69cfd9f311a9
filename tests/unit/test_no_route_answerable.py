"""A no-route error lists what the sources can answer closest to the words asked first."""

from __future__ import annotations

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    NoRouteError,
    PlanRequest,
    SchemaRouter,
    ToolSpec,
)

pytestmark = pytest.mark.anyio
SCHEMA = {"type": "object", "properties": {"formula": {"type": "string"}}}


def router_with(*names: str) -> SchemaRouter:
    router = SchemaRouter()
    fields = [FieldSpec(name=name) for name in names]
    endpoint = EndpointSpec(name="search", read_only=True, input_schema=SCHEMA, fields=fields)
    router.register(ToolSpec(name="db", provider="lab", endpoints=[endpoint]))
    return router


async def no_route(router: SchemaRouter, query: str) -> NoRouteError:
    with pytest.raises(NoRouteError) as caught:
        await router.invoke(PlanRequest(query=query, arguments={"formula": "Si"}))
    return caught.value


async def test_a_field_sharing_a_word_with_the_question_is_listed_first() -> None:
    error = await no_route(router_with("area", "point_group", "volume"), "melting point of Si")
    assert error.answerable[0] == "point_group"


async def test_a_field_sharing_a_long_prefix_with_a_word_asked_comes_next() -> None:
    error = await no_route(router_with("area", "magnetic_moment", "zeta"), "magnetisation of Si")
    assert error.answerable[0] == "magnetic_moment"


async def test_fields_equally_far_from_the_question_are_alphabetical() -> None:
    error = await no_route(router_with("zz", "yy", "xx"), "melting point of Si")
    assert error.answerable == ("xx", "yy", "zz")


async def test_the_message_lists_the_fields_in_the_same_order() -> None:
    error = await no_route(router_with("area", "point_group", "volume"), "melting point of Si")
    assert f"the sources can answer: {', '.join(error.answerable)}" in str(error)
