"""A loopback HTTP invoke through the router against a plain ``httpx.AsyncClient`` GET.

One uvicorn server process (one JSON record a GET, HTTP/1.1 keep-alive) answers both sides,
so its own CPU is not counted. Ours registers an
OpenAPI document of that one operation with ``add_url(kind="openapi")`` (its httpx invoker)
and answers ``router.invoke(PlanRequest(...))``; the peer sends ``client.get(url, params=...)``
and decodes the JSON. At 1, 10 and 100 concurrent callers each side sends ``REQUESTS``
requests, alternating sides and rounds; reported is this process's CPU time per request
(``time.process_time``, median of rounds) and its ratio ours / httpx. No target in issue 27.
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CONCURRENCY = (1, 10, 100)
REQUESTS = 300  # a side, concurrency and round (600 took 111 s of a loaded run)
ROUNDS = 3
RECORDS = {"data": [{"formula": "Si", "band_gap": 0.61}]}
_RECORD = {"type": "object", "properties": {"formula": {"type": "string"}, "band_gap": {"type": "number"}}}
_ANSWER = {"type": "object", "properties": {"data": {"type": "array", "items": _RECORD}}}
DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "loopback", "version": "1"},
    "paths": {
        "/search": {
            "get": {
                "operationId": "search",
                "parameters": [{"name": "formula", "in": "query", "schema": {"type": "string"}}],
                "responses": {
                    "200": {"description": "ok", "content": {"application/json": {"schema": _ANSWER}}}
                },
            }
        }
    },
}


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The server process's ASGI app: the document at /openapi.json, RECORDS anywhere else."""
    if scope["type"] != "http":
        return
    body = json.dumps(DOCUMENT if scope["path"] == "/openapi.json" else RECORDS).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _cpu_per_request(call: Callable[[], Awaitable[None]], concurrency: int) -> float:
    """CPU seconds of this process per request, REQUESTS requests by *concurrency* callers."""
    each = REQUESTS // concurrency

    async def caller() -> None:
        for _ in range(each):
            await call()

    start = time.process_time()
    async with anyio.create_task_group() as group:
        for _ in range(concurrency):
            group.start_soon(caller)
    return (time.process_time() - start) / (each * concurrency)


async def _measure(base_url: str) -> dict[int, dict[str, list[float]]]:
    from schemarouter_integrations import PlanRequest, SchemaRouter

    with anyio.fail_after(120):
        while True:
            try:
                stream = await anyio.connect_tcp("127.0.0.1", int(base_url.rsplit(":", 1)[1]))
                await stream.aclose()
                break
            except OSError:
                await anyio.sleep(0.1)
    request = PlanRequest(query="band gap", arguments={"formula": "Si"})
    samples: dict[int, dict[str, list[float]]] = {c: {"ours": [], "httpx": []} for c in CONCURRENCY}
    limits = httpx.Limits(max_connections=max(CONCURRENCY), max_keepalive_connections=max(CONCURRENCY))
    async with SchemaRouter() as router, httpx.AsyncClient(limits=limits, timeout=30) as client:
        await router.add_url(f"{base_url}/openapi.json", kind="openapi", name="loopback", base_url=base_url)

        async def ours() -> None:
            result = await router.invoke(request)
            assert result.records[0]["band_gap"] == 0.61, result.records

        async def plain() -> None:
            response = await client.get(f"{base_url}/search", params={"formula": "Si"})
            response.raise_for_status()
            assert response.json()["data"][0]["band_gap"] == 0.61

        sides = {"ours": ours, "httpx": plain}
        for call in sides.values():  # warm up: connections opened, caches filled
            await _cpu_per_request(call, max(CONCURRENCY))
        for round_ in range(ROUNDS):
            for concurrency in CONCURRENCY:
                for side in sides if round_ % 2 == 0 else reversed(list(sides)):
                    samples[concurrency][side].append(await _cpu_per_request(sides[side], concurrency))
    return samples


def main() -> dict[str, float]:
    port = _free_port()
    command = [sys.executable, __file__, "--serve", str(port)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        samples = anyio.run(_measure, f"http://127.0.0.1:{port}")
    finally:
        server.kill()
        server.wait()
    results: dict[str, float] = {}
    print(f"loopback HTTP invoke, CPU of this process per request (median of {ROUNDS} rounds)")
    for concurrency, sides in samples.items():
        ours, peer = (statistics.median(sides[s]) * 1000 for s in ("ours", "httpx"))
        results[f"http_invoke.c{concurrency}.ours_cpu_ms"] = round(ours, 4)
        results[f"http_invoke.c{concurrency}.httpx_cpu_ms"] = round(peer, 4)
        results[f"http_invoke.c{concurrency}.ratio"] = round(ours / peer, 3)
        print(f"{concurrency:>4} concurrent  ours {ours:.3f} ms  httpx {peer:.3f} ms  {ours / peer:.2f}x")
    return results


if __name__ == "__main__":
    if "--serve" in sys.argv:
        import uvicorn

        port = int(sys.argv[sys.argv.index("--serve") + 1])
        uvicorn.run(_app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    else:
        main()
