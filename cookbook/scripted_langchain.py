"""A scripted tool-calling chat model for LangChain: no key, no network.

Used by ``langchain_agent.py`` and by the tests. Replace ``ScriptedChemist()`` with any
tool-calling chat model (``init_chat_model(...)``) for a live agent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field


class ScriptedChemist(BaseChatModel):
    """A stand-in for a tool-calling chat model: call the tool once, then answer from it.

    The first turn calls the first bound tool with ``{"query": <the question>, "formula": "Si"}``
    (``tool_arguments`` replaces ``{"formula": "Si"}``: the filters a model would read from the
    question, such as ``{"band_gap_min": 1, "band_gap_max": 2}``).
    Once the tool's message is back, the answer is ``answer_format`` filled with ``band_gap``
    (of the first JSON record in the message), ``source`` (the message's first line after
    "Answered by ", e.g. ``mp_python.search (materials_project, python)``) and ``route`` (the
    first word of that, ``mp_python.search``).
    """

    tool_names: list[str] = Field(default_factory=list)
    tool_arguments: dict[str, Any] = Field(default_factory=lambda: {"formula": "Si"})
    answer_format: str = "The band gap of Si is {band_gap} eV (source: {source})."

    @property
    def _llm_type(self) -> str:
        return "scripted-chemist"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.model_copy(update={"tool_names": [t.name for t in tools]})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            lines = str(last.content).splitlines()
            records = [json.loads(line) for line in lines if line.startswith("{")]
            answered_by = lines[0].removeprefix("Answered by ")
            text = self.answer_format.format(
                band_gap=records[0]["band_gap"],
                source=answered_by.rstrip("."),
                route=answered_by.split(" ")[0],
            )
            reply = AIMessage(content=text)
        else:
            args = {"query": str(last.content), **self.tool_arguments}
            reply = AIMessage(
                content="",
                tool_calls=[{"name": self.tool_names[0], "args": args, "id": "call-1", "type": "tool_call"}],
            )
        return ChatResult(generations=[ChatGeneration(message=reply)])
