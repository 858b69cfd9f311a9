"""The scope in an answer key: where a call goes and a one-way digest of the credentials it
sends. Different servers or keys give different scopes; no scope holds a credential."""

from __future__ import annotations

import httpx

from schemarouter_integrations._caching.keys import answer_scope, credentials_digest, scope_of
from schemarouter_integrations.adapters._http import HttpTarget
from schemarouter_integrations.adapters._mcp.route import McpInvoker
from schemarouter_integrations.adapters._mcp.session import McpSession
from schemarouter_integrations.adapters._openapi.invoker import OpenApiInvoker
from schemarouter_integrations.adapters._python_call import function_scope

SECRET = "sk-live-0123456789abcdef"


def http_scope(origin: str, headers: dict[str, str]) -> str:
    target = HttpTarget(client=httpx.AsyncClient(), origin=origin, headers=headers)
    return scope_of(OpenApiInvoker(target, {}))


def test_an_http_route_is_scoped_by_origin_and_by_its_credentials_never_holding_them() -> None:
    mine = http_scope("https://a.example.org", {"Authorization": f"Bearer {SECRET}"})
    assert mine.startswith("https://a.example.org|") and SECRET not in mine
    assert mine != http_scope("https://b.example.org", {"Authorization": f"Bearer {SECRET}"})
    assert mine != http_scope("https://a.example.org", {"Authorization": "Bearer another"})
    assert mine == http_scope("https://a.example.org", {"authorization": f"Bearer {SECRET}"})
    assert http_scope("https://a.example.org", {}) == "https://a.example.org"


def test_an_mcp_route_is_scoped_by_its_server_and_headers() -> None:
    def scope(url: str, headers: dict[str, str]) -> str:
        return scope_of(McpInvoker(McpSession(url, headers=headers), {}))

    mine = scope("https://mcp.example.org/mcp", {"x-api-key": SECRET})
    assert SECRET not in mine
    assert mine != scope("https://mcp.example.org/mcp", {"x-api-key": "other"})
    assert mine != scope("https://other.example.org/mcp", {"x-api-key": SECRET})
    with_userinfo = scope(f"https://user:{SECRET}@mcp.example.org/mcp", {})
    assert SECRET not in with_userinfo and with_userinfo != scope("https://mcp.example.org/mcp", {})


def test_functions_are_scoped_by_name_and_a_custom_invoker_may_say_its_own() -> None:
    def one() -> None: ...

    def two() -> None: ...

    assert function_scope(one) != function_scope(two)
    assert function_scope(one).startswith("python:") and function_scope(one).endswith("<locals>.one")

    class Custom:
        answer_scope = answer_scope("https://c.example.org", {"x-key": SECRET})

    assert scope_of(Custom()) == Custom.answer_scope and SECRET not in Custom.answer_scope
    assert credentials_digest({}) == ""
