"""``langchain-mcp-adapters`` (in its own venv with mcp 1.x) against the router's MCP server.

``python langchain_mcp_client.py URL '[{"query": ...}, ...]'`` loads the server's tools over
streamable HTTP with ``MultiServerMCPClient`` and calls the first one with each argument object
as a model's tool call would (a ``ToolMessage`` comes back). Prints one JSON object: the tools
(name, argument names) and, for each call, the message's status, text and artifact, or the
error raised.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


async def main(url: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    from langchain_mcp_adapters.client import MultiServerMCPClient

    client = MultiServerMCPClient({"router": {"url": url, "transport": "streamable_http"}})
    tools = await client.get_tools()
    out: dict[str, Any] = {
        "tools": [{"name": t.name, "arguments": sorted(t.args)} for t in tools],
        "calls": [],
    }
    for number, arguments in enumerate(calls):
        call = {"type": "tool_call", "id": f"call-{number}", "name": tools[0].name, "args": arguments}
        try:
            message = await tools[0].ainvoke(call)
        except Exception as exc:
            out["calls"].append({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
            continue
        content = message.content
        text = (
            content if isinstance(content, str) else " ".join(str(part.get("text", part)) for part in content)
        )
        out["calls"].append(
            {"ok": True, "status": message.status, "text": text, "artifact": _jsonable(message.artifact)}
        )
    return out


def _jsonable(value: Any) -> Any:
    try:
        return json.loads(
            json.dumps(value, default=lambda v: v.model_dump() if hasattr(v, "model_dump") else str(v))
        )
    except (TypeError, ValueError):
        return str(value)


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))))
