"""Fleet benchmark: 8 worker processes ask the same question while the primary hangs.

The primary (``primary_api.search``) is a real loopback HTTP server that accepts every request
and never answers (``benchmarks/_loopback.py``), so each attempt costs the client its whole
timeout (0.5 s) before it raises InvocationUnavailableError; a same-provider fallback
(``mirror_api.search``, in-process) answers at once. Every worker process runs its own
SchemaRouter (cooldown fixed at 2 s, no growth) and asks every 0.25-0.75 s for 8 s. Counted
across the fleet, per second of the run:

* a *failed wait*: a question that paid the primary's whole timeout before it was answered;
* a *slow answer*: a question answered later than ``HEDGE_AFTER + 50 ms`` (0.1 s); without
  hedging every failed wait is one, with hedging the fallback starts after ``HEDGE_AFTER``.

Configurations (all fleets run side by side, each against its own hanging server):

* ``memory``: each router learns about the outage on its own: about one failed wait per
  router per cooldown window.
* ``redis grace=0``: the first router to fail shares the mark, the others skip the primary; when
  the shared cooldown ends, every router that asks during the next failed wait pays it too.
* ``redis grace=1.5``: as above with ``peer_grace_seconds=1.5`` (the store's default is 5 s,
  sized for real cooldowns of 30 s and more; this benchmark's cooldown is 2 s): routers that did not
  record the mark keep it 1.5 s longer, so the recording router retries first and the fleet
  pays about one failed wait per window.
* ``... hedged``: the same with ``PlanRequest(hedge=HedgePolicy(after_seconds=0.05))``; run
  only when ``HedgePolicy`` is importable.

Starts its own redis-server on a free port (tests/servers/redis_server.py); without the
binary the Redis rows are skipped. Run: ``.venv/bin/python benchmarks/fleet_bench.py``.
"""

from __future__ import annotations

import multiprocessing
import random
import shutil
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._loopback import HangingServer, LoopbackServer  # noqa: E402

WORKERS = 8
CLIENT_TIMEOUT = 0.5
COOLDOWN = 2.0
RUN_SECONDS = 8.0
REPEATS = 3
ASK_EVERY = (0.25, 0.75)
DISCOVERY_SECONDS = 1.0
HEDGE_AFTER = 0.05
SLOW_AFTER = HEDGE_AFTER + 0.05
FAILED_AFTER = 0.95 * CLIENT_TIMEOUT  # a timer may fire a hair early; nothing else takes this long
# label, store, peer grace seconds, hedged
CONFIGS: list[tuple[str, str, float, bool]] = [
    ("memory", "memory", 0.0, False),
    ("memory hedged", "memory", 0.0, True),
    ("redis grace=0", "redis", 0.0, False),
    ("redis grace=1.5", "redis", 1.5, False),
    ("redis grace=1.5 hedged", "redis", 1.5, True),
]


def hedging_available() -> bool:
    """Whether the package exports ``HedgePolicy`` yet."""
    import schemarouter_integrations

    return hasattr(schemarouter_integrations, "HedgePolicy")


# -- one worker process ------------------------------------------------------------------
@dataclass(frozen=True)
class Worker:
    """What one worker process needs to know."""

    store: str
    grace: float
    hedge: bool
    hang_url: str
    redis_url: str
    namespace: str
    seed: int


def _spec(name: str) -> Any:
    import schemarouter_integrations as sr

    fields = [sr.FieldSpec(name="band_gap", aliases=["band gap"]), sr.FieldSpec(name="formula")]
    schema = {"type": "object", "properties": {"formula": {"type": "string"}}}
    endpoint = sr.EndpointSpec(
        name="search", fields=fields, read_only=True, input_schema=schema, records_path=["data"]
    )
    return sr.ToolSpec(name=name, provider="acme", access_mode="openapi", endpoints=[endpoint])


