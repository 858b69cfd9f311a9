"""Words carried by an argument name or value are never unmatched: camelCase and snake_case
names say their words."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._planning.argument_words import argument_words


def tickets(*arguments: str) -> SchemaRouter:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: {"type": "string"} for name in arguments},
    }
    endpoint = EndpointSpec(
        name="listTickets",
        description="List the tickets of a project.",
        read_only=True,
        input_schema=schema,
        fields=[FieldSpec(name="subject"), FieldSpec(name="opened_at", aliases=["created"])],
    )
    router = SchemaRouter()
    router.register(ToolSpec(name="tracker", provider="desk", endpoints=[endpoint]))
    return router


@pytest.mark.parametrize("name", ["createdBefore", "created_before", "CreatedBefore", "created-before"])
def test_a_word_of_an_argument_name_is_never_unmatched(name: str) -> None:
    plan = tickets(name).plan(
        PlanRequest(query="tickets created before 2020 lately", arguments={name: "2020"})
    )
    assert plan.primary is not None
    assert plan.unmatched == ["lately"]


def test_a_word_of_a_camel_case_argument_name_is_no_need() -> None:
    plan = tickets("createdBefore").plan(
        PlanRequest(query="tickets created before 2020", arguments={"createdBefore": "2020"})
    )
    assert plan.need == []


def test_a_camel_case_argument_name_gives_its_whole_spelling_and_its_words() -> None:
    assert {"createdbefore", "created", "before"} <= argument_words({"createdBefore": "x"})


def test_an_acronym_in_an_argument_name_splits_before_the_next_word() -> None:
    assert {"html", "url"} <= argument_words({"HTMLUrl": "x"})


def test_a_word_an_argument_name_word_begins_is_a_scope_word() -> None:
    plan = tickets("projectKey").plan(
        PlanRequest(query="tickets of these projects", arguments={"projectKey": "ABC"})
    )
    assert plan.unmatched == []
