"""crewai's ``Tool.from_langchain`` (in its own venv) over ``SchemaRouterTool``, run by a crewai agent.

``python crewai_langchain.py OUT '{"down": [...], "arguments": {...}, "calling": "react"}' ...``
builds the seed router (the named tools unavailable) for each case, bridges its LangChain tool
with ``Tool.from_langchain`` and runs a crewai ``Agent`` (``kickoff``) whose model (a scripted
``BaseLLM``, no network) calls the tool once with the arguments, either in crewai's text format
(``"react"``: ``Action:``/``Action Input:``) or as a native tool call (``"native"``), then reads
the result. Writes one JSON object to OUT (crewai prints its panels on stdout): the argument
schema crewai shows, and per case the text the model read back, the router's event types and
anything raised out of ``kickoff``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

for name in ("CREWAI_DISABLE_TELEMETRY", "OTEL_SDK_DISABLED", "CREWAI_DISABLE_VERSION_CHECK"):  # no network
    os.environ.setdefault(name, "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")


def main(cases: list[dict[str, Any]]) -> dict[str, Any]:
    from crewai.tools.base_tool import Tool

    from schemarouter_integrations.langchain import SchemaRouterTool
    from tests.support.seed import seed_router

    out: dict[str, Any] = {"calls": []}
    for case in cases:
        router, _ = seed_router(down=tuple(case.get("down", ())))
        events: list[Any] = []
        router.subscribe(events.append)
        bridged = Tool.from_langchain(SchemaRouterTool(router=router, fallback_scope="cross_provider"))
        out["schema"] = bridged.args_schema.model_json_schema()
        try:
            call = run_agent(bridged, case["arguments"], native=case.get("calling") == "native")
        except Exception as exc:  # what escapes crewai's agent: reported, the test decides
            call = {"raised": f"{type(exc).__name__}: {exc}"}
        out["calls"].append({**call, "events": [event.type for event in events]})
    return out


def run_agent(tool: Any, arguments: dict[str, Any], *, native: bool) -> dict[str, Any]:
    """One agent run: the model calls *tool* with *arguments*, then answers "done"."""
    from crewai import Agent
    from crewai.llms.base_llm import BaseLLM
    from pydantic import Field

    class CallsOnce(BaseLLM):
        """Calls the tool on its first turn, answers on the next; keeps each turn's messages."""

        arguments: dict[str, Any]
        native: bool
        turns: list[Any] = Field(default_factory=list)

        def supports_function_calling(self) -> bool:
            return self.native

        def call(self, messages: Any, tools: Any = None, *args: Any, **kwargs: Any) -> Any:
            self.turns.append(messages)
            if len(self.turns) > 1:  # native calling takes the text as it is
                return "done" if self.native else "Thought: I now know the final answer\nFinal Answer: done"
            if self.native:
                function = {"name": tool.name, "arguments": json.dumps(self.arguments)}
                return [{"id": "call-1", "type": "function", "function": function}]
            return f"Thought: I look it up\nAction: {tool.name}\nAction Input: {json.dumps(self.arguments)}"

    model = CallsOnce(model="scripted", arguments=arguments, native=native)
    agent = Agent(role="chemist", goal="answer", backstory="reads data", tools=[tool], llm=model)
    answer = agent.kickoff("What is the band gap of Si?")
    return {"answer": str(answer), "read": tool_result_read(model.turns[1]), "turns": len(model.turns)}


def tool_result_read(messages: list[dict[str, Any]]) -> str:
    """The tool's result as the model's second turn carries it: a ``tool`` message (native
    calls), or what follows ``Observation:`` in the model's own message (text format)."""
    for message in reversed(messages):
        content = str(message.get("content") or "")
        if message.get("role") == "tool":
            return content
        if message.get("role") == "assistant" and "Observation:" in content:
            return content.split("Observation:", 1)[1].strip()
    raise AssertionError(f"no tool result in {messages!r}")


if __name__ == "__main__":
    with contextlib.redirect_stdout(sys.stderr):
        result = main([json.loads(arg) for arg in sys.argv[2:]])
    Path(sys.argv[1]).write_text(json.dumps(result, default=str))
