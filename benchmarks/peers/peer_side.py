"""Run inside the peers' venv: register one OpenAPI document with one peer, print JSON.

``python peer_side.py fastmcp|langchain DOCUMENT REPEATS``: the document's text is read once;
each run parses it (``json.loads``) and builds the peer's tools from it, as the router's
registration of a local file reads and parses it and builds its contract. The peer's modules
are imported first, untimed; then *REPEATS* runs are timed (wall and CPU seconds each), with
no warm-up run: ``FastMCP.from_openapi`` takes over a minute of CPU on Stripe's document. A
peer that refuses the document (raises) prints ``{"refused": "<why>"}``; its tools are
counted on the last run.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any


def fastmcp(document: dict[str, Any]) -> int:
    """``FastMCP.from_openapi``: the server with one tool (or resource) per operation."""
    from fastmcp import FastMCP

    server = FastMCP.from_openapi(openapi_spec=document, name="bench")
    return len(asyncio.run(server.list_tools()))


def langchain(document: dict[str, Any]) -> int:
    """LangChain's OpenAPI tools: the document read as an ``OpenAPISpec`` and each operation
    made a function a model calls (``openapi_spec_to_openai_fn``, what its OpenAPI chain and
    agents call with). Its ``NLAToolkit`` builds no tool at all with the pydantic it installs
    (``OpenAPIEndpointChain`` misses ``max_text_length``), whatever the document."""
    from langchain_classic.chains.openai_functions.openapi import openapi_spec_to_openai_fn
    from langchain_community.tools.openapi.utils.openapi_utils import OpenAPISpec

    functions, _ = openapi_spec_to_openai_fn(OpenAPISpec.from_spec_dict(document))
    return len(functions)


PEERS = {"fastmcp": fastmcp, "langchain": langchain}
IMPORTS = {
    "fastmcp": ("fastmcp",),
    "langchain": (
        "langchain_classic.chains.openai_functions.openapi",
        "langchain_community.tools.openapi.utils.openapi_utils",
    ),
}


def main(argv: list[str]) -> None:
    peer, path, repeats = PEERS[argv[0]], Path(argv[1]), int(argv[2])
    text = path.read_text(encoding="utf-8")
    warnings.simplefilter("ignore")
    wall: list[float] = []
    cpu: list[float] = []
    tools = 0
    for module in IMPORTS[argv[0]]:
        importlib.import_module(module)
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            tools = peer(json.loads(text))
        except Exception as exc:  # the peer refuses the document: say why
            print(json.dumps({"refused": f"{type(exc).__name__}: {str(exc)[:300]}"}))
            return
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(json.dumps({"wall": wall, "cpu": cpu, "tools": tools}))


if __name__ == "__main__":
    main(sys.argv[1:])