async def _one_run(args: Worker, conn: Connection, repeat: int) -> list[tuple[float, float, bool]]:
    """One repeat in this worker: a fresh client, store and router; questions for RUN_SECONDS."""
    import anyio
    import anyio.to_thread
    import httpx

    import schemarouter_integrations as sr
    from schemarouter_integrations.stores import AvailabilityStore, RedisAvailabilityStore

    client = httpx.AsyncClient(timeout=CLIENT_TIMEOUT)

    async def primary(call: Any) -> Any:
        try:
            response = await client.get(args.hang_url, params=call.arguments)
        except httpx.HTTPError as exc:
            raise sr.InvocationUnavailableError(f"{type(exc).__name__} after {CLIENT_TIMEOUT}s") from exc
        return response.json()

    async def mirror(call: Any) -> Any:
        return {"data": [{"formula": "Si", "band_gap": 0.61}]}

    store: AvailabilityStore | None = None
    if args.store == "redis":
        namespace = f"{args.namespace}-{repeat}"
        store = RedisAvailabilityStore(args.redis_url, namespace, peer_grace_seconds=args.grace)
    router = sr.SchemaRouter(
        cooldown=sr.CooldownPolicy(base_seconds=COOLDOWN, max_seconds=COOLDOWN), availability_store=store
    )
    router.register(_spec("primary_api"), primary)
    router.register(_spec("mirror_api"), mirror)
    hedge = {"hedge": sr.HedgePolicy(after_seconds=HEDGE_AFTER)} if args.hedge else {}  # type: ignore[attr-defined,unused-ignore]
    request = sr.PlanRequest(
        query="Si band gap",
        arguments={"formula": "Si"},
        preferred_tools=("primary_api",),
        fallback_scope="same_provider",
        **hedge,
    )
    rng = random.Random(args.seed * 1000 + repeat)
    asked: list[tuple[float, float, bool]] = []  # (seconds since the fleet's start, latency, primary tried)
    async with router:
        conn.send("ready")
        go: float = await anyio.to_thread.run_sync(conn.recv)  # the fleet's start (wall clock)
        await anyio.sleep(max(0.0, go - time.time()))
        deadline = time.monotonic() + RUN_SECONDS
        while time.monotonic() < deadline:
            at = time.time() - go
            started = time.perf_counter()
            result = await router.invoke(request)
            latency = time.perf_counter() - started
            asked.append((at, latency, "primary_api.search" in result.route))
            await anyio.sleep(rng.uniform(*ASK_EVERY))
    await client.aclose()
    return asked


def _worker(args: Worker, conn: Connection) -> None:
    """A worker process: REPEATS runs, each reported through *conn* as it ends."""
    import anyio

    async def runs() -> None:
        for repeat in range(REPEATS):
            conn.send(await _one_run(args, conn, repeat))

    anyio.run(runs)
    conn.close()


# -- the fleet ---------------------------------------------------------------------------
PRELOAD = ["anyio", "httpx", "redis.asyncio", "schemarouter_integrations", "schemarouter_integrations.stores"]


def _spawn(
    context: Any, config: tuple[str, str, float, bool], hang_url: str, redis_url: str
) -> list[tuple[Any, Connection]]:
    """WORKERS processes for *config*, forked from a server that imported the package once."""
    label, store, grace, hedged = config
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    workers = []
    for seed in range(WORKERS):
        ours, theirs = context.Pipe()
        args = Worker(store, grace, hedged, hang_url, redis_url, namespace, seed)
        process = context.Process(target=_worker, args=(args, theirs), name=f"{label} {seed}", daemon=True)
        process.start()
        theirs.close()
        workers.append((process, ours))
    return workers


def _run_fleets(
    fleets: dict[str, list[tuple[Any, Connection]]], servers: dict[str, LoopbackServer]
) -> dict[str, list[dict[str, Any]]]:
    """Start every fleet's questions at the same moment, REPEATS times; one summary per repeat."""
    conns = [conn for fleet in fleets.values() for _, conn in fleet]
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label in fleets}
    try:
        for _ in range(REPEATS):
            if any(conn.recv() != "ready" for conn in conns):
                raise RuntimeError("a worker did not start")
            before = {label: server.requests for label, server in servers.items()}
            go = time.time() + 0.2
            for conn in conns:
                conn.send(go)
            for label, fleet in fleets.items():
                run = summary([conn.recv() for _, conn in fleet])
                run["server_requests"] = servers[label].requests - before[label]
                runs[label].append(run)
        for fleet in fleets.values():
            for process, _ in fleet:
                process.join(timeout=30)
    finally:
        for fleet in fleets.values():
            for process, conn in fleet:
                conn.close()
                if process.is_alive():
                    process.kill()
    return runs


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each number the median across repeats (per second: per bin); the repeats' counts kept too."""
    out: dict[str, Any] = {"repeats": len(runs)}
    for key, value in runs[0].items():
        if isinstance(value, list) and key.endswith("per_second"):
            out[key] = [statistics.median(b) for b in zip(*(r[key] for r in runs), strict=True)]
        elif isinstance(value, int | float):
            out[key] = statistics.median(r[key] for r in runs)
    out["failed_waits_each_repeat"] = [r["failed_waits"] for r in runs]
    out["slow_answers_each_repeat"] = [r["slow_answers"] for r in runs]
    return out


def per_second(times: list[float]) -> list[int]:
    """How many of *times* (seconds since the start) fall in each whole second of the run."""
    counts = [0] * int(RUN_SECONDS)
    for t in times:
        counts[min(max(int(t), 0), len(counts) - 1)] += 1
    return counts


