"""The OPTIMADE federation: register every database of a list and gather one answer from all.

Runs offline: ``python cookbook/federation_gather.py``. Two OPTIMADE reference servers play
OQMD and Alexandria on loopback; ``router.add_optimade_federation([...base URLs])`` registers
both, and ``router.gather(request)`` asks every route that can answer and merges the records,
each with its ``provider`` and ``tool``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.services.optimade_server import ALEXANDRIA, OptimadeServer
from schemarouter_integrations import PlanRequest, SchemaRouter


async def main() -> None:
    servers = [OptimadeServer(), OptimadeServer(provider=ALEXANDRIA)]
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda server: server.start(), servers))
    try:
        async with SchemaRouter() as router:
            report = await router.add_optimade_federation([s.url for s in servers])
            print(f"registered: {report.registered}; skipped: {report.skipped}")
            request = PlanRequest(query="band gap", arguments={"formula": "Si"})
            gathered = await router.gather(request)
            for record in gathered.records:
                print(f"  {record['provider']:<12} {record['tool']:<28} band_gap={record.get('band_gap')}")
            print(f"Gathered {len(gathered.records)} record(s) from {len(gathered.results)} route(s)")
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    anyio.run(main)
