"""Registration of real OpenAPI documents beside the tools users would pick for the same job.

Three real documents (Spotify's 88 operations from the evaluation corpus, Stripe's 588 and
GitHub's 1,078 from ``.cache/documents/``, see ``tests/support/documents.py``), each read from
a local JSON file and registered by:

- the router: ``add_url(<file>, kind="openapi")`` (reads, parses, builds the contract);
- ``fastmcp`` 4.2.3: ``FastMCP.from_openapi`` on the parsed document, then ``list_tools``;
- LangChain: ``OpenAPISpec.from_spec_dict`` and ``openapi_spec_to_openai_fn`` (a function per
  operation, what its OpenAPI chain and agents call).

The peers run in their own venv (``benchmarks/.peers-venv``, :mod:`benchmarks.peers`), one
subprocess per document and peer, timing inside the process with their modules imported first
(the router's runs follow one warm-up run, its lazy imports included there). Medians of wall
and CPU seconds per run; the target, the router at least 1.5x faster than
``FastMCP.from_openapi`` on each document it accepts, is judged on CPU seconds, which load from
other work on the machine moves far less than wall time. A peer that raises on a document
refuses it: the table lists why.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PEERS = ("fastmcp", "langchain")
TARGET_SPEEDUP = 1.5


def documents() -> dict[str, Path]:
    from tests.support.documents import real_documents

    found = real_documents()
    return {
        "spotify (88 operations)": ROOT / "benchmarks" / "eval" / "corpus" / "spotify" / "openapi.json",
        "stripe (588 operations)": found["stripe.json"],
        "github (1,078 operations)": found["github.json"],
    }


def ours(path: Path, repeats: int) -> dict[str, Any]:
    """The router's registration of the file at *path*: medians after one warm-up."""
    from benchmarks.registration_bench import _forget_checked_schemas
    from schemarouter_integrations import SchemaRouter

    counts: list[int] = []

    async def register() -> None:
        async with SchemaRouter() as router:
            spec = await router.add_url(
                str(path), kind="openapi", name="bench", base_url="http://127.0.0.1:9"
            )
            counts.append(len(spec.endpoints))

    wall: list[float] = []
    cpu: list[float] = []
    for index in range(repeats + 1):
        _forget_checked_schemas()  # each run pays what a first registration in a process pays
        start, start_cpu = time.perf_counter(), time.process_time()
        asyncio.run(register())
        if index:
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    return {"wall": wall, "cpu": cpu, "tools": counts[-1]}


def peer(python: Path, name: str, path: Path, repeats: int) -> dict[str, Any]:
    """*name*'s registration of *path*, in the peers' venv."""
    script = ROOT / "benchmarks" / "peers" / "peer_side.py"
    done = subprocess.run(
        [str(python), "-E", "-s", str(script), name, str(path), str(repeats)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:]
        return {"refused": f"exit {done.returncode}: {' '.join(tail)[:200]}"}
    outcome: dict[str, Any] = json.loads(lines[-1])
    return outcome


def main() -> dict[str, Any]:
    from benchmarks.peers.environment import PeersUnavailable, peers_python

    repeats = int(os.environ.get("SCHEMAROUTER_PEER_REPEATS", "1"))
    try:
        python: Path | None = peers_python(create=False)
    except PeersUnavailable as exc:
        print(f"peer rows skipped: {exc} (make peers-venv)")
        python = None
    results: dict[str, Any] = {}
    rows: list[tuple[str, str, dict[str, Any]]] = []
    for document, path in documents().items():
        rows.append((document, "schemarouter", ours(path, repeats)))
        for name in PEERS if python is not None else ():
            rows.append((document, name, peer(python, name, path, repeats)))
    print(f"registration of real documents, median of {repeats} run(s) (load {os.getloadavg()[0]:.1f})")
    print(f"{'document':<28}{'who':<14}{'wall s':>9}{'CPU s':>9}{'tools':>7}   vs fastmcp (CPU)")
    mine: dict[str, float] = {}
    for document, who, outcome in rows:
        key = document.split(" ")[0]
        if "refused" in outcome:
            print(f"{document:<28}{who:<14}  refuses it: {outcome['refused']}")
            results[f"peer_registration {key} {who} refused"] = outcome["refused"]
            continue
        wall, cpu = statistics.median(outcome["wall"]), statistics.median(outcome["cpu"])
        results[f"peer_registration {key} {who} s"] = wall
        results[f"peer_registration {key} {who} cpu_s"] = cpu
        verdict = ""
        if who == "schemarouter":
            mine[key] = cpu
        elif who == "fastmcp" and mine.get(key):
            speedup = cpu / mine[key]
            results[f"peer_registration {key} speedup_vs_fastmcp"] = speedup
            ok = "ok" if speedup >= TARGET_SPEEDUP else "MISSED"
            verdict = f"   ours {speedup:.2f}x faster: {ok} (target >= {TARGET_SPEEDUP}x)"
        print(f"{document:<28}{who:<14}{wall:>9.3f}{cpu:>9.3f}{outcome['tools']:>7}{verdict}")
    return results


if __name__ == "__main__":
    main()
