"""The tool spec's outputs are built without validating again, and are the ``ToolOutput``
its constructor builds from the same values."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core.tools import ToolOutput

from schemarouter_integrations.llamaindex import _output
from schemarouter_integrations.llamaindex._output import tool_output


def _both(**values: Any) -> tuple[ToolOutput, ToolOutput]:
    return tool_output(**values), ToolOutput(**values)


def _same(built: ToolOutput, validated: ToolOutput) -> None:
    assert built == validated and repr(built) == repr(validated)
    assert built.model_fields_set == validated.model_fields_set
    assert built.exception is validated.exception and built.content == validated.content
    assert built.model_dump_json() == validated.model_dump_json()


def test_the_current_tool_output_is_built_unvalidated() -> None:
    assert _output._PLAIN


def test_an_answer_is_the_output_the_constructor_builds() -> None:
    raw = {"records": [{"band_gap": 0.61}]}
    built, validated = _both(
        tool_name="materials",
        content="Answered by mp_api.search.\nRecords (1):\n{}",
        raw_input={"args": (), "kwargs": {"query": "Si"}},
        raw_output=raw,
        is_error=False,
        exception=None,
    )
    _same(built, validated)
    assert built.raw_output is raw


def test_an_error_is_the_output_the_constructor_builds() -> None:
    error = ValueError("every route is down")
    built, validated = _both(
        tool_name="materials",
        content="Every data source that could answer was unavailable.",
        raw_input={"args": (), "kwargs": {}},
        raw_output="Every data source that could answer was unavailable.",
        is_error=True,
        exception=error,
    )
    _same(built, validated)
    assert built.exception is error


def test_empty_content_goes_through_the_constructor() -> None:
    built, validated = _both(
        tool_name="t", content="", raw_input={}, raw_output=None, is_error=False, exception=None
    )
    _same(built, validated)
    assert built.blocks == []


def test_a_tool_output_of_another_shape_is_built_by_its_constructor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_output, "_PLAIN", False)
    calls: list[str] = []
    real = ToolOutput.__init__

    def counting(self: ToolOutput, **values: Any) -> None:
        calls.append(values["tool_name"])
        real(self, **values)

    monkeypatch.setattr(ToolOutput, "__init__", counting)
    built = tool_output(
        tool_name="t", content="x", raw_input={}, raw_output=None, is_error=False, exception=None
    )
    assert calls == ["t"] and built.content == "x"
