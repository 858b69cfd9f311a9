"""How long ``schemarouter-integrations serve-mcp`` over stdio takes to finish its handshake.

A host starts the server as a subprocess and waits for the ``initialize`` answer (pydantic-ai
and google-adk give up after 5 s by default). Each round starts the command on a small
landscape (one Python route), sends ``initialize`` and ``notifications/initialized`` and times
until ``tools/list`` answers; the median of :data:`REPEATS` rounds is printed, with the
heaviest imports of the start (``-X importtime``) as evidence. Target: under 1 s on a quiet
machine. Beside it, in the same rounds, a bare ``mcp`` SDK server with one tool over stdio
(:data:`BARE_SERVER`): the floor any server on this SDK pays (its import), so the ratio says
what the router adds.

    python benchmarks/stdio_handshake_bench.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 5
TARGET_SECONDS = 1.0
LANDSCAPE = f"""
python_path = ["{ROOT}"]

[tool]
name = "materials_lookup"

[routes.mp_python]
kind = "python"
function = "benchmarks.stdio_handshake_bench:band_gaps"
provider = "materials_project"
read_only = true
fields = ["band_gap", "material_id"]
"""


def band_gaps(formula: str) -> list[dict[str, object]]:
    """The landscape's one route: a plain function that imports nothing (so the start measured
    is the router's and the SDK's, not an application's)."""
    return [{"material_id": "mp-149", "band_gap": 0.61}] if formula == "Si" else []


MESSAGES = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


BARE_SERVER = """
from mcp.server import MCPServer

server = MCPServer("bare")


@server.tool()
def band_gap(formula: str) -> list[dict[str, object]]:
    return [{"material_id": "mp-149", "band_gap": 0.61}] if formula == "Si" else []


server.run("stdio")
"""
"""The bare SDK server of the side-by-side rounds (mcp 2.x)."""


def command(landscape: Path, *python_flags: str) -> list[str]:
    return [
        sys.executable,
        *python_flags,
        "-m",
        "schemarouter_integrations",
        "serve-mcp",
        "--config",
        str(landscape),
    ]


def handshake_seconds(landscape: Path, argv: list[str] | None = None) -> tuple[float, float]:
    """Seconds until the ``initialize`` answer and until the ``tools/list`` answer (of the
    router's ``serve-mcp`` on *landscape*, or of the command *argv*)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        argv or command(landscape),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write((json.dumps(MESSAGES[0]) + "\n").encode())
        process.stdin.flush()
        json.loads(process.stdout.readline())
        initialized = time.perf_counter() - started
        for message in MESSAGES[1:]:
            process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        assert answer.get("id") == 2 and "result" in answer, answer
        return initialized, time.perf_counter() - started
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def heaviest_imports(landscape: Path, count: int = 12) -> list[tuple[float, str]]:
    """The top-level imports of the start (until the handshake) that took longest, in ms."""
    process = subprocess.Popen(
        command(landscape, "-X", "importtime"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdin is not None
    _, stderr = process.communicate(b"".join((json.dumps(m) + "\n").encode() for m in MESSAGES), timeout=60)
    rows = []
    for line in stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line[len("import time:") :].split("|")
            if cumulative.strip().isdigit() and not name.startswith("  "):
                rows.append((int(cumulative) / 1000, name.strip()))
    return sorted(rows, reverse=True)[:count]


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Print the medians; return them for ``benchmarks/run_all.py`` (``mcp.stdio_*``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args([] if argv is None else argv)
    with tempfile.TemporaryDirectory() as folder:
        landscape = Path(folder) / "landscape.toml"
        landscape.write_text(LANDSCAPE)
        bare_script = Path(folder) / "bare_server.py"
        bare_script.write_text(BARE_SERVER)
        bare = [sys.executable, str(bare_script)]
        handshake_seconds(landscape)  # warm the file cache
        handshake_seconds(landscape, bare)
        rounds, bare_rounds = [], []
        for _ in range(args.repeats):  # alternated, so both see the same load
            rounds.append(handshake_seconds(landscape))
            bare_rounds.append(handshake_seconds(landscape, bare))
        initialize = statistics.median(r[0] for r in rounds)
        listed = statistics.median(r[1] for r in rounds)
        bare_listed = statistics.median(r[1] for r in bare_rounds)
        print(f"stdio handshake (initialize answered): median {initialize:.3f} s over {args.repeats} runs")
        print(f"stdio handshake + tools/list:          median {listed:.3f} s (target < {TARGET_SECONDS} s)")
        print(
            f"bare mcp SDK server, + tools/list:     median {bare_listed:.3f} s (ours / bare "
            f"{listed / bare_listed:.2f}x)"
        )
        print("heaviest top-level imports of the start (ms):")
        for milliseconds, name in heaviest_imports(landscape):
            print(f"  {milliseconds:8.1f}  {name}")
    return {
        "mcp.stdio_handshake_seconds": round(initialize, 3),
        "mcp.stdio_tools_listed_seconds": round(listed, 3),
        "mcp.stdio_bare_tools_listed_seconds": round(bare_listed, 3),
        "mcp.stdio_handshake_ratio": round(listed / bare_listed, 3),
    }


if __name__ == "__main__":
    main(sys.argv[1:])
