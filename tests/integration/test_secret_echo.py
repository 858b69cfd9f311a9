"""A server that echoes the credential it was sent cannot make the router leak it: not in
the error, its repr, args or traceback, nor in events, ``inspect()``, logs or LangSmith."""

from __future__ import annotations

import contextlib
import json
import logging
import traceback
from collections.abc import Iterator

import pytest
from fastapi import FastAPI, Header
from fastapi.responses import JSONResponse
from langchain_core.tracers import LangChainTracer
from langsmith import Client
from pydantic import BaseModel

from schemarouter_integrations import NonRetryableInvocationError, PlanRequest, SchemaRouter
from schemarouter_integrations.events import RunErrorEvent
from schemarouter_integrations.langchain import SchemaRouterTool
from tests.servers.langsmith_capture import LangSmithCapture
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

TOKEN = "sr-echo-token-7f3a9c1e5b2d8f4a"


class Gap(BaseModel):
    formula: str
    band_gap: float


class Gaps(BaseModel):
    data: list[Gap]


def echoing_app() -> FastAPI:
    app = FastAPI(title="echo", version="1")

    @app.get("/gaps", operation_id="gaps", response_model=Gaps)
    async def gaps(formula: str = "Si", authorization: str = Header("")) -> JSONResponse:
        token = authorization.removeprefix("Bearer ")
        if formula == "partial":
            return JSONResponse({"detail": f"token {token[:16]}... expired"}, status_code=401)
        if formula == "busy":
            return JSONResponse({"detail": f"overloaded for {authorization}"}, status_code=503)
        return JSONResponse({"errors": [{"title": "Unauthorized", "detail": f"invalid token {token}"}]}, 401)

    return app


@pytest.fixture(scope="module")
def echo_server() -> Iterator[UvicornThread]:
    server = UvicornThread(echoing_app()).start()
    yield server
    server.stop()


async def keyed_router(server: UvicornThread) -> SchemaRouter:
    router = SchemaRouter()
    await router.add_url(
        f"{server.url}/openapi.json",
        kind="openapi",
        name="echo",
        provider="echo_corp",
        headers={"authorization": f"Bearer {TOKEN}"},
    )
    return router


def leaks(texts: list[str]) -> list[str]:
    return [text for text in texts if TOKEN in text or TOKEN[:16] in text]


@pytest.mark.parametrize("formula", ["Si", "partial", "busy"], ids=["echo", "partial_echo", "echo_in_503"])
async def test_an_echoed_token_stays_out_of_errors_events_inspect_and_logs(
    echo_server: UvicornThread, formula: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with await keyed_router(echo_server) as router:
        events = [
            e async for e in router.stream(PlanRequest(query="band gap", arguments={"formula": formula}))
        ]
        snapshot = router.inspect().model_dump_json()

    error = events[-1]
    assert isinstance(error, RunErrorEvent) and error.exception is not None
    exc = error.exception
    texts = [
        str(exc),
        repr(exc),
        json.dumps([str(a) for a in exc.args]),
        "".join(traceback.format_exception(exc)),
        *(event.model_dump_json() for event in events),
        snapshot,
        *(record.getMessage() for record in caplog.records),
    ]
    assert leaks(texts) == []
    if formula != "busy":
        assert isinstance(exc, NonRetryableInvocationError) and exc.status_code == 401


async def test_an_echoed_token_stays_out_of_the_langsmith_trace(
    echo_server: UvicornThread, langsmith_capture: LangSmithCapture, tracing_client: Client
) -> None:
    async with await keyed_router(echo_server) as router:
        tool = SchemaRouterTool(router=router, name="gaps")
        tracer = LangChainTracer(client=tracing_client, project_name="echo")
        with contextlib.suppress(NonRetryableInvocationError):  # a 401 is the application's to handle
            await tool.ainvoke(
                {"type": "tool_call", "id": "c1", "name": "gaps", "args": {"query": "band gap"}},
                config={"callbacks": [tracer]},
            )
    tracing_client.flush()

    runs = langsmith_capture.wait_for_runs(1)
    bodies = [request.body.decode("utf-8", "replace") for request in langsmith_capture.requests]
    assert runs and leaks([json.dumps(runs, default=str), *bodies]) == []
