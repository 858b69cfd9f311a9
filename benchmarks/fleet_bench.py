"""Fleet benchmark: 8 worker processes ask the same question while the primary hangs.

The primary (``primary_api.search``) is a real loopback HTTP server that accepts every request
and never answers, so each attempt costs the client's whole timeout (0.5 s) before it raises
InvocationUnavailableError; a same-provider fallback (``mirror_api.search``, in-process)
answers at once. Every worker process runs its own SchemaRouter (cooldown fixed at 2 s,
no growth) and asks every 0.25-0.75 s for 8 s. We count the failed waits, the questions that
paid the primary's timeout, across the fleet:

* ``memory``: each router learns about the outage on its own: about one failed wait per
  router per cooldown window.
* ``redis grace=0``: the first router to fail shares the mark, the others skip the primary; when
  the shared cooldown ends, every router that asks during the next failed wait pays it too.
* ``redis grace=1.5``: as above with ``peer_grace_seconds=1.5`` (the store's default is 5 s,
  sized for real cooldowns of 30 s and more; this benchmark's cooldown is 2 s): routers that did not
  record the mark keep it 1.5 s longer, so the recording router retries first and the fleet
  pays about one failed wait per window.

Starts its own redis-server on a free port (tests/servers/redis_server.py); without the
binary the Redis rows are skipped. Run: ``.venv/bin/python benchmarks/fleet_bench.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORKERS = 8
CLIENT_TIMEOUT = 0.5
COOLDOWN = 2.0
RUN_SECONDS = 8.0
ASK_EVERY = (0.25, 0.75)
DISCOVERY_SECONDS = 1.0
CONFIGS: list[tuple[str, str, float]] = [
    ("memory", "memory", 0.0),
    ("redis grace=0", "redis", 0.0),
    ("redis grace=1.5", "redis", 1.5),
]


# -- the hanging primary ------------------------------------------------------------------
class _Hang(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        server: HangingServer = self.server  # type: ignore[assignment]
        server.count()
        self.request.settimeout(30)
        try:
            while self.request.recv(4096):  # read the request, then wait for the client to give up
                pass
        except OSError:
            pass


class HangingServer(socketserver.ThreadingTCPServer):
    """An HTTP endpoint that never answers: each request costs the client its timeout."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Hang)
        self.requests = 0
        self._lock = threading.Lock()
        self.url = f"http://127.0.0.1:{self.server_address[1]}/search"

    def count(self) -> None:
        with self._lock:
            self.requests += 1

    def __enter__(self) -> HangingServer:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


# -- one worker process ------------------------------------------------------------------
async def _worker(args: argparse.Namespace) -> dict[str, Any]:
    import anyio
    import anyio.to_thread
    import httpx

    from schemarouter_integrations import (
        CooldownPolicy,
        EndpointSpec,
        FieldSpec,
        InvocationUnavailableError,
        PlanRequest,
        SchemaRouter,
        ToolSpec,
    )
    from schemarouter_integrations.stores import AvailabilityStore, RedisAvailabilityStore

    def spec(name: str) -> ToolSpec:
        fields = [FieldSpec(name="band_gap", aliases=["band gap"]), FieldSpec(name="formula")]
        schema = {"type": "object", "properties": {"formula": {"type": "string"}}}
        endpoint = EndpointSpec(
            name="search", fields=fields, read_only=True, input_schema=schema, records_path=["data"]
        )
        return ToolSpec(name=name, provider="acme", access_mode="openapi", endpoints=[endpoint])

    client = httpx.AsyncClient(timeout=CLIENT_TIMEOUT)

    async def primary(call: Any) -> Any:
        try:
            response = await client.get(args.hang_url, params=call.arguments)
        except httpx.HTTPError as exc:
            raise InvocationUnavailableError(f"{type(exc).__name__} after {CLIENT_TIMEOUT}s") from exc
        return response.json()

    async def mirror(call: Any) -> Any:
        return {"data": [{"formula": "Si", "band_gap": 0.61}]}

    store: AvailabilityStore | None = None
    if args.store == "redis":
        store = RedisAvailabilityStore(args.redis_url, args.namespace, peer_grace_seconds=args.grace)
    router = SchemaRouter(
        cooldown=CooldownPolicy(base_seconds=COOLDOWN, max_seconds=COOLDOWN), availability_store=store
    )
    router.register(spec("primary_api"), primary)
    router.register(spec("mirror_api"), mirror)
    request = PlanRequest(
        query="Si band gap",
        arguments={"formula": "Si"},
        preferred_tools=("primary_api",),
        fallback_scope="same_provider",
    )
    rng = random.Random(args.seed)
    latencies: list[float] = []
    failed_at: list[float] = []
    async with router:
        print(json.dumps({"ready": True}), flush=True)
        go = float(await anyio.to_thread.run_sync(sys.stdin.readline))  # the fleet's start (wall clock)
        deadline = time.monotonic() + RUN_SECONDS
        while time.monotonic() < deadline:
            started = time.perf_counter()
            result = await router.invoke(request)
            latencies.append(time.perf_counter() - started)
            if result.route[0] == "primary_api.search" and len(result.route) > 1:
                failed_at.append(time.time() - go)
            await anyio.sleep(rng.uniform(*ASK_EVERY))
    await client.aclose()
    return {"questions": len(latencies), "failed_at": failed_at, "latencies": latencies}


