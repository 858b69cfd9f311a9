"""``router.gather`` against ``optimade.client.OptimadeClient`` over one local federation.

Five local databases, all real ``optimade.server.main:app`` subprocesses, each behind a
loopback switch (a raw-socket proxy) that forwards, hangs or rate-limits:

* three answer normally;
* one hangs (accepts, reads the request, never answers) until the client's timeout;
* one answers its first structures query with 429 and ``Retry-After: 1``, then normally.

The router registers all five with ``add_optimade_federation`` while they are healthy; then
the switches turn. Both clients ask every database for Si's band gap (the router through its
canonical field, the OPTIMADE client with each database's own property name in
``response_fields``), with a 2 s timeout per request. Measured for one run each, side by side:
time to results, databases whose answer was lost, and HTTP requests that reached the databases
(counted at the switch, the same way for both).
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from pathlib import Path

import anyio
import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schemarouter_integrations import PlanRequest, SchemaRouter  # noqa: E402
from tests.servers.fault_server import Exchange, FaultServer, Hang, Received, Reply  # noqa: E402
from tests.servers.optimade_federation import database_structures  # noqa: E402
from tests.servers.optimade_server import OptimadeServer, start_all  # noqa: E402

TIMEOUT = 2.0
QUESTION = PlanRequest(query="band gap", arguments={"formula": "Si"})
DATABASES = {  # name -> (prefix, provider property of the band gap)
    "oqmd": ("oqmd", "band_gap"),
    "gnome": ("gnome", "bandgap"),
    "alexandria": ("alexandria", "band_gap"),
    "hanging": ("mcloudarchive", "band_gap"),
    "limited": ("twodmatpedia", "band_gap"),
}


class Switch(FaultServer):
    """Forwards ``/<name>/...`` to its database, unless the name's mode says hang or 429."""

    def __init__(self, targets: dict[str, str]) -> None:
        super().__init__()
        self.targets = targets
        self.modes = dict.fromkeys(targets, "up")
        self.limited_once: set[str] = set()
        self._forward = httpx.Client(timeout=10)
        self._switch_lock = threading.Lock()

    def _answer(self, exchange: Exchange, request: Received) -> None:
        name = request.path.split("/")[1]
        mode = self.modes.get(name, "up")
        if mode == "hang":
            Hang().serve(exchange)
            return
        if mode == "429" and "/structures" in request.path and not request.path.endswith("/info/structures"):
            with self._switch_lock:
                first = name not in self.limited_once
                self.limited_once.add(name)
            if first:
                body = b'{"errors": [{"status": "429", "title": "Too Many Requests"}]}'
                Reply(429, {"content-type": "application/json", "retry-after": "1"}, body).serve(exchange)
                return
        upstream = self._forward.get(self.targets[name] + request.target[len(name) + 1 :])
        headers = {"content-type": upstream.headers.get("content-type", "application/json")}
        Reply(upstream.status_code, headers, upstream.content).serve(exchange)

    def stop(self) -> None:
        super().stop()
        self._forward.close()


def start() -> tuple[dict[str, OptimadeServer], Switch]:
    servers = {}
    for name, (prefix, wire) in DATABASES.items():
        fields = [{"name": wire, "type": "float", "unit": "eV", "description": "band gap (eV)"}]
        structures = database_structures(prefix, {"band_gap": wire}, 0.01 * len(servers))
        servers[name] = OptimadeServer(
            prefix=prefix, name=name, provider_fields=fields, structures=structures
        )
    start_all(list(servers.values()))
    switch = Switch({name: server.url for name, server in servers.items()}).start()
    return servers, switch


def received(switch: Switch) -> int:
    """Requests that reached the databases (every request of both clients passes the switch)."""
    with switch._lock:
        return len(switch._received)


async def gather(router: SchemaRouter, switch: Switch) -> tuple[float, int, int]:
    before = received(switch)
    started = time.perf_counter()
    gathered = await router.gather(QUESTION)
    elapsed = time.perf_counter() - started
    answered = {r.tool for r in gathered.results if any(rec.get("band_gap") is not None for rec in r.records)}
    return elapsed, 5 - len(answered), received(switch) - before


def optimade_client(urls: list[str], switch: Switch) -> tuple[float, int, int]:
    from optimade.client import OptimadeClient

    before = received(switch)
    fields = sorted({f"_{prefix}_{wire}" for prefix, wire in DATABASES.values()})
    client = OptimadeClient(base_urls=urls, http_timeout=TIMEOUT, silent=True, max_results_per_provider=20)
    started = time.perf_counter()
    results = client.get(filter='chemical_formula_reduced="Si"', response_fields=["id", *fields])
    elapsed = time.perf_counter() - started
    by_url = results.get("structures", {}).get('chemical_formula_reduced="Si"', {})
    answered = sum(
        1
        for outcome in by_url.values()
        if any(any(v is not None for v in e.get("attributes", {}).values()) for e in outcome.get("data", []))
    )
    return elapsed, 5 - answered, received(switch) - before


REPEATS = 3


def main() -> dict[str, object]:
    """Healthy and faulty federation, router and OptimadeClient alternating, medians of REPEATS."""
    servers, switch = start()
    samples: dict[tuple[str, str], list[tuple[float, int, int]]] = {}
    try:
        urls = [f"{switch.url}/{name}" for name in DATABASES]

        async def routed(faulty: bool) -> tuple[float, int, int]:
            async with SchemaRouter() as router:  # a new router each time: no cooldown carried over
                switch.modes.update(hanging="up", limited="up")
                report = await router.add_optimade_federation(urls, timeout_seconds=TIMEOUT, probes=False)
                assert len(report.registered) == 5, report
                if faulty:
                    switch.modes.update(hanging="hang", limited="429")
                return await gather(router, switch)

        for _ in range(REPEATS):
            for case in ("healthy", "faulty"):
                switch.limited_once.clear()
                samples.setdefault((case, "router.gather"), []).append(anyio.run(routed, case == "faulty"))
                switch.limited_once.clear()
                if case == "faulty":
                    switch.modes.update(hanging="hang", limited="429")
                else:
                    switch.modes.update(hanging="up", limited="up")
                samples.setdefault((case, "OptimadeClient.get"), []).append(optimade_client(urls, switch))
    finally:
        switch.stop()
        for server in servers.values():
            server.stop()
    print(f"{'case':<9}{'client':<22}{'time to results':>18}{'results lost':>15}{'requests sent':>16}")
    out: dict[str, object] = {}
    for (case, name), rows in samples.items():
        elapsed = statistics.median(r[0] for r in rows)
        lost = max(r[1] for r in rows)
        sent = statistics.median(r[2] for r in rows)
        print(f"{case:<9}{name:<22}{elapsed:>16.2f} s{lost:>15}{sent:>16}")
        key = f"federation.{name}" if case == "faulty" else f"federation.healthy.{name}"
        out[key] = {"seconds": round(elapsed, 3), "results_lost": lost, "requests": sent}
    for case in ("healthy", "faulty"):
        ours = statistics.median(r[0] for r in samples[(case, "router.gather")])
        peer = statistics.median(r[0] for r in samples[(case, "OptimadeClient.get")])
        out[f"federation.ratio.{case}"] = round(peer / ours, 3)
        print(f"{case}: OptimadeClient / router.gather = {peer / ours:.2f}x")
    return out


if __name__ == "__main__":
    main()
