"""The router's MCP server, on the wire, against the MCP specification's own JSON schemas.

For every protocol version the server negotiates through ``initialize`` (2024-11-05,
2025-03-26, 2025-06-18, 2025-11-25), a raw JSON-RPC client over streamable HTTP (raw so
that it can ask for each version; the server is the ``mcp`` SDK's) checks every message the
server sends against that version's ``schema.json``, vendored unchanged with its source and
licence in ``tests/servers/data/mcp-schemas`` (see its ``SOURCE.md``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from schemarouter_integrations import __version__
from schemarouter_integrations.mcp import router_mcp_server
from tests.servers.uvicorn_thread import UvicornThread
from tests.support.seed import seed_router, unavailable

pytestmark = pytest.mark.integration

SCHEMAS = Path(__file__).resolve().parents[1] / "servers" / "data" / "mcp-schemas"
VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
SI = {"query": "band gap of Si", "formula": "Si"}


def spec_schema(version: str) -> dict[str, Any]:
    path = SCHEMAS / version / "schema.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


class Spec:
    """Validates messages against one version's definitions."""

    def __init__(self, version: str) -> None:
        self.version = version
        self.schema = spec_schema(version)
        self.key = "$defs" if "$defs" in self.schema else "definitions"

    def check(self, definition: str, instance: Any) -> None:
        assert definition in self.schema[self.key], f"{definition} is not defined in {self.version}"
        wrapper = {
            "$schema": self.schema.get("$schema", "http://json-schema.org/draft-07/schema#"),
            "$ref": f"#/{self.key}/{definition}",
            self.key: self.schema[self.key],
        }
        validator = jsonschema.validators.validator_for(wrapper)(wrapper)
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
        assert not errors, f"{definition} ({self.version}): " + "; ".join(
            f"{list(e.path)}: {e.message[:300]}" for e in errors[:5]
        )

    def response(self, message: dict[str, Any], result: str) -> dict[str, Any]:
        """*message* is a valid JSON-RPC result response whose result is a valid *result*."""
        envelope = "JSONRPCResultResponse" if self.version >= "2025-11-25" else "JSONRPCResponse"
        self.check(envelope, message)
        self.check(result, message["result"])
        return message["result"]  # type: ignore[no-any-return]

    def error(self, message: dict[str, Any]) -> dict[str, Any]:
        envelope = "JSONRPCErrorResponse" if self.version >= "2025-11-25" else "JSONRPCError"
        self.check(envelope, message)
        return message["error"]  # type: ignore[no-any-return]

    def notification(self, message: dict[str, Any]) -> None:
        self.check("JSONRPCNotification", message)
        # up to 2025-06-18 the notification definitions leave the envelope out
        bare = (
            message if self.version >= "2025-11-25" else {k: v for k, v in message.items() if k != "jsonrpc"}
        )
        self.check("ServerNotification", bare)
        definition = {
            "notifications/message": "LoggingMessageNotification",
            "notifications/progress": "ProgressNotification",
        }.get(message["method"])
        if definition is not None:
            self.check(definition, bare)


class RawClient:
    """JSON-RPC over streamable HTTP, one protocol version, every server message kept."""

    def __init__(self, url: str, version: str) -> None:
        self.url = url
        self.version = version
        self.http = httpx.Client(timeout=60.0)
        self.headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        self.next_id = 0

    def post(self, payload: dict[str, Any]) -> tuple[httpx.Response, list[dict[str, Any]]]:
        response = self.http.post(self.url, json=payload, headers=self.headers)
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            messages = [
                json.loads(line[5:])
                for line in response.text.splitlines()
                if line.startswith("data:") and line[5:].strip()
            ]
        elif response.content:
            messages = [response.json()]
        else:
            messages = []
        return response, messages

    def request(self, method: str, params: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[Any]]:
        """The response to *method*, and the notifications sent before it."""
        self.next_id += 1
        payload: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            payload["params"] = params
        _, messages = self.post(payload)
        answers = [m for m in messages if m.get("id") == self.next_id]
        assert len(answers) == 1, messages
        return answers[0], [m for m in messages if "id" not in m]

    def initialize(self) -> dict[str, Any]:
        self.next_id += 1
        response, messages = self.post(
            {
                "jsonrpc": "2.0",
                "id": self.next_id,
                "method": "initialize",
                "params": {
                    "protocolVersion": self.version,
                    "capabilities": {},
                    "clientInfo": {"name": "spec-check", "version": "0"},
                },
            }
        )
        session = response.headers.get("mcp-session-id")
        if session:
            self.headers["mcp-session-id"] = session
        self.headers["mcp-protocol-version"] = self.version
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        (answer,) = messages
        return answer  # type: ignore[no-any-return]

    def close(self) -> None:
        self.http.close()


