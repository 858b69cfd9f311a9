"""What each extra promises, checked in a virtual environment that has only that extra:
``python promises.py <extra>`` runs the quick start, then imports the extra's module and runs
its face of the router over the quick start's two in-process routes (no network)."""

import asyncio
import importlib.util
import sys
from collections.abc import Awaitable, Callable

from schemarouter_integrations import InvocationUnavailableError, SchemaRouter

QUESTION = {"query": "What is the band gap of Si?", "formula": "Si"}
ROUTE = ["mp_api.search", "mp_python.search"]


async def mp_rest_api(formula: str) -> list[dict]:
    raise InvocationUnavailableError("api.materialsproject.org: connection refused")


async def mp_python_client(formula: str) -> list[dict]:
    return [{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}]


def materials_router() -> SchemaRouter:
    router = SchemaRouter()
    for fn, name in ((mp_rest_api, "mp_api"), (mp_python_client, "mp_python")):
        router.add_callable(
            fn,
            name=name,
            provider="materials_project",
            endpoint="search",
            read_only=True,
            fields=["band_gap", "formula", "material_id"],
        )
    return router


async def langchain() -> None:
    from schemarouter_integrations.langchain import SchemaRouterCallbackHandler, SchemaRouterTool

    handler = SchemaRouterCallbackHandler()
    tool = SchemaRouterTool(
        router=materials_router(),
        name="materials",
        fallback_scope="same_provider",
        preferred_tools=["mp_api"],
    )
    call = {"type": "tool_call", "id": "call-1", "name": "materials", "args": QUESTION}
    message = await tool.ainvoke(call, config={"callbacks": [handler]})
    assert message.artifact.route == ROUTE, message.artifact.route
    assert "0.61" in message.content


async def langgraph() -> None:
    """The README's LangGraph agent: a prebuilt ReAct agent calls the tool, which falls back."""
    import warnings

    from schemarouter_integrations.langchain import SchemaRouterTool
    from schemarouter_integrations.testing.langchain import ScriptedChatModel

    with warnings.catch_warnings():  # LangGraph 1.x also offers langchain.agents.create_agent
        warnings.simplefilter("ignore")
        from langgraph.prebuilt import create_react_agent

    tool = SchemaRouterTool(
        router=materials_router(),
        name="materials",
        fallback_scope="same_provider",
        preferred_tools=["mp_api"],
    )
    agent = create_react_agent(ScriptedChatModel(), [tool])
    state = await agent.ainvoke({"messages": [("user", QUESTION["query"])]})
    answer = state["messages"][-1].content
    assert "0.61 eV" in answer and "mp_python.search" in answer, answer


async def llamaindex() -> None:
    from schemarouter_integrations.llamaindex import SchemaRouterToolSpec, ToolFallbackEvent

    spec = SchemaRouterToolSpec(
        materials_router(), fallback_scope="same_provider", preferred_tools=["mp_api"]
    )
    (tool,) = spec.to_tool_list()
    output = await tool.acall(**QUESTION)
    assert not output.is_error and output.raw_output.route == ROUTE, output
    assert ToolFallbackEvent.class_name()


async def mcp() -> None:
    from mcp import Client

    from schemarouter_integrations.mcp import router_mcp_server

    server = router_mcp_server(materials_router(), fallback_scope="same_provider", preferred_tools=["mp_api"])
    async with Client(server) as client:
        answer = await client.call_tool("data_lookup", QUESTION)
    assert not answer.is_error and answer.structured_content["route"] == ROUTE, answer


async def otel() -> None:
    from schemarouter_integrations import PlanRequest
    from schemarouter_integrations.otel import instrument

    router = materials_router()
    handle = instrument(router)  # the API's default (no-op) providers: nothing is exported
    request = PlanRequest(
        query=QUESTION["query"],
        arguments={"formula": "Si"},
        preferred_tools=["mp_api"],
        fallback_scope="same_provider",
    )
    result = await router.invoke(request)
    handle.uninstrument()
    assert result.route == ROUTE, result.route


async def redis() -> None:
    from schemarouter_integrations import SchemaRouter
    from schemarouter_integrations.stores import RedisAvailabilityStore

    store = RedisAvailabilityStore("redis://127.0.0.1:6379/0", namespace="wheel-check")  # never entered
    SchemaRouter(availability_store=store)


async def optimade() -> None:
    from schemarouter_integrations.adapters._optimade.links import bundled_providers

    providers = bundled_providers()  # source=None of add_optimade_federation reads this list
    assert any(p.get("id") for p in providers), providers


async def re2() -> None:
    from schemarouter_integrations._contracts.patterns import HAS_RE2

    assert HAS_RE2, "google-re2 is installed but not used"


async def fast() -> None:
    from schemarouter_integrations._contracts.fast_check import HAS_FAST_CHECK

    assert HAS_FAST_CHECK, "jsonschema-rs is installed but not used"
    from schemarouter_integrations.adapters._yaml import parser_in_use

    assert parser_in_use() == "rapidyaml", "rapidyaml is installed but not used"


async def cli() -> None:
    from schemarouter_integrations._cli._app import app

    assert app.info.name == "schemarouter-integrations"


async def core() -> None:
    import schemarouter_integrations.adapters
    import schemarouter_integrations.config
    import schemarouter_integrations.errors
    import schemarouter_integrations.events
    import schemarouter_integrations.stores

    if importlib.util.find_spec("schemarouter_integrations.testing") is not None:
        import schemarouter_integrations.testing  # noqa: F401 - the test kit needs only the core


async def testing() -> None:
    import schemarouter_integrations.testing  # noqa: F401


CHECKS: dict[str, Callable[[], Awaitable[None]]] = {
    "core": core,
    "cli": cli,
    "fast": fast,
    "langchain": langchain,
    "langgraph": langgraph,
    "llamaindex": llamaindex,
    "mcp": mcp,
    "optimade": optimade,
    "otel": otel,
    "re2": re2,
    "redis": redis,
    "testing": testing,
}


async def every() -> None:
    """``[all]``: every face imports (each one runs in its own extra's environment)."""
    import schemarouter_integrations.langchain
    import schemarouter_integrations.llamaindex
    import schemarouter_integrations.mcp
    import schemarouter_integrations.otel  # noqa: F401
    from schemarouter_integrations.stores import RedisAvailabilityStore  # noqa: F401

    for check in (core, cli, fast, optimade, re2, langgraph):
        await check()


CHECKS["all"] = every

if __name__ == "__main__":
    import quickstart  # noqa: F401 - the README quick start runs first, as a user would run it

    asyncio.run(CHECKS[sys.argv[1]]())
    print(f"{sys.argv[1]}: ok")
