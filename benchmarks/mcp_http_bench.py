"""The router's MCP tool over real streamable HTTP against a bare ``mcp`` tool, 16 clients.

Two uvicorn servers, each in its own process (``--serve ours|bare --port N``): ours is
``serve_mcp(router, transport="http")`` over one healthy in-process route (``add_callable``
over ``band_gaps``); the bare one is an ``MCPServer`` whose ``@tool()`` calls ``band_gaps``
itself. The same client (this process, ``mcp.Client`` over ``streamable_http_client``) opens 16
sessions to one server and each session calls the tool back to back for ``SECONDS``; the sides
alternate for ``ROUNDS`` rounds (which goes first alternates too). Reported: calls per second
(median of rounds) and the server process's CPU seconds per call (``/proc/<pid>/stat``), which
other load on the machine disturbs less. Ratios are bare / ours for calls/s and ours / bare for
CPU per call. No target in issue 27 (the server-side ``call_tool`` row of ``one_route_bench``
has one); this row shows what the transport leaves of that difference.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLIENTS = 16
SECONDS = 3.0
ROUNDS = 3
WARMUP_CALLS = 5
ARGUMENTS = {"query": "band gap of Si", "formula": "Si"}
TICKS = os.sysconf("SC_CLK_TCK")


async def band_gaps(formula: str = "Si") -> list[dict[str, Any]]:
    """Band gaps of a formula (in-process, instant)."""
    return [{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}]


async def _serve(side: str, port: int) -> None:
    """Inside the server process: serve one side until killed."""
    if side == "ours":
        from schemarouter_integrations import SchemaRouter
        from schemarouter_integrations.mcp import serve_mcp

        router = SchemaRouter()
        router.add_callable(band_gaps, name="mp_python", provider="materials_project", read_only=True)
        await serve_mcp(router, transport="http", port=port, tool_name="materials")
        return
    from mcp.server import MCPServer

    bare = MCPServer("bare", log_level="WARNING")

    @bare.tool()
    async def materials(query: str, formula: str | None = None) -> list[dict[str, Any]]:
        """Band gaps."""
        return await band_gaps(formula or "Si")

    await bare.run_streamable_http_async(port=port)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


class _Server:
    def __init__(self, side: str) -> None:
        self.side, self.port = side, _free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        command = [sys.executable, __file__, "--serve", side, "--port", str(self.port)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    async def ready(self) -> None:
        with anyio.fail_after(120):
            while True:
                try:
                    stream = await anyio.connect_tcp("127.0.0.1", self.port)
                    await stream.aclose()
                    return
                except OSError:
                    await anyio.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


async def _load(url: str) -> int:
    """CLIENTS sessions calling the tool back to back for SECONDS once every one is open and
    warm; the calls answered in that time."""
    from mcp import Client

    calls = 0
    warm = 0
    all_warm, go = anyio.Event(), anyio.Event()
    deadline = 0.0

    async def one() -> None:
        nonlocal calls, warm
        async with Client(url) as client:
            for _ in range(WARMUP_CALLS):
                await client.call_tool("materials", dict(ARGUMENTS))
            warm += 1
            if warm == CLIENTS:
                all_warm.set()
            await go.wait()
            while time.perf_counter() < deadline:
                result = await client.call_tool("materials", dict(ARGUMENTS))
                if result.is_error:
                    raise RuntimeError(f"{url}: {result.content}")
                calls += 1

    async with anyio.create_task_group() as group:
        for _ in range(CLIENTS):
            group.start_soon(one)
        await all_warm.wait()
        deadline = time.perf_counter() + SECONDS
        go.set()
    return calls


async def _measure(servers: dict[str, _Server]) -> dict[str, dict[str, list[float]]]:
    for server in servers.values():
        await server.ready()
    samples: dict[str, dict[str, list[float]]] = {side: {"rate": [], "cpu": []} for side in servers}
    for round_ in range(ROUNDS):
        order = list(servers) if round_ % 2 == 0 else list(reversed(servers))
        for side in order:
            server = servers[side]
            before = _cpu_seconds(server.process.pid)
            calls = await _load(server.url)
            cpu = _cpu_seconds(server.process.pid) - before
            samples[side]["rate"].append(calls / SECONDS)
            samples[side]["cpu"].append(cpu / max(calls, 1))
    return samples


def main() -> dict[str, float]:
    try:
        import mcp  # noqa: F401
    except ImportError as exc:
        print(f"skipped: {exc}")
        return {}
    servers = {side: _Server(side) for side in ("ours", "bare")}
    try:
        samples = anyio.run(_measure, servers)
    finally:
        for server in servers.values():
            server.stop()
    rate = {side: statistics.median(s["rate"]) for side, s in samples.items()}
    cpu = {side: statistics.median(s["cpu"]) * 1000 for side, s in samples.items()}
    print(f"MCP streamable HTTP, {CLIENTS} clients, {ROUNDS} rounds of {SECONDS:g} s a side (medians)")
    for side in samples:
        print(f"{side:<6}{rate[side]:>9.0f} calls/s{cpu[side]:>9.3f} ms server CPU a call")
    print(f"bare / ours calls/s {rate['bare'] / rate['ours']:.2f}x; server CPU ours / bare "
          f"{cpu['ours'] / cpu['bare']:.2f}x")  # fmt: skip
    return {
        "mcp_http.clients": float(CLIENTS),
        "mcp_http.ours_calls_per_s": round(rate["ours"], 1),
        "mcp_http.bare_calls_per_s": round(rate["bare"], 1),
        "mcp_http.ours_server_cpu_ms": round(cpu["ours"], 4),
        "mcp_http.bare_server_cpu_ms": round(cpu["bare"], 4),
        "mcp_http.throughput_ratio": round(rate["bare"] / rate["ours"], 3),
        "mcp_http.server_cpu_ratio": round(cpu["ours"] / cpu["bare"], 3),
    }


if __name__ == "__main__":
    if "--serve" in sys.argv:
        anyio.run(
            _serve, sys.argv[sys.argv.index("--serve") + 1], int(sys.argv[sys.argv.index("--port") + 1])
        )
    else:
        main()