class Served:
    def __init__(self) -> None:
        self.router, self.invokers = seed_router()
        app = router_mcp_server(self.router, fallback_scope="cross_provider").streamable_http_app()
        self.thread = UvicornThread(app).start()
        self.url = self.thread.url + "/mcp"

    def down(self, *tools: str) -> None:
        """The named tools fail as unavailable, the others answer; no route cools down from before."""
        for name, invoker in self.invokers.items():
            self.router.mark_access_available(name, "search")
            invoker.fail_with = unavailable(f"{name} is down") if name in tools else None


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    served = Served()
    try:
        yield served
    finally:
        served.thread.stop()


@pytest.fixture(params=VERSIONS)
def session(
    request: pytest.FixtureRequest, served: Served
) -> Iterator[tuple[Spec, RawClient, dict[str, Any]]]:
    spec = Spec(request.param)
    served.down()
    client = RawClient(served.url, request.param)
    try:
        initialized = client.initialize()
        yield spec, client, initialized
    finally:
        served.down()
        client.close()


def test_initialize_negotiates_the_version_with_the_package_version_and_only_real_capabilities(
    session: tuple[Spec, RawClient, dict[str, Any]],
) -> None:
    spec, client, initialized = session
    result = spec.response(initialized, "InitializeResult")
    assert result["protocolVersion"] == client.version
    assert result["serverInfo"]["version"] == __version__
    capabilities = result["capabilities"]
    assert "tools" in capabilities and "logging" in capabilities
    assert "prompts" not in capabilities and "resources" not in capabilities


def test_tools_list_and_a_successful_call_follow_the_spec(
    session: tuple[Spec, RawClient, dict[str, Any]],
) -> None:
    spec, client, _ = session
    listed, _ = client.request("tools/list")
    (tool,) = spec.response(listed, "ListToolsResult")["tools"]
    assert tool["name"] == "data_lookup"
    assert not _vendor_keys(tool["inputSchema"]) and not _vendor_keys(tool.get("outputSchema", {}))
    answered, notifications = client.request("tools/call", {"name": "data_lookup", "arguments": SI})
    result = spec.response(answered, "CallToolResult")
    assert result.get("isError") in (None, False)
    assert result["structuredContent"]["records"] == [{"band_gap": 0.61}]
    for notification in notifications:
        spec.notification(notification)
    assert [n["params"]["data"]["type"] for n in notifications if n["method"] == "notifications/message"][
        -1
    ] == "run.end"


def test_a_fallback_is_a_result_and_a_warning_notification(
    session: tuple[Spec, RawClient, dict[str, Any]], served: Served
) -> None:
    spec, client, _ = session
    served.down("mp_api")
    answered, notifications = client.request("tools/call", {"name": "data_lookup", "arguments": SI})
    result = spec.response(answered, "CallToolResult")
    assert result["structuredContent"]["fallbacks"][0]["from"] == "mp_api.search"
    for notification in notifications:
        spec.notification(notification)
    warned = [n["params"] for n in notifications if n["method"] == "notifications/message"]
    assert any(p["level"] == "warning" and p["data"]["type"] == "tool.fallback" for p in warned)


def test_all_down_and_bad_arguments_are_is_error_results(
    session: tuple[Spec, RawClient, dict[str, Any]], served: Served
) -> None:
    spec, client, _ = session
    bad, _ = client.request("tools/call", {"name": "data_lookup", "arguments": {"query": "gap", "limit": 0}})
    assert spec.response(bad, "CallToolResult")["isError"] is True
    served.down("mp_api", "mp_optimade", "mp_python", "oqmd_api")
    down, notifications = client.request("tools/call", {"name": "data_lookup", "arguments": SI})
    result = spec.response(down, "CallToolResult")
    assert result["isError"] is True
    assert result["_meta"]["schemarouter/error"] == {"type": "AllRoutesUnavailableError", "unavailable": True}
    for notification in notifications:
        spec.notification(notification)


def test_an_unknown_tool_is_a_protocol_error_invalid_params(
    session: tuple[Spec, RawClient, dict[str, Any]],
) -> None:
    spec, client, _ = session
    refused, _ = client.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    error = spec.error(refused)
    assert error["code"] == -32602


def test_set_level_is_honoured_log_notifications_only_at_or_above_it(
    session: tuple[Spec, RawClient, dict[str, Any]], served: Served
) -> None:
    spec, client, _ = session
    answered, _ = client.request("logging/setLevel", {"level": "warning"})
    spec.response(answered, "EmptyResult")
    served.down("mp_api")
    _, notifications = client.request("tools/call", {"name": "data_lookup", "arguments": SI})
    levels = [n["params"]["level"] for n in notifications if n["method"] == "notifications/message"]
    assert levels and set(levels) <= {"warning", "error"}, levels
    client.request("logging/setLevel", {"level": "error"})
    _, quieter = client.request("tools/call", {"name": "data_lookup", "arguments": SI})
    assert not [n for n in quieter if n["method"] == "notifications/message"]
    assert [n for n in quieter if n["method"] == "notifications/progress"] == []  # no progress token sent


def _vendor_keys(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [k for k in node if isinstance(k, str) and k.startswith("x-")]
        return own + [k for v in node.values() for k in _vendor_keys(v)]
    if isinstance(node, list):
        return [k for v in node for k in _vendor_keys(v)]
    return []
