"""A long question costs planning work in proportion to its length, and a question longer than
``MAX_QUERY_CHARS`` is refused before any planning, in every face, with a message the model
can act on. Work is counted, never timed: the field-word lookups (characters hashed) and the
word meetings the reader tries, for a question and for one twice as long."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaRouterError
from schemarouter_integrations._planning.json_data import MAX_QUERY_CHARS
from schemarouter_integrations._registry.fieldwords import FieldProfile
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.testing import materials_router

LINEAR = 2.5
"""Twice the question may cost at most this many times the work (quadratic work costs 4x)."""


class CountingDict(dict[str, Any]):
    """A postings table that adds up the characters of every key it is asked for."""

    chars = 0

    def get(self, key: str, default: Any = None) -> Any:
        CountingDict.chars += len(key)
        return super().get(key, default)


@pytest.fixture
def router() -> Iterator[SchemaRouter]:
    router = materials_router()
    index = router.registry.index.field_words
    index._by_form = CountingDict(index._by_form)  # type: ignore[attr-defined]
    index._by_affix = CountingDict(index._by_affix)  # type: ignore[attr-defined]
    yield router


@pytest.fixture
def meetings(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    count = [0]
    for name in ("meets", "meets_name"):
        original = getattr(FieldProfile, name)

        def counted(self: FieldProfile, word: str, _original: Any = original) -> Any:
            count[0] += 1
            return _original(self, word)

        monkeypatch.setattr(FieldProfile, name, counted)
    yield count


def chars_looked_up(router: SchemaRouter, query: str) -> int:
    CountingDict.chars = 0
    router.plan(PlanRequest(query=query))
    return CountingDict.chars


def meetings_tried(router: SchemaRouter, meetings: list[int], query: str) -> int:
    meetings[0] = 0
    router.plan(PlanRequest(query=query))
    return meetings[0]


@pytest.mark.timeout(120)
def test_one_long_word_costs_lookups_linear_in_its_length(router: SchemaRouter) -> None:
    short = chars_looked_up(router, "a" * 8_000)
    long = chars_looked_up(router, "a" * 16_000)
    assert long <= LINEAR * short, (short, long)


@pytest.mark.timeout(120)
def test_a_long_run_of_words_that_meet_a_field_costs_meetings_linear_in_its_length(
    router: SchemaRouter, meetings: list[int]
) -> None:
    short = meetings_tried(router, meetings, "_".join(["bandx"] * 600))
    long = meetings_tried(router, meetings, "_".join(["bandx"] * 1_200))
    assert short > 0 and long <= LINEAR * short, (short, long)


def test_a_question_at_the_limit_is_planned() -> None:
    assert PlanRequest(query="a" * MAX_QUERY_CHARS).query


def test_a_question_over_the_limit_is_a_typed_error_naming_the_limit() -> None:
    with pytest.raises(SchemaRouterError, match="65,536"):
        PlanRequest(query="band gap " * 200_000)


def test_the_router_refuses_a_long_bare_query_string(router: SchemaRouter) -> None:
    with pytest.raises(SchemaRouterError, match="at most 65,536"):
        router.plan("x" * (MAX_QUERY_CHARS + 1))


@pytest.mark.anyio
@pytest.mark.timeout(120)
async def test_the_langchain_tool_tells_the_model_to_ask_a_shorter_question(router: SchemaRouter) -> None:
    tool = SchemaRouterTool(router=router, name="materials")
    content = await tool.ainvoke({"query": "band gap " * 600_000})  # 5.4 MB
    assert "at most 65,536" in str(content) and "shorter question" in str(content)
