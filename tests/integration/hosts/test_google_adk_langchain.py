"""google-adk's ``LangchainTool`` over ``SchemaRouterTool``, in its own venv
(``.cache/google-adk-venv``, :data:`tests.support.environments.GOOGLE_ADK`), driven by
``tests/hosts/google_adk_langchain.py``: the function declaration ADK builds, and an ADK agent
(``InMemoryRunner``, a scripted model) calling the tool for an answer, a fallback, every route
down and bad arguments, each read back by the model as ADK's function response."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.bridge_hosts import BRIDGE_CASES, host_results
from tests.support.environments import ROOT, environment_or_skip, google_adk_python

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment

SCRIPT = ROOT / "tests" / "hosts" / "google_adk_langchain.py"
CASES = {**BRIDGE_CASES, "no_query": {"arguments": {"formula": "Si"}}}


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    python = environment_or_skip(google_adk_python, "the google-adk environment")
    return host_results(python, SCRIPT, CASES, timeout=300)


def response(session: dict[str, Any], case: str) -> dict[str, Any]:
    """The one function response ADK handed the model for *case* (nothing escaped the runner)."""
    result = session["results"][case]
    assert "raised" not in result, result["raised"]
    (only,) = result["responses"]
    assert result["turns"] == 2  # the model was asked again, with the response
    return dict(only)


def test_adk_declares_query_and_each_argument_with_a_plain_type(session: dict[str, Any]) -> None:
    parameters = session["declaration"]["parameters"]
    assert {name: node["type"] for name, node in parameters["properties"].items()} == {
        "query": "STRING",
        "formula": "STRING",
        "limit": "INTEGER",
        "filters": "OBJECT",
    }
    assert parameters["required"] == ["query"]
    assert parameters["properties"]["limit"]["minimum"] == 1


def test_adk_declares_an_array_argument_with_its_items(session: dict[str, Any]) -> None:
    elements = session["array_declaration"]["parameters"]["properties"]["elements"]
    assert elements["type"] == "ARRAY" and elements["items"] == {"type": "STRING"}


def test_the_adk_agent_reads_the_answer_as_text(session: dict[str, Any]) -> None:
    assert response(session, "answered")["result"].startswith("Answered by mp_api.search")


def test_the_model_reads_the_text_alone_never_the_artifact(session: dict[str, Any]) -> None:
    (sent,) = session["results"]["answered"]["sent"]
    assert set(sent["response"]) == {"result"} and isinstance(sent["response"]["result"], str)
    assert "attempts" not in json.dumps(sent)


def test_the_adk_agent_gets_the_fallback(session: dict[str, Any]) -> None:
    text = response(session, "fallback")["result"]
    assert text.startswith("Answered by mp_optimade.search") and "mp_api.search -> mp_optimade.search" in text
    assert "tool.fallback" in session["results"]["fallback"]["events"]


def test_every_route_down_is_an_error_response_not_an_escaped_exception(session: dict[str, Any]) -> None:
    assert response(session, "all_down")["error"].startswith(
        "Every data source that could answer was unavailable"
    )


def test_bad_arguments_are_an_error_response_the_model_can_fix(session: dict[str, Any]) -> None:
    assert response(session, "bad")["error"].startswith("Invalid tool arguments: limit")


def test_a_missing_query_is_adks_own_error_response(session: dict[str, Any]) -> None:
    error = response(session, "no_query")["error"]
    assert "mandatory input parameters are not present" in error and "query" in error
    assert session["results"]["no_query"]["events"] == []  # the router never ran
