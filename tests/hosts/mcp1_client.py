"""An mcp 1.x client (``ClientSession``, in the mcp 1.x venv) against the router's MCP server.

``python mcp1_client.py stdio '<command line as JSON>' '[{"query": ...}, ...]'`` or
``python mcp1_client.py http URL '[...]'`` connects over that transport, lists the tools, sets
the log level, calls the first tool with each argument object and a tool that does not exist,
and asks for the prompts. Prints one JSON object: the SDK version, the server's name, version
and capabilities, the tools (wire form), each call's result (wire form), the log messages
received, and the JSON-RPC error code of the unknown tool and of ``prompts/list``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from contextlib import AsyncExitStack
from importlib.metadata import version
from typing import Any


async def main(transport: str, target: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamablehttp_client
    from mcp.shared.exceptions import McpError

    logs: list[dict[str, Any]] = []

    async def on_log(params: Any) -> None:
        logs.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))

    async with AsyncExitStack() as stack:
        if transport == "stdio":
            command = json.loads(target)
            server = StdioServerParameters(command=command[0], args=command[1:])
            read, write = await stack.enter_async_context(stdio_client(server))
        else:
            read, write, _ = await stack.enter_async_context(streamablehttp_client(target))
        session = await stack.enter_async_context(ClientSession(read, write, logging_callback=on_log))
        init = await session.initialize()
        await session.set_logging_level("info")
        tools = (await session.list_tools()).tools
        out: dict[str, Any] = {
            "sdk": version("mcp"),
            "server": init.serverInfo.model_dump(mode="json", exclude_none=True),
            "capabilities": init.capabilities.model_dump(mode="json", by_alias=True, exclude_none=True),
            "tools": [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in tools],
            "calls": [],
        }
        for arguments in calls:
            result = await session.call_tool(tools[0].name, arguments)
            out["calls"].append(result.model_dump(mode="json", by_alias=True, exclude_none=True))
        unknown = await session.call_tool("no_such_tool", {})
        out["unknown_tool"] = unknown.model_dump(mode="json", by_alias=True, exclude_none=True)
        try:
            await session.list_prompts()
            out["prompts_error"] = None
        except McpError as exc:
            out["prompts_error"] = exc.error.code
        out["logs"] = logs
        return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))))
