"""google-adk's ``LangchainTool`` (in its own venv) over ``SchemaRouterTool``, run by an ADK agent.

``python google_adk_langchain.py '{"down": [...], "arguments": {...}}' ...`` builds the seed
router (the named tools unavailable) for each case, wraps its LangChain tool in ADK's
``LangchainTool`` and runs an ``LlmAgent`` under ADK's ``InMemoryRunner`` whose model (a
scripted ``BaseLlm``, no network) calls the tool once with the arguments, then reads the
function response ADK hands back. Prints one JSON object: the function declaration ADK builds
for the seed's tool and for one with an array argument, and per case the function response,
the same response as the model's next request carries it (JSON), the router's event types,
and anything raised out of the runner.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncGenerator
from typing import Any


async def main(cases: list[dict[str, Any]]) -> dict[str, Any]:
    from google.adk.integrations.langchain import LangchainTool

    from schemarouter_integrations.langchain import SchemaRouterTool
    from tests.support.seed import seed_router

    out: dict[str, Any] = {"calls": []}
    for case in cases:
        router, _ = seed_router(down=tuple(case.get("down", ())))
        events: list[Any] = []
        router.subscribe(events.append)
        tool = LangchainTool(SchemaRouterTool(router=router, fallback_scope="cross_provider"))
        out["declaration"] = declaration(tool)
        try:
            call = await run_agent(tool, case["arguments"])
        except Exception as exc:  # what escapes ADK's runner: reported, the test decides
            call = {"raised": f"{type(exc).__name__}: {exc}"}
        out["calls"].append({**call, "events": [event.type for event in events]})
    out["array_declaration"] = declaration(LangchainTool(SchemaRouterTool(router=array_router())))
    return out


def declaration(tool: Any) -> dict[str, Any]:
    """The function declaration ADK sends the model for *tool*, as JSON."""
    built: dict[str, Any] = tool._get_declaration().model_dump(mode="json", exclude_none=True)
    return built


async def run_agent(tool: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    """One agent turn: the model calls *tool* with *arguments*, then reads the response."""
    from google.adk.agents import LlmAgent
    from google.adk.models._capabilities import LlmCapabilities
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types
    from pydantic import Field

    class CallsOnce(BaseLlm):
        """Calls the tool on its first turn, answers "done" on the next; keeps each request."""

        arguments: dict[str, Any]
        requests: list[LlmRequest] = Field(default_factory=list)

        @property
        def capabilities(self) -> LlmCapabilities:
            return LlmCapabilities(output_schema_and_tools=False)

        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            self.requests.append(llm_request)
            if len(self.requests) == 1:
                part = types.Part(
                    function_call=types.FunctionCall(name=tool.name, args=self.arguments, id="call-1")
                )
            else:
                part = types.Part(text="done")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    model = CallsOnce(model="scripted", arguments=arguments)
    runner = InMemoryRunner(agent=LlmAgent(name="chemist", model=model, tools=[tool]), app_name="bridges")
    session = await runner.session_service.create_session(app_name="bridges", user_id="user")
    question = types.Content(role="user", parts=[types.Part(text="What is the band gap of Si?")])
    responses = []
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=question):
        responses += [response.response for response in event.get_function_responses()]
    sent = [
        part.function_response.model_dump(mode="json", exclude_none=True)
        for content in model.requests[-1].contents
        for part in content.parts or ()
        if part.function_response is not None
    ]
    return {"responses": responses, "sent": sent, "turns": len(model.requests)}


def array_router() -> Any:
    """The seed's router plus a route whose input has an array argument, ``elements``."""
    from schemarouter_integrations import ToolSpec
    from tests.support.seed import FakeInvoker, band_gap, endpoint, seed_router

    router, _ = seed_router()
    elements = {"type": "object", "properties": {"elements": {"type": "array", "items": {"type": "string"}}}}
    router.register(
        ToolSpec(
            name="alex",
            provider="alexandria",
            endpoints=[endpoint(fields=[band_gap()], input_schema=elements)],
        ),
        FakeInvoker("alex"),
    )
    return router


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main([json.loads(arg) for arg in sys.argv[1:]])), default=str))
