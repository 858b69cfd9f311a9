"""The SSE streams of the router's streamable-HTTP server, read raw: each opens with a priming
event (an event id, empty data, ``retry``) for clients of 2025-11-25 on, as the specification's
streamable-HTTP transport asks, and a client that reconnects with ``Last-Event-ID`` gets what
came after that id."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp.types import JSONRPCResponse

from schemarouter_integrations.mcp import router_mcp_server
from schemarouter_integrations.mcp._events import RETRY_MILLISECONDS, MemoryEventStore
from tests.servers.uvicorn_thread import UvicornThread
from tests.support.seed import seed_router

pytestmark = pytest.mark.integration

SI = {"query": "band gap of Si", "formula": "Si"}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def sse_events(text: str) -> list[dict[str, str]]:
    """The events of an SSE body, each as its fields (``id``, ``data``, ``retry``, ...)."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            fields[name] = fields[name] + "\n" + value if name in fields else value
        if fields:
            events.append(fields)
    return events


class Session:
    """A raw streamable-HTTP session at one protocol version."""

    def __init__(self, url: str, version: str) -> None:
        self.url = url
        self.http = httpx.Client(timeout=60.0)
        self.headers = dict(ACCEPT)
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        }
        self.initialized = self.http.post(url, json=init, headers=self.headers)
        self.headers["mcp-session-id"] = self.initialized.headers["mcp-session-id"]
        self.headers["mcp-protocol-version"] = version
        self.http.post(
            url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=self.headers
        )

    def call(self, arguments: dict[str, Any]) -> list[dict[str, str]]:
        request = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "data_lookup", "arguments": arguments},
        }
        response = self.http.post(self.url, json=request, headers=self.headers)
        assert response.headers["content-type"].startswith("text/event-stream")
        return sse_events(response.text)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    router, _ = seed_router()
    thread = UvicornThread(router_mcp_server(router).streamable_http_app()).start()
    try:
        yield thread.url + "/mcp"
    finally:
        thread.stop()


@pytest.fixture()
def session(url: str) -> Iterator[Session]:
    opened = Session(url, "2025-11-25")
    try:
        yield opened
    finally:
        opened.http.close()


def test_the_initialize_stream_opens_with_a_priming_event_and_retry(session: Session) -> None:
    first, *rest = sse_events(session.initialized.text)
    assert first["id"] and first["data"] == ""
    assert first["retry"] == str(RETRY_MILLISECONDS)
    assert json.loads(rest[-1]["data"])["result"]["protocolVersion"] == "2025-11-25"


def test_a_tool_call_stream_opens_with_a_priming_event_and_every_later_event_has_an_id(
    session: Session,
) -> None:
    first, *rest = session.call(SI)
    assert first["id"] and first["data"] == "" and first["retry"] == str(RETRY_MILLISECONDS)
    assert all(event.get("id") for event in rest)
    answer = json.loads(rest[-1]["data"])
    assert answer["result"]["structuredContent"]["records"] == [{"band_gap": 0.61}]


def test_a_client_that_reconnects_with_last_event_id_gets_what_came_after(session: Session) -> None:
    priming, *sent = session.call(SI)
    headers = {**session.headers, "Accept": "text/event-stream", "Last-Event-ID": priming["id"]}
    with session.http.stream("GET", session.url, headers=headers) as response:
        replayed: list[dict[str, str]] = []
        text = ""
        for chunk in response.iter_text():
            text += chunk
            replayed = [event for event in sse_events(text) if event.get("data")]
            if len(replayed) >= len(sent):
                break
    assert [event["id"] for event in replayed[: len(sent)]] == [event["id"] for event in sent]
    assert json.loads(replayed[len(sent) - 1]["data"])["id"] == 2


def test_a_client_before_2025_11_25_gets_no_priming_event(url: str) -> None:
    older = Session(url, "2025-06-18")
    try:
        assert all(event.get("data") for event in older.call(SI))
    finally:
        older.http.close()


class Kept:
    """A replay callback that keeps the messages it is sent."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def __call__(self, event: Any) -> None:
        self.messages.append(event.message)


def response(request_id: int) -> JSONRPCResponse:
    return JSONRPCResponse(jsonrpc="2.0", id=request_id, result={})


@pytest.mark.anyio
async def test_the_event_store_keeps_at_most_its_bound_and_forgets_the_oldest() -> None:
    store = MemoryEventStore(max_events=3)
    first = await store.store_event("1", None)
    ids = [await store.store_event("1", {"n": n}) for n in range(3)]
    kept = Kept()
    assert await store.replay_events_after(first, kept) is None  # dropped
    assert await store.replay_events_after(ids[0], kept) == "1"
    assert kept.messages == [{"n": 1}, {"n": 2}]


@pytest.mark.anyio
async def test_the_event_store_replays_a_request_stream_after_the_given_event() -> None:
    store = MemoryEventStore()
    priming = await store.store_event("1", None)
    note = await store.store_event("1", {"method": "notifications/message"})
    await store.store_event("1", response(1))
    later = await store.store_event("1", None)  # the next session's request 1, after it
    await store.store_event("1", response(1))
    kept = Kept()
    assert await store.replay_events_after(priming, kept) == "1"
    assert kept.messages == [{"method": "notifications/message"}, response(1)]
    assert note and later


@pytest.mark.anyio
async def test_the_event_store_never_replays_another_sessions_events_of_the_same_request_id() -> None:
    store = MemoryEventStore()
    mine = await store.store_event("1", None)
    theirs = await store.store_event("1", None)  # another session's request 1, at the same time
    await store.store_event("1", response(1))
    kept = Kept()
    assert await store.replay_events_after(mine, kept) is None
    assert await store.replay_events_after(theirs, kept) is None
    assert kept.messages == []
