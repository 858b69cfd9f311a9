"""The secrets clause of the public contract, over real loopback HTTP.

API.md: ``headers`` (API keys) "go only to that API's own origin and never appear in events,
``inspect()``, plans, errors or traces". Two keyed access paths share one router (and its
pooled HTTP client); the MP-like REST API fails and the real OPTIMADE server answers, or every
route fails. Existing tests cover one key on a healthy route and a 401; these cover the keys
of several origins, the error of a run where every route is down, and the framework traces.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from langchain_core.tracers import LangChainTracer
from langsmith import Client

from schemarouter_integrations import (
    AllRoutesUnavailableError,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
)
from schemarouter_integrations.events import RunErrorEvent
from schemarouter_integrations.langchain import SchemaRouterTool
from schemarouter_integrations.llamaindex import SchemaRouterToolSpec, ToolFallbackEvent
from tests.servers.langsmith_capture import LangSmithCapture
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer
from tests.support.llamaindex import capturing

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

MP_KEY = "mp-contract-key-3c9d1f7a2e5b"
OQMD_KEY = "oqmd-contract-key-8b2e6d0c4f1a"
KEYS = (MP_KEY, OQMD_KEY)
BAND_GAP = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="cross_provider",
)
ASK = {"query": "Si band gap", "formula": "Si"}


class Sent:
    """Every request the router's pooled client sent, by server."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    async def record(self, request: httpx.Request) -> None:
        self.requests.append(request)

    def to(self, server_url: str) -> list[httpx.Request]:
        port = httpx.URL(server_url).port
        return [r for r in self.requests if r.url.port == port]


async def add_mp(
    router: SchemaRouter, mp: MaterialsApiServer, *, name: str = "mp_api", **options: object
) -> None:
    await router.add_url(
        mp.openapi_url,
        kind="openapi",
        name=name,
        provider="materials_project",
        access_mode="openapi",
        headers={"x-api-key": MP_KEY},
        projection=ServerProjectionSpec(parameter="_fields"),
        timeout_seconds=2.0,
        **options,
    )


@asynccontextmanager
async def keyed_routes(
    mp: MaterialsApiServer, oqmd: OptimadeServer
) -> AsyncIterator[tuple[SchemaRouter, Sent]]:
    """``mp_api`` (key ``x-api-key``, answering 503) and ``oqmd_optimade`` (key ``x-oqmd-token``)."""
    sent = Sent()
    mp.api_key = MP_KEY
    mp.faults.always("503")
    async with SchemaRouter() as router:
        router.http_client.event_hooks["request"].append(sent.record)
        await add_mp(router, mp)
        await router.add_url(
            oqmd.url,
            kind="optimade",
            name="oqmd_optimade",
            provider="oqmd",
            access_mode="optimade",
            headers={"x-oqmd-token": OQMD_KEY},
        )
        yield router, sent


def leaked(texts: list[str]) -> list[str]:
    """The texts that show any API key."""
    return [text for text in texts if any(key in text for key in KEYS)]


async def test_each_api_key_reaches_only_its_own_origin(
    materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    async with keyed_routes(materials_api, optimade_server) as (router, sent):
        result = await router.invoke(BAND_GAP)

    assert result.route == ["mp_api.search", "oqmd_optimade.search_structures"]
    to_mp, to_oqmd = sent.to(materials_api.url), sent.to(optimade_server.url)
    assert any(r.url.path.startswith("/materials/summary") for r in to_mp)
    assert any("/structures" in r.url.path for r in to_oqmd)
    assert {(r.headers.get("x-api-key"), r.headers.get("x-oqmd-token")) for r in to_mp} == {(MP_KEY, None)}
    assert {(r.headers.get("x-api-key"), r.headers.get("x-oqmd-token")) for r in to_oqmd} == {
        (None, OQMD_KEY)
    }


async def test_api_key_stays_out_of_errors_events_and_tracebacks_when_every_route_is_down(
    materials_api: MaterialsApiServer, refused_url: str
) -> None:
    materials_api.api_key = MP_KEY
    materials_api.faults.always("503")
    async with SchemaRouter() as router:
        await add_mp(router, materials_api)
        await add_mp(router, materials_api, name="mp_mirror", base_url=refused_url)
        events = [event async for event in router.stream(BAND_GAP)]
        snapshot = router.inspect().model_dump_json()

    error = events[-1]
    assert isinstance(error, RunErrorEvent) and isinstance(error.exception, AllRoutesUnavailableError)
    assert error.route == ["mp_api.search", "mp_mirror.search"]
    attempts = error.exception.attempts
    texts = [
        str(error.exception),
        repr(error.exception),
        "".join(traceback.format_exception(error.exception)),
        *("".join(traceback.format_exception(a.exception)) for a in attempts),
        *(event.model_dump_json() for event in events),
        snapshot,
    ]
    assert leaked(texts) == []


async def test_api_keys_stay_out_of_the_langsmith_trace_of_a_fallback(
    materials_api: MaterialsApiServer,
    optimade_server: OptimadeServer,
    langsmith_capture: LangSmithCapture,
    tracing_client: Client,
) -> None:
    async with keyed_routes(materials_api, optimade_server) as (router, _):
        tool = SchemaRouterTool(
            router=router, name="materials", fallback_scope="cross_provider", preferred_tools=["mp_api"]
        )
        tracer = LangChainTracer(client=tracing_client, project_name="contract")
        await tool.ainvoke(
            {"type": "tool_call", "id": "c1", "name": "materials", "args": ASK},
            config={"callbacks": [tracer]},
        )
    tracing_client.flush()

    runs = langsmith_capture.wait_for_runs(3)
    (root,) = [r for r in runs if not r.get("parent_run_id")]
    assert "tool.fallback" in [e["name"] for e in root.get("events") or []]
    bodies = [request.body.decode("utf-8", "replace") for request in langsmith_capture.requests]
    assert leaked([json.dumps(runs, default=str), *bodies]) == []


async def test_api_keys_stay_out_of_llamaindex_instrumentation_events(
    materials_api: MaterialsApiServer, optimade_server: OptimadeServer
) -> None:
    with capturing() as handler:
        async with keyed_routes(materials_api, optimade_server) as (router, _):
            spec = SchemaRouterToolSpec(router, fallback_scope="cross_provider", preferred_tools=["mp_api"])
            output = await spec.acall(**ASK)

    assert not output.is_error and handler.of(ToolFallbackEvent)
    assert leaked([event.model_dump_json() for event in handler.events] + [str(output)]) == []