# -- the fleet ---------------------------------------------------------------------------
def _worker_env() -> dict[str, str]:
    """Share one bytecode cache between the workers, so 8 processes do not each compile the
    package (PYTHONDONTWRITEBYTECODE would otherwise make every start pay for it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "schemarouter-bench-pycache")
    return env


def _warm_up(env: dict[str, str]) -> None:
    warm = "import httpx, redis.asyncio, schemarouter_integrations, schemarouter_integrations.stores._redis"
    subprocess.run([sys.executable, "-c", warm], cwd=ROOT, env=env, check=True)


def _spawn(
    store: str, grace: float, hang_url: str, redis_url: str, env: dict[str, str]
) -> list[subprocess.Popen[str]]:
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    return [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                "--store",
                store,
                "--grace",
                str(grace),
                "--hang-url",
                hang_url,
                "--redis-url",
                redis_url,
                "--namespace",
                namespace,
                "--seed",
                str(i),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        for i in range(WORKERS)
    ]


def _run_fleets(fleets: dict[str, list[subprocess.Popen[str]]]) -> dict[str, dict[str, Any]]:
    """Start every fleet's questions at the same moment; collect what each worker saw."""
    procs = [proc for fleet in fleets.values() for proc in fleet]
    try:
        for proc in procs:
            assert proc.stdout is not None
            if not json.loads(proc.stdout.readline() or "{}").get("ready"):
                raise RuntimeError("a worker did not start")
        go = time.time() + 0.2
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(f"{go}\n")
            proc.stdin.flush()
        outputs = {id(proc): json.loads(proc.communicate(timeout=RUN_SECONDS + 60)[0]) for proc in procs}
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    return {label: _summary([outputs[id(p)] for p in fleet]) for label, fleet in fleets.items()}


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    latencies = [x for r in results for x in r["latencies"]]
    failed_at = [t for r in results for t in r["failed_at"]]
    discovery = sum(1 for t in failed_at if t < DISCOVERY_SECONDS)
    return {
        "questions": len(latencies),
        "failed_waits": len(failed_at),
        "discovery": discovery,
        "later": len(failed_at) - discovery,
        "per_worker": [len(r["failed_at"]) for r in results],
        "median_ms": statistics.median(latencies) * 1000,
        "p95_ms": statistics.quantiles(latencies, n=20)[-1] * 1000,
    }


def _free_port_redis() -> Any:
    from tests.servers.redis_server import RedisServer

    return RedisServer().start()


def main() -> dict[str, float]:
    have_redis = shutil.which("redis-server") is not None
    later_windows = (RUN_SECONDS - DISCOVERY_SECONDS) / (COOLDOWN + CLIENT_TIMEOUT)
    env = _worker_env()
    _warm_up(env)
    redis = _free_port_redis() if have_redis else None
    servers = {label: HangingServer() for label, _, _ in CONFIGS}
    try:
        for server in servers.values():
            server.__enter__()
        fleets = {}
        for label, store, grace in CONFIGS:
            if store == "redis" and redis is None:
                print(f"{label}: skipped (redis-server is not installed)")
                continue
            fleets[label] = _spawn(store, grace, servers[label].url, redis.url if redis else "", env)
        runs = _run_fleets(fleets)
    finally:
        for server in servers.values():
            server.__exit__()
        if redis is not None:
            redis.close()
    print(
        f"{WORKERS} worker processes per fleet, fleets run side by side; the primary hangs until the "
        f"{CLIENT_TIMEOUT}s client timeout; cooldown {COOLDOWN}s (no growth); {RUN_SECONDS}s of questions, "
        f"one every {ASK_EVERY[0]}-{ASK_EVERY[1]}s per worker.\n"
        f"'discovery' = failed waits in the first {DISCOVERY_SECONDS}s, before anyone knew; "
        f"'later' = after it, about {later_windows:.1f} cooldown windows."
    )
    header = (
        f"{'store':<16} {'questions':>9} {'failed':>6} {'discovery':>9} {'later':>5} {'later/window':>12} "
        f"{'median ms':>9} {'p95 ms':>7}  failed per worker"
    )
    print(header)
    print("-" * len(header))
    results: dict[str, float] = {}
    for label, run in runs.items():
        seen = servers[label].requests
        print(
            f"{label:<16} {run['questions']:>9} {run['failed_waits']:>6} {run['discovery']:>9} "
            f"{run['later']:>5} {run['later'] / later_windows:>12.1f} "
            f"{run['median_ms']:>9.1f} {run['p95_ms']:>7.1f}  "
            f"{run['per_worker']} (server saw {seen})"
        )
        key = label.replace("+", "_")
        results[f"fleet.{key}.failed_waits"] = run["failed_waits"]
        results[f"fleet.{key}.later_failed_waits_per_window"] = round(run["later"] / later_windows, 2)
        results[f"fleet.{key}.median_ms"] = round(run["median_ms"], 3)
    return results


def _parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--store", default="memory")
    parser.add_argument("--grace", type=float, default=0.0)
    parser.add_argument("--hang-url", default="")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--namespace", default="bench")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


if __name__ == "__main__":
    options = _parse()
    if options.worker:
        import anyio

        print(json.dumps(anyio.run(_worker, options)), flush=True)
    else:
        main()
