"""The demo's three contenders over their own loopback servers: the routes, the router tool
and LangChain's ``with_fallbacks`` chain, each asking the same question the same way."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    HedgePolicy,
    InvocationUnavailableError,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations._demo.servers import LoopbackServer
from schemarouter_integrations.langchain import SchemaRouterTool

QUESTIONS = 20
CLIENT_TIMEOUT = 0.5
HEDGE_AFTER = 0.05
WARM_UP = 2
QUESTION = "What is the band gap of Si?"
ROUTES = {  # tool -> (provider, access mode)
    "mp_api": ("materials_project", "openapi"),
    "mp_mirror": ("materials_project", "openapi"),
    "oqmd": ("oqmd", "optimade"),
}
Ask = Callable[[], Awaitable[str]]


class QuietServer(LoopbackServer):
    """The benchmarks' loopback server, silent when a client resets a kept-alive connection."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass

    def __enter__(self) -> QuietServer:
        super().__enter__()
        return self


@dataclass
class Landscape:
    """One contender's three loopback servers and its HTTP client (0.5 s timeout)."""

    client: httpx.AsyncClient
    servers: dict[str, QuietServer] = field(default_factory=dict)

    @property
    def primary(self) -> QuietServer:
        return self.servers["mp_api"]

    async def get(self, tool: str, arguments: dict[str, Any]) -> Any:
        """One GET to *tool*'s server; a transport error or timeout is InvocationUnavailableError."""
        try:
            response = await self.client.get(self.servers[tool].url, params=arguments)
            response.raise_for_status()
        except httpx.HTTPError as exc:
            raise InvocationUnavailableError(f"{type(exc).__name__} after {CLIENT_TIMEOUT} s") from exc
        return response.json()

    def urls(self) -> dict[str, str]:
        return {tool: server.url for tool, server in self.servers.items()}


@asynccontextmanager
async def landscape() -> AsyncIterator[Landscape]:
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(timeout=CLIENT_TIMEOUT))
        servers = {tool: stack.enter_context(QuietServer()) for tool in ROUTES}
        yield Landscape(client, servers)


def spec(tool: str) -> ToolSpec:
    provider, mode = ROUTES[tool]
    search = EndpointSpec(
        name="search",
        fields=[FieldSpec(name="band_gap", aliases=["band gap"]), FieldSpec(name="formula")],
        read_only=True,
        input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
        records_path=["data"],
    )
    endpoints = [search]
    if tool == "mp_api":  # one endpoint that cannot answer the question, to show a rejection
        endpoints.append(EndpointSpec(name="heartbeat", fields=[FieldSpec(name="status")], read_only=True))
    return ToolSpec(name=tool, provider=provider, access_mode=mode, endpoints=endpoints)


def build_router(routes: Landscape) -> SchemaRouter:
    """The three routes, each invoked with the same GET the with_fallbacks chain makes."""
    router = SchemaRouter()
    for tool in ROUTES:

        async def invoke(call: ToolCall, tool: str = tool) -> Any:
            return await routes.get(tool, dict(call.arguments))

        router.register(spec(tool), invoke)

    async def probe() -> bool:  # trusted: a plain GET of the primary, as the application decides
        try:
            return (await routes.client.get(routes.primary.url, params={"formula": "Si"})).is_success
        except httpx.HTTPError:
            return False

    router.register_health_probe("mp_api", "search", probe)
    return router


def router_tool(router: SchemaRouter, hedged: bool) -> SchemaRouterTool:
    return SchemaRouterTool(
        router=router,
        name="materials_data",
        fallback_scope="cross_provider",
        max_fallbacks=2,
        preferred_tools=["mp_api"],
        hedge=HedgePolicy(after_seconds=HEDGE_AFTER) if hedged else None,
    )


def ask_tool(tool: SchemaRouterTool) -> Ask:
    """One question the way an agent asks it: a tool call; returns the access path that answered."""
    number = 0

    async def ask() -> str:
        nonlocal number
        number += 1
        call = {"name": tool.name, "args": {"query": QUESTION, "formula": "Si"}, "id": f"call-{number}"}
        message = await tool.ainvoke({**call, "type": "tool_call"})
        result = message.artifact
        assert result.records[0]["band_gap"] == 0.61, result.records
        return f"{result.tool}.{result.endpoint}"

    return ask


def ask_with_fallbacks(routes: Landscape) -> Ask:
    """LangChain's own answer to a failing primary: ``with_fallbacks`` over the same three GETs."""
    from langchain_core.runnables import RunnableLambda

    def step(tool: str) -> RunnableLambda[dict[str, Any], tuple[str, Any]]:
        async def get(arguments: dict[str, Any]) -> tuple[str, Any]:
            return f"{tool}.search", await routes.get(tool, arguments)

        return RunnableLambda(get, name=tool)

    chain = step("mp_api").with_fallbacks([step("mp_mirror"), step("oqmd")])

    async def ask() -> str:
        path, answer = await chain.ainvoke({"formula": "Si"})
        assert answer["data"][0]["band_gap"] == 0.61, answer
        return str(path)

    return ask