def summary(workers: list[list[tuple[float, float, bool]]]) -> dict[str, Any]:
    """The fleet's counts: failed waits (paid the timeout) and slow answers, in all and per second."""
    asked = [q for worker in workers for q in worker]
    latencies = [latency for _, latency, _ in asked]
    failed_at = [at for at, latency, _ in asked if latency >= FAILED_AFTER]
    slow_at = [at for at, latency, _ in asked if latency > SLOW_AFTER]
    discovery = sum(1 for t in failed_at if t < DISCOVERY_SECONDS)
    return {
        "questions": len(latencies),
        "failed_waits": len(failed_at),
        "slow_answers": len(slow_at),
        "primary_tried": sum(1 for *_, tried in asked if tried),
        "discovery": discovery,
        "later": len(failed_at) - discovery,
        "failed_per_second": per_second(failed_at),
        "slow_per_second": per_second(slow_at),
        "median_ms": statistics.median(latencies) * 1000,
        "p95_ms": statistics.quantiles(latencies, n=20)[-1] * 1000,
    }


def _free_port_redis() -> Any:
    from tests.servers.redis_server import RedisServer

    return RedisServer().start()


def _configs(have_redis: bool, have_hedge: bool) -> list[tuple[str, str, float, bool]]:
    chosen = []
    for config in CONFIGS:
        label, store, _, hedged = config
        if store == "redis" and not have_redis:
            print(f"{label}: skipped (redis-server is not installed)")
        elif hedged and not have_hedge:
            print(f"{label}: skipped (HedgePolicy is not importable from schemarouter_integrations yet)")
        else:
            chosen.append(config)
    return chosen


def main() -> dict[str, Any]:
    configs = _configs(shutil.which("redis-server") is not None, hedging_available())
    later_windows = (RUN_SECONDS - DISCOVERY_SECONDS) / (COOLDOWN + CLIENT_TIMEOUT)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    redis = _free_port_redis() if any(store == "redis" for _, store, _, _ in configs) else None
    servers = {config[0]: HangingServer() for config in configs}
    try:
        for server in servers.values():
            server.__enter__()
        fleets = {c[0]: _spawn(context, c, servers[c[0]].url, redis.url if redis else "") for c in configs}
        runs = {label: median_of(repeats) for label, repeats in _run_fleets(fleets, servers).items()}
    finally:
        for server in servers.values():
            server.__exit__()
        if redis is not None:
            redis.close()
    print(
        f"{WORKERS} worker processes per fleet, fleets run side by side; the primary hangs until the "
        f"{CLIENT_TIMEOUT}s client timeout; cooldown {COOLDOWN}s (no growth); {RUN_SECONDS}s of questions, "
        f"one every {ASK_EVERY[0]}-{ASK_EVERY[1]}s per worker; hedged: after {HEDGE_AFTER}s.\n"
        f"'failed' = paid the whole timeout; 'slow' = answered after more than {SLOW_AFTER:.2f}s; "
        f"'discovery' = failed waits in the first {DISCOVERY_SECONDS}s, before anyone knew; "
        f"'later' = after it, about {later_windows:.1f} cooldown windows. "
        f"Medians of {REPEATS} repeats (per second: per bin)."
    )
    header = (
        f"{'config':<24} {'questions':>9} {'failed':>6} {'slow':>5} {'discovery':>9} {'later':>5} "
        f"{'later/window':>12} {'median ms':>9} {'p95 ms':>7} {'server saw':>10}  failed per repeat"
    )
    print(header)
    print("-" * len(header))
    results: dict[str, Any] = {}
    for label, run in runs.items():
        run["later_per_window"] = round(run["later"] / later_windows, 2)
        print(
            f"{label:<24} {run['questions']:>9g} {run['failed_waits']:>6g} {run['slow_answers']:>5g} "
            f"{run['discovery']:>9g} {run['later']:>5g} {run['later_per_window']:>12.1f} "
            f"{run['median_ms']:>9.1f} {run['p95_ms']:>7.1f} {run['server_requests']:>10g}  "
            f"{run['failed_waits_each_repeat']}"
        )
        results[f"fleet.{label}.failed_waits"] = run["failed_waits"]
        results[f"fleet.{label}.later_failed_waits_per_window"] = run["later_per_window"]
        results[f"fleet.{label}.median_ms"] = round(run["median_ms"], 3)
    settings = {"workers": WORKERS, "client_timeout_s": CLIENT_TIMEOUT, "cooldown_s": COOLDOWN}
    settings |= {"run_s": RUN_SECONDS, "hedge_after_s": HEDGE_AFTER, "slow_after_s": SLOW_AFTER}
    settings |= {"repeats": REPEATS}
    results["fleet_timeline"] = {"settings": settings, "configs": runs}
    return results


if __name__ == "__main__":
    from benchmarks import fleet_bench  # the workers' code by its module name, not __main__

    fleet_bench.main()
