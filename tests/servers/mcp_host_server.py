"""The seed router served over MCP for the cross-host tests (``tests/integration/hosts/``).

``python tests/servers/mcp_host_server.py [--transport stdio|http] [--port N] [--underscore]``

One server answers every scenario a host checks, chosen by the ``formula`` argument:

* ``Si`` (:data:`ANSWERED`): the primary ``mp_api.search`` answers;
* ``Ge`` (:data:`FALLBACK`): ``mp_api`` is down, its same-provider fallback answers;
* ``Xx`` (:data:`ALL_DOWN`): every route is down, the tool answers ``isError``.

Cooldowns last a millisecond, so the scenarios may run in any order against one server.
``--underscore`` serves the landscape of an MP-like API whose parameters start with ``_``
(``_limit``, ``_skip``), as the Materials Project's do.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import anyio

from schemarouter_integrations import CooldownPolicy, InvocationUnavailableError, SchemaRouter, ToolCall
from schemarouter_integrations.mcp import serve_mcp
from tests.support.seed import RECORDS, SEED_TOOLS

ANSWERED, FALLBACK, ALL_DOWN = "Si", "Ge", "Xx"
TOOL_NAME = "materials"
UNDERSCORE_INPUT = {
    "type": "object",
    "properties": {
        "formula": {"type": "string"},
        "_limit": {"type": "integer", "minimum": 1},
        "_skip": {"type": "integer", "minimum": 0},
    },
    "additionalProperties": False,
}


def scripted(tool: str) -> Any:
    async def invoke(call: ToolCall) -> Any:
        formula = call.arguments.get("formula")
        if formula == ALL_DOWN or (formula == FALLBACK and tool == "mp_api"):
            raise InvocationUnavailableError(f"{tool} is down (scripted for formula {formula})")
        return RECORDS[tool]

    return invoke


def host_router(*, underscore: bool = False) -> SchemaRouter:
    router = SchemaRouter(cooldown=CooldownPolicy(base_seconds=0.001, max_seconds=0.001))
    for make in SEED_TOOLS:
        spec = make(input_schema=UNDERSCORE_INPUT) if underscore else make()
        router.register(spec, scripted(spec.name))
    return router


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--underscore", action="store_true")
    args = parser.parse_args(argv)
    serve = partial(
        serve_mcp,
        host_router(underscore=args.underscore),
        transport=args.transport,
        tool_name=TOOL_NAME,
        fallback_scope="same_provider",
    )
    if args.transport == "http":
        serve = partial(serve, port=args.port)
    anyio.run(serve)


if __name__ == "__main__":
    main()
