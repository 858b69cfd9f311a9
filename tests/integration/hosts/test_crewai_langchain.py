"""crewai's ``Tool.from_langchain`` over ``SchemaRouterTool``, in its own venv
(``.cache/crewai-venv``, :data:`tests.support.environments.CREWAI`), driven by
``tests/hosts/crewai_langchain.py``: the argument schema crewai shows, and a crewai agent
(``Agent.kickoff``, a scripted model) calling the tool in crewai's text format and as a native
tool call, for an answer, a fallback, every route down and bad arguments, each read back by
the model as text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.bridge_hosts import BRIDGE_CASES, run_host
from tests.support.environments import ROOT, crewai_python, environment_or_skip

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment

SCRIPT = ROOT / "tests" / "hosts" / "crewai_langchain.py"
CASES = BRIDGE_CASES
CALLING = ("react", "native")


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    python = environment_or_skip(crewai_python, "the crewai environment")
    out = tmp_path_factory.mktemp("crewai") / "out.json"
    cases = [{**case, "calling": calling} for calling in CALLING for case in CASES.values()]
    done = run_host(  # crewai writes its storage under HOME
        python, SCRIPT, cases, leading=[str(out)], timeout=300, env={"HOME": str(out.parent)}
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(Path(out).read_text())
    calls = iter(result.pop("calls"))
    result["results"] = {(calling, name): next(calls) for calling in CALLING for name in CASES}
    return result


def read(session: dict[str, Any], calling: str, case: str) -> str:
    """The tool's result as the model read it for *case* (nothing escaped ``kickoff``)."""
    result = session["results"][calling, case]
    assert "raised" not in result, result["raised"]
    assert result["turns"] == 2 and result["answer"] == "done"
    text: str = result["read"]
    return text


def test_crewai_shows_each_argument_with_a_plain_type(session: dict[str, Any]) -> None:
    schema = session["schema"]
    assert {name: node["type"] for name, node in schema["properties"].items()} == {
        "query": "string",
        "formula": "string",
        "limit": "integer",
        "filters": "object",
    }
    assert schema["required"] == ["query"]


@pytest.mark.parametrize("calling", CALLING)
def test_the_crewai_agent_reads_the_answer(session: dict[str, Any], calling: str) -> None:
    assert read(session, calling, "answered").startswith("Answered by mp_api.search")


@pytest.mark.parametrize("calling", CALLING)
def test_the_crewai_agent_gets_the_fallback(session: dict[str, Any], calling: str) -> None:
    text = read(session, calling, "fallback")
    assert text.startswith("Answered by mp_optimade.search") and "mp_api.search -> mp_optimade.search" in text
    assert "tool.fallback" in session["results"][calling, "fallback"]["events"]


@pytest.mark.parametrize("calling", CALLING)
def test_every_route_down_is_a_message_not_an_escaped_exception(
    session: dict[str, Any], calling: str
) -> None:
    assert read(session, calling, "all_down").startswith(
        "Every data source that could answer was unavailable"
    )


@pytest.mark.parametrize("calling", CALLING)
def test_bad_arguments_are_a_message_naming_the_argument(session: dict[str, Any], calling: str) -> None:
    text = read(session, calling, "bad")
    # crewai checks them against the tool's arguments model and quotes its name
    assert "validation error for SchemaRouterArguments\nlimit\n" in text
    assert "greater than or equal to 1" in text
    assert session["results"][calling, "bad"]["events"] == []  # the router never ran
