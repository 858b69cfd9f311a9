"""smolagents' ``Tool.from_langchain`` over ``SchemaRouterTool``, in its own venv
(``.cache/smolagents-venv``, :data:`tests.support.environments.SMOLAGENTS`), driven by
``tests/hosts/smolagents_langchain.py``: the inputs it shows its model, and an answer, a
fallback, every route down and bad arguments, each as text for the model."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

from tests.support.environments import ROOT, environment_or_skip, smolagents_python

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]  # the first test may build the environment

SCRIPT = ROOT / "tests" / "hosts" / "smolagents_langchain.py"
SI = {"query": "band gap of Si", "formula": "Si"}
CASES = {
    "answered": {"arguments": SI},
    "fallback": {"down": ["mp_api"], "arguments": SI},
    "all_down": {"down": ["mp_api", "mp_optimade", "mp_python", "oqmd_api"], "arguments": SI},
    "bad": {"arguments": {"query": "band gap of Si", "limit": 0}},
}


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    python = environment_or_skip(smolagents_python, "the smolagents environment")
    done = subprocess.run(
        [str(python), str(SCRIPT), *(json.dumps(case) for case in CASES.values())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    out["results"] = dict(zip(CASES, out.pop("calls"), strict=True))
    return out


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
