"""smolagents' ``Tool.from_langchain`` over ``SchemaRouterTool``, in its own venv
(``.cache/smolagents-venv``, :data:`tests.support.environments.SMOLAGENTS`), driven by
``tests/hosts/smolagents_langchain.py``: the inputs it shows its model, and an answer, a
fallback, every route down and bad arguments, each as text for the model."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.bridge_hosts import BRIDGE_CASES, host_results
from tests.support.environments import ROOT, environment_or_skip, smolagents_python

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment

SCRIPT = ROOT / "tests" / "hosts" / "smolagents_langchain.py"
CASES = BRIDGE_CASES


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    python = environment_or_skip(smolagents_python, "the smolagents environment")
    return host_results(python, SCRIPT, CASES, timeout=120)


def test_smolagents_accepts_the_inputs_each_with_a_plain_type(session: dict[str, Any]) -> None:
    inputs = session["inputs"]
    assert {name: spec["type"] for name, spec in inputs.items()} == {
        "query": "string",
        "formula": "string",
        "limit": "integer",
        "filters": "object",
    }


def test_smolagents_gets_the_answer(session: dict[str, Any]) -> None:
    assert session["results"]["answered"]["output"].startswith("Answered by mp_api.search")


def test_smolagents_gets_the_fallback(session: dict[str, Any]) -> None:
    output = session["results"]["fallback"]["output"]
    assert (
        output.startswith("Answered by mp_optimade.search")
        and "mp_api.search -> mp_optimade.search" in output
    )


def test_every_route_down_is_a_message_not_an_escaped_exception(session: dict[str, Any]) -> None:
    assert session["results"]["all_down"]["output"].startswith(
        "Every data source that could answer was unavailable"
    )


def test_bad_arguments_are_a_message_the_model_can_fix(session: dict[str, Any]) -> None:
    assert session["results"]["bad"]["output"].startswith("Invalid tool arguments: limit")
