"""The fleet soak: worker processes sharing cooldowns through one real redis-server, with
random faults, while redis-server is killed with SIGKILL and started again on its port.

The script starts a throw-away redis-server on a free loopback port and the single-process
soak's fault server (``tests/support/soak.py``: one OpenAPI document whose answers fail at
random) on a loopback thread, then N worker processes. Each worker builds the soak's 20
routes (10 HTTP routes on the fault server, 10 Python callables failing at random, probes on
every fourth) on a router whose ``RedisAvailabilityStore`` shares cooldowns with the others,
runs its health monitor, and asks bursts of concurrent questions until the script says stop.

The script kills redis-server (SIGKILL) when the fleet is a third and two thirds of the way
(``--kills``), keeps it down until every worker has seen the store disconnect and finished a
burst without it, starts it again on the same port and waits for every worker to reconnect
before the next kill. It stops by itself: after ``--runs`` questions (all workers together)
and the kills, or at ``--max-seconds``, whichever comes first.

It prints what a person wants to know afterwards (runs, outcomes, faults served, the store's
reconnections as ``inspect().health.store`` showed them, marks seen from other workers, the
longest cooldown against ``max_seconds``, leaked tasks and memory per worker) and exits 1
when an invariant fails. ``python -m tests.support.fleet_soak`` (``make soak``) runs the long
one; ``tests/integration/test_fleet_soak.py`` runs a short one. Everything is loopback.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import multiprocessing
import random
import signal
import sys
import threading
import time
import traceback
import tracemalloc
import uuid
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for_messages
from typing import Any

# imported once by the fork server; every worker is forked from it with these loaded
PRELOAD = [
    "anyio",
    "httpx",
    "redis.asyncio",
    "schemarouter_integrations",
    "schemarouter_integrations.stores",
    "tests.support.soak",
]
WORKER_TAG = " (worker {index})"  # ends callable and probe failures: such a mark names its maker
SAMPLE_SECONDS = 0.02  # how often a worker reads its view (store status, marks)
RUN_BOUND_SECONDS = 60.0  # a single run that takes longer is counted as hung (an invariant)
TTL_TOLERANCE = 0.002  # TTLs are written rounded up to the millisecond
VIEW_TOLERANCE = 0.01  # TTL rounding plus the time between reading a TTL and the clock


@dataclass(frozen=True)
class FleetSoakConfig:
    """What to run: *runs* questions over the whole fleet, *kills* SIGKILLs of redis-server,
    everything within *max_seconds*."""

    workers: int = 4
    runs: int = 6000
    burst: int = 40
    kills: int = 2
    max_seconds: float = 240.0
    seed: int = 7
    base_seconds: float = 0.05
    cooldown_max_seconds: float = 0.4
    peer_grace_seconds: float = 0.1
    probe_interval_seconds: float = 0.1
    trace_memory: bool = False  # tracemalloc in every worker: says what Python holds, runs slower
    start_bound_seconds: float = 180.0  # workers import, register 20 routes and connect
    down_bound_seconds: float = 30.0  # a kill lasts until every worker noticed, at most this


@dataclass(frozen=True)
class WorkerArgs:
    index: int
    redis_url: str
    namespace: str
    base_url: str
    burst: int
    seed: int
    hard_deadline: float  # wall clock: the worker stops by itself then, whatever it is told
    base_seconds: float
    cooldown_max_seconds: float
    peer_grace_seconds: float
    probe_interval_seconds: float
    trace_memory: bool


# -- one worker process --------------------------------------------------------------------
def _memory() -> tuple[float, float]:
    """(RSS, memory traced by tracemalloc or 0.0) in MiB, after a full collection."""
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] / 2**20 if tracemalloc.is_tracing() else 0.0
    return _rss_mib(), traced


def _rss_mib() -> float:
    """The process's resident memory (Linux ``/proc``; elsewhere the peak from getrusage)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _LogTally(logging.Handler):
    """Counts the package's log records by logger and level; keeps the store's own lines."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.counts: Counter[str] = Counter()
        self.store_lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[f"{record.name} {record.levelname}"] += 1
        ours = record.name.endswith("stores.redis") and record.levelno >= logging.INFO
        if ours and len(self.store_lines) < 12:
            self.store_lines.append(f"{record.levelname}: {record.getMessage()}"[:240])


@dataclass
class _View:
    """What one worker's sampler saw: store connection changes and marks."""

    index: int
    connected: bool | None = None
    lost_at: float | None = None
    disconnects: int = 0
    reconnected_after: list[float] = field(default_factory=list)  # seconds away, each time
    errors_while_away: list[str] = field(default_factory=list)
    reconnects: int = 0
    peer_marks: set[tuple[str, str]] = field(default_factory=set)  # (path, maker)
    longest_own: tuple[float, str] = (0.0, "")
    longest_peer: tuple[float, str] = (0.0, "")
    longest_other: tuple[float, str] = (0.0, "")  # marks whose reason names no worker
    samples: int = 0


def _maker(reason: str | None) -> int | None:
    """The worker named at the end of a mark's reason (callable failures), else None."""
    if not reason or not reason.endswith(")") or "(worker " not in reason:
        return None
    try:
        return int(reason.rsplit("(worker ", 1)[1][:-1])
    except ValueError:
        return None


async def _sample(router: Any, view: _View, conn: Connection) -> None:
    """Every SAMPLE_SECONDS: the store's status (telling the script of every connection
    change at once) and every mark held, with its time left and who made it."""
    import anyio

    store = router.availability_store
    while True:
        status = router.inspect().health.store
        connected = bool(status.get("connected"))
        view.reconnects = int(status.get("reconnects") or 0)
        if connected != view.connected:
            now = time.monotonic()
            if view.connected and not connected:
                view.disconnects += 1
                view.lost_at = now
            elif connected and view.lost_at is not None:
                view.reconnected_after.append(now - view.lost_at)
                view.lost_at = None
            view.connected = connected
            conn.send(("store", {"connected": connected, "reconnects": view.reconnects}))
        if not connected and status.get("last_error"):
            error = str(status["last_error"])
            if error not in view.errors_while_away and len(view.errors_while_away) < 4:
                view.errors_while_away.append(error)
        now = router.clock()
        for path, mark in store.active().items():
            left = mark.until - now
            maker = _maker(mark.reason)
            if maker is None:
                view.longest_other = max(view.longest_other, (left, path))
            elif maker == view.index:
                view.longest_own = max(view.longest_own, (left, path))
            else:
                view.longest_peer = max(view.longest_peer, (left, path))
                view.peer_marks.add((path, str(maker)))
        view.samples += 1
        await anyio.sleep(SAMPLE_SECONDS)


async def _worker_main(args: WorkerArgs, conn: Connection) -> dict[str, Any]:
    import asyncio

    import anyio
    import anyio.lowlevel
    import anyio.to_thread

    from schemarouter_integrations import CooldownPolicy, SchemaRouter
    from schemarouter_integrations.events import RouterEvent, RouteUnavailableEvent
    from schemarouter_integrations.stores import RedisAvailabilityStore
    from tests.support.soak import SoakReport, _build, _one, _request

    tally = _LogTally()
    package_log = logging.getLogger("schemarouter_integrations")
    package_log.addHandler(tally)
    package_log.setLevel(logging.INFO)
    package_log.propagate = False  # counted, not printed: the script prints the summary

    report = SoakReport()
    view = _View(args.index)
    decided: list[tuple[float, str]] = [(0.0, "")]
    hung = 0
    rng = random.Random(args.seed)
    tasks_before = len(asyncio.all_tasks())
    memory_start = memory_end = (0.0, 0.0)  # (RSS, tracemalloc) in MiB
    bursts = 0
    if args.trace_memory:
        tracemalloc.start()
    stopped_by = "the script"

    def on_event(event: RouterEvent) -> None:
        if isinstance(event, RouteUnavailableEvent):
            decided[0] = max(decided[0], (event.cooldown_seconds, event.access_path))

    async def bounded_run(router: Any, request: Any) -> None:
        nonlocal hung
        with anyio.move_on_after(RUN_BOUND_SECONDS) as scope:
            await _one(router, request, report)
        if scope.cancelled_caught:
            hung += 1
            report.runs += 1

    store = RedisAvailabilityStore(
        args.redis_url,
        args.namespace,
        peer_grace_seconds=args.peer_grace_seconds,
        connect_timeout_seconds=1.0,
        reconnect_min_seconds=0.05,
        reconnect_max_seconds=0.5,
    )
    cooldown = CooldownPolicy(base_seconds=args.base_seconds, max_seconds=args.cooldown_max_seconds)
    router = SchemaRouter(cooldown=cooldown, availability_store=store)
    router.subscribe(on_event)
    async with router:
        tools = await _build(router, args.base_url, rng, report, tag=WORKER_TAG.format(index=args.index))
        await router.start_health_monitor(
            interval_seconds=args.probe_interval_seconds, probe_timeout_seconds=0.2
        )
        async with anyio.create_task_group() as group:
            group.start_soon(_sample, router, view, conn)
            conn.send(
                ("ready", {"pid": multiprocessing.current_process().pid, "instance": store.instance_id})
            )
            if await anyio.to_thread.run_sync(conn.recv) != "go":
                raise RuntimeError("expected 'go'")
            while True:
                async with anyio.create_task_group() as burst:
                    for _ in range(args.burst):
                        burst.start_soon(bounded_run, router, _request(rng, tools))
                bursts += 1
                if bursts == 2:  # warm: pools, thread workers, caches
                    memory_start = _memory()
                conn.send(("progress", {"runs": report.runs, "connected": view.connected}))
                told = [conn.recv() for _ in iter(conn.poll, False)]
                if "stop" in told:
                    break
                if time.time() > args.hard_deadline:
                    stopped_by = "its own deadline"
                    break
            memory_end = _memory()  # the router still open, as at the start
            # the traffic is over: wait (bounded) for the store to be back and written out
            with anyio.move_on_after(15):
                while not router.inspect().health.store.get("connected"):  # noqa: ASYNC110 - another process restarts Redis
                    await anyio.sleep(0.05)
            with anyio.move_on_after(5):
                await store.flush()
            final_store = router.inspect().health.store
            monitor = router._background.monitor
            probe_rounds = monitor.rounds if monitor is not None else 0
            group.cancel_scope.cancel()
        await router.stop_health_monitor()
    del router
    tracemalloc.stop()
    await anyio.lowlevel.checkpoint()
    leaked = len(asyncio.all_tasks()) - tasks_before
    return {
        "index": args.index,
        "runs": report.runs,
        "outcomes": dict(report.outcomes),
        "untyped": len(report.untyped),
        "untyped_examples": report.untyped[:5],
        "hung": hung,
        "callable_faults": dict(report.callable_faults),
        "probe_rounds": probe_rounds,
        "leaked_tasks": leaked,
        "memory_start": memory_start,
        "memory_end": memory_end,
        "decided": decided[0],
        "longest_own": view.longest_own,
        "longest_peer": view.longest_peer,
        "longest_other": view.longest_other,
        "peer_marks": sorted(view.peer_marks),
        "disconnects": view.disconnects,
        "reconnected_after": view.reconnected_after,
        "errors_while_away": view.errors_while_away,
        "store": final_store,
        "samples": view.samples,
        "log_counts": dict(tally.counts),
        "store_log": tally.store_lines,
        "stopped_by": stopped_by,
    }


def _worker(args: WorkerArgs, conn: Connection) -> None:
    """A worker process: one router; reports through *conn*; never outlives the script."""
    import anyio

    try:
        result = anyio.run(_worker_main, args, conn)
        conn.send(("final", result))
    except BaseException as exc:
        if _script_gone(exc):  # the pipe closed: the script went away, stop quietly
            return
        with contextlib.suppress(OSError):
            conn.send(("error", traceback.format_exc()))
        raise SystemExit(1) from None
    finally:
        conn.close()


def _script_gone(exc: BaseException) -> bool:
    """Whether *exc* (or every leaf of an exception group) says the pipe to the script closed."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_script_gone(inner) for inner in exc.exceptions)
    return isinstance(exc, EOFError | BrokenPipeError | ConnectionResetError)


# -- the longest TTL in Redis, read by the script itself ---------------------------------
class RedisTtlWatch:
    """Reads every mark's TTL in the namespace every 50 ms (tombstones aside): what the whole
    fleet holds, independent of any worker. Rides out the kills."""

    def __init__(self, host: str, port: int, namespace: str) -> None:
        self._host, self._port = host, port
        self._prefix = f"{namespace}:cooldown:"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="redis-ttl-watch", daemon=True)
        self.longest: tuple[float, str] = (0.0, "")
        self.reads = 0
        self.marks_seen = 0
        self.makers: set[str] = set()

    def start(self) -> RedisTtlWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        import redis

        client = redis.Redis(
            host=self._host,
            port=self._port,
            socket_timeout=0.5,
            socket_connect_timeout=0.5,
            decode_responses=True,
        )
        try:
            while not self._stop.wait(0.05):
                with contextlib.suppress(redis.RedisError, OSError):
                    self._read(client)
        finally:
            client.close()

    def _read(self, client: Any) -> None:
        keys = list(client.scan_iter(match=self._prefix + "*", count=500))
        if not keys:
            self.reads += 1
            return
        pipe = client.pipeline(transaction=False)
        for key in keys:
            pipe.get(key)
            pipe.pttl(key)
        replies = pipe.execute()
        for key, value, ttl in zip(keys, replies[0::2], replies[1::2], strict=True):
            try:
                data = json.loads(value)
            except (TypeError, ValueError):
                continue
            if not isinstance(data, dict) or data.get("cleared") or not isinstance(ttl, int) or ttl < 0:
                continue
            self.marks_seen += 1
            self.makers.add(str(data.get("origin")))
            self.longest = max(self.longest, (ttl / 1000, key[len(self._prefix) :]))
        self.reads += 1


# -- the script ----------------------------------------------------------------------------
@dataclass
class Kill:
    at_runs: int
    at_seconds: float
    down_seconds: float = 0.0
    noticed_by: int = 0
    all_back_after: float | None = None  # seconds from the restart until every worker reconnected
    back_after: dict[int, float] = field(default_factory=dict)  # each worker's, as its message arrived


@dataclass
class FleetReport:
    config: FleetSoakConfig
    redis: str = ""
    namespace: str = ""
    seconds: float = 0.0
    stopped: str = ""
    workers: list[dict[str, Any]] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)
    http_faults: Counter[str] = field(default_factory=Counter)
    redis_longest_ttl: tuple[float, str] = (0.0, "")
    redis_reads: int = 0
    redis_makers: int = 0
    problems: list[str] = field(default_factory=list)  # the script's own (a worker crashed, ...)

    # -- totals -------------------------------------------------------------------------
    @property
    def asked(self) -> int:
        return sum(w["runs"] for w in self.workers)

    @property
    def outcomes(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for worker in self.workers:
            total.update(worker["outcomes"])
        return total

    @property
    def answered(self) -> int:
        return self.outcomes["answered"]

    @property
    def typed_errors(self) -> dict[str, int]:
        return {k: v for k, v in sorted(self.outcomes.items()) if k not in ("answered", "odd")}

    @property
    def untyped(self) -> int:
        return sum(w["untyped"] for w in self.workers)

    @property
    def hung(self) -> int:
        return sum(w["hung"] for w in self.workers)

    @property
    def callable_faults(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for worker in self.workers:
            total.update(worker["callable_faults"])
        return total

    @property
    def peer_marks_seen(self) -> int:
        return sum(len(w["peer_marks"]) for w in self.workers)

    @property
    def workers_that_saw_a_peer_mark(self) -> int:
        return sum(1 for w in self.workers if w["peer_marks"])

    @property
    def longest_decided(self) -> tuple[float, str]:
        return max((tuple(w["decided"]) for w in self.workers), default=(0.0, ""))  # type: ignore[return-value]

    def longest_held(self, key: str) -> tuple[float, str]:
        return max((tuple(w[key]) for w in self.workers), default=(0.0, ""))  # type: ignore[return-value]

    # -- the invariants -------------------------------------------------------------------
    def broken(self) -> list[str]:
        """Every invariant that failed, in words (empty: all held)."""
        c = self.config
        broken = list(self.problems)
        if len(self.workers) != c.workers:
            broken.append(f"{c.workers - len(self.workers)} worker(s) sent no final report")
        if self.untyped:
            examples = [e for w in self.workers for e in w["untyped_examples"]][:3]
            broken.append(f"{self.untyped} run(s) ended untyped: {examples}")
        if self.hung:
            broken.append(f"{self.hung} run(s) hung past {RUN_BOUND_SECONDS:.0f} s")
        if sum(self.outcomes.values()) + self.hung != self.asked:
            broken.append("some runs ended without an outcome")
        if self.outcomes["odd"]:
            broken.append(f"{self.outcomes['odd']} run(s) returned something other than a ToolResult")
        for w in self.workers:
            if w["leaked_tasks"]:
                broken.append(f"worker {w['index']} leaked {w['leaked_tasks']} task(s)")
            if not w["store"].get("connected"):
                broken.append(f"worker {w['index']}'s store was not connected at the end")
            if w["store"].get("pending_writes"):
                broken.append(
                    f"worker {w['index']} ended with {w['store']['pending_writes']} unwritten change(s)"
                )
            if w["store"].get("reconnects", 0) < len(self.kills):
                broken.append(f"worker {w['index']} reconnected fewer times than redis-server was killed")
        if len(self.kills) != c.kills:
            broken.append(f"redis-server was killed {len(self.kills)} time(s), not {c.kills}")
        for number, kill in enumerate(self.kills, 1):
            if kill.all_back_after is None:
                broken.append(f"not every worker reconnected after kill {number}")
        ttl, path = self.redis_longest_ttl
        if ttl > c.cooldown_max_seconds + TTL_TOLERANCE:
            broken.append(
                f"a mark lived {ttl:.3f} s in Redis ({path}), above max_seconds {c.cooldown_max_seconds}"
            )
        own, path = self.longest_held("longest_own")
        if own > c.cooldown_max_seconds + VIEW_TOLERANCE:
            broken.append(f"a worker held its own mark for {own:.3f} s ({path}), above max_seconds")
        for key in ("longest_peer", "longest_other"):
            held, path = self.longest_held(key)
            if held > c.cooldown_max_seconds + c.peer_grace_seconds + VIEW_TOLERANCE:
                broken.append(
                    f"a worker held a mark for {held:.3f} s ({path}), above max_seconds + peer grace"
                )
        decided, path = self.longest_decided
        if decided > c.cooldown_max_seconds + c.peer_grace_seconds + VIEW_TOLERANCE:
            broken.append(
                f"route.unavailable announced {decided:.3f} s ({path}), above max_seconds + peer grace"
            )
        if c.workers > 1 and not self.workers_that_saw_a_peer_mark:
            broken.append("no worker saw a mark another worker made (cooldowns not shared)")
        return broken

    def lines(self) -> list[str]:
        c = self.config
        out = [
            f"fleet soak: {c.workers} worker processes, 20 routes each, one redis-server ({self.redis}, "
            f"namespace {self.namespace}); cooldown base {c.base_seconds} s, max_seconds "
            f"{c.cooldown_max_seconds} s, peer grace {c.peer_grace_seconds} s; bursts of {c.burst} "
            "per worker",
            f"stopped: {self.stopped} after {self.seconds:.1f} s",
            f"runs: asked {self.asked} / answered {self.answered} / typed errors {self.typed_errors}; "
            f"untyped errors: {self.untyped}; hung: {self.hung}",
            f"faults served: http {dict(sorted(self.http_faults.items()))}; "
            f"callables {dict(sorted(self.callable_faults.items()))}",
        ]
        for number, kill in enumerate(self.kills, 1):
            each = "/".join(f"{kill.back_after[i]:.2f}" for i in sorted(kill.back_after))
            back = "never" if kill.all_back_after is None else f"{each} s after the restart"
            out.append(
                f"redis-server kill {number} (SIGKILL) at {kill.at_seconds:.1f} s / {kill.at_runs} runs: "
                f"noticed by {kill.noticed_by}/{c.workers} workers, down {kill.down_seconds:.2f} s, "
                f"restarted on the same port; every worker reconnected {back}"
            )
        out.append("per worker:")
        for w in self.workers:
            store = w["store"]
            away = ", ".join(f"{s:.2f}" for s in w["reconnected_after"]) or "-"
            out.append(
                f"  worker {w['index']}: asked {w['runs']}, answered {w['outcomes'].get('answered', 0)}, "
                f"untyped {w['untyped']}; leaked tasks {w['leaked_tasks']}; probe rounds {w['probe_rounds']}"
            )
            (rss0, traced0), (rss1, traced1) = w["memory_start"], w["memory_end"]
            traced = f"; tracemalloc {traced0:.2f} -> {traced1:.2f} MiB" if traced0 else ""
            out.append(
                f"    memory after warm-up (2 bursts) -> at the end: RSS {rss0:.1f} -> {rss1:.1f} MiB{traced}"
            )
            out.append(
                f"    store (inspect().health.store): connected={store.get('connected')} "
                f"reconnects={store.get('reconnects')} marks={store.get('marks')} "
                f"pending_writes={store.get('pending_writes')} last_error={store.get('last_error')!r}; "
                f"seen disconnected {w['disconnects']}x, away {away} s"
            )
            if w["errors_while_away"]:
                out.append(f"    last_error while away: {w['errors_while_away'][0]}")
            if w["store_log"]:
                out.append(f"    store log: {' | '.join(w['store_log'][:4])}")
            makers = sorted({m for _, m in w["peer_marks"]})
            out.append(
                f"    marks seen from other workers: {len(w['peer_marks'])} path/worker pairs "
                f"(workers {makers})"
            )
        ttl, ttl_path = self.redis_longest_ttl
        decided, decided_path = self.longest_decided
        own, own_path = self.longest_held("longest_own")
        peer, peer_path = self.longest_held("longest_peer")
        other, other_path = self.longest_held("longest_other")
        out += [
            f"marks shared: {self.workers_that_saw_a_peer_mark}/{c.workers} workers saw marks made by "
            f"another ({self.peer_marks_seen} path/worker pairs); Redis held marks of {self.redis_makers} "
            "stores",
            f"longest cooldown against max_seconds {c.cooldown_max_seconds} s (a peer's mark is held "
            f"{c.peer_grace_seconds} s longer):",
            f"  in Redis {ttl:.3f} s ({ttl_path or '-'}; {self.redis_reads} reads)",
            f"  held by a worker: own {own:.3f} s ({own_path or '-'}), a peer's {peer:.3f} s "
            f"({peer_path or '-'}), unattributed {other:.3f} s ({other_path or '-'})",
            f"  announced in route.unavailable: {decided:.3f} s ({decided_path or '-'})",
        ]
        broken = self.broken()
        out.append("invariants: " + ("all held" if not broken else "BROKEN"))
        out += [f"  - {problem}" for problem in broken]
        return out


class _Fleet:
    """The script's side of the workers: processes, pipes, what each one last said."""

    def __init__(self, config: FleetSoakConfig, context: Any) -> None:
        self.config = config
        self.context = context
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        self.runs: list[int] = []
        self.connected: list[bool | None] = []
        self.reconnects: list[int] = []
        self.bursts_since_lost: list[int] = []
        self.finals: dict[int, dict[str, Any]] = {}
        self.restarted_at: float | None = None
        self.back_after: dict[int, float] = {}
        self.ready: set[int] = set()
        self.problems: list[str] = []

    def spawn(self, args: list[WorkerArgs]) -> None:
        for worker in args:
            ours, theirs = self.context.Pipe()
            proc = self.context.Process(
                target=_worker, args=(worker, theirs), name=f"soak-worker-{worker.index}"
            )
            proc.daemon = True
            proc.start()
            theirs.close()
            self.procs.append(proc)
            self.conns.append(ours)
            self.runs.append(0)
            self.connected.append(None)
            self.reconnects.append(0)
            self.bursts_since_lost.append(0)

    def pump(self, timeout: float) -> None:
        """Read every message that arrives within *timeout*."""
        live = [c for i, c in enumerate(self.conns) if i not in self.finals and not c.closed]
        for conn in wait_for_messages(live, timeout=timeout):
            index = self.conns.index(conn)  # type: ignore[arg-type]
            try:
                kind, body = conn.recv()  # type: ignore[union-attr]
            except (EOFError, OSError):
                conn.close()  # type: ignore[union-attr]
                if index not in self.finals:
                    self.problems.append(f"worker {index} exited without a final report")
                    self.finals[index] = {}
                continue
            if kind == "ready":
                self.ready.add(index)
            elif kind == "progress":
                self.runs[index] = body["runs"]
                if self.connected[index] is False:
                    self.bursts_since_lost[index] += 1
            elif kind == "store":
                if body["connected"] is False:
                    self.bursts_since_lost[index] = 0
                self.connected[index] = body["connected"]
                self.reconnects[index] = body["reconnects"]
                if body["connected"] and self.restarted_at is not None:
                    self.back_after.setdefault(index, time.monotonic() - self.restarted_at)
            elif kind == "final":
                self.finals[index] = body
            elif kind == "error":
                self.problems.append(f"worker {index} failed:\n{body}")
                self.finals[index] = {}

    def send(self, message: str) -> None:
        for index, conn in enumerate(self.conns):
            if index not in self.finals:
                with contextlib.suppress(OSError):
                    conn.send(message)

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        for proc in self.procs:
            proc.join(timeout=10)
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)


def fleet_soak(config: FleetSoakConfig, *, redis_binary: str | None = None) -> FleetReport:
    """Run the fleet soak; return its report (``report.broken()`` lists failed invariants)."""
    from tests.servers.redis_server import RedisServer
    from tests.servers.uvicorn_thread import UvicornThread
    from tests.support.soak import soak_app

    report = FleetReport(config, namespace=f"soak-{uuid.uuid4().hex[:8]}")
    started = time.monotonic()
    deadline = started + config.max_seconds
    helpers = _helpers_running()
    context = multiprocessing.get_context("forkserver")  # not fork: the fault server is a thread
    context.set_forkserver_preload(PRELOAD)
    redis = RedisServer(redis_binary)
    app, served = soak_app(config.seed)
    server = UvicornThread(app)
    fleet = _Fleet(config, context)
    watch: RedisTtlWatch | None = None
    try:
        redis.start()
        server.start()
        report.redis = f"{redis.host}:{redis.port}"
        watch = RedisTtlWatch(redis.host, redis.port, report.namespace).start()
        fleet.spawn(
            [
                WorkerArgs(
                    index=i,
                    redis_url=redis.url,
                    namespace=report.namespace,
                    base_url=server.url,
                    burst=config.burst,
                    seed=config.seed * 1000 + i,
                    hard_deadline=time.time() + config.max_seconds + 30,
                    base_seconds=config.base_seconds,
                    cooldown_max_seconds=config.cooldown_max_seconds,
                    peer_grace_seconds=config.peer_grace_seconds,
                    probe_interval_seconds=config.probe_interval_seconds,
                    trace_memory=config.trace_memory,
                )
                for i in range(config.workers)
            ]
        )
        start_bound = time.monotonic() + config.start_bound_seconds
        while len(fleet.ready) + len(fleet.finals) < config.workers and time.monotonic() < start_bound:
            fleet.pump(0.2)
        if len(fleet.ready) < config.workers or fleet.finals:
            raise RuntimeError(f"only {len(fleet.ready)} of {config.workers} workers started")
        traffic_started = time.monotonic()
        traffic_budget = 0.75 * (deadline - traffic_started)
        fleet.send("go")
        report.stopped = _drive(config, fleet, redis, report, traffic_started, traffic_budget, deadline)
        fleet.send("stop")
        final_bound = time.monotonic() + 60
        while len(fleet.finals) < config.workers and time.monotonic() < final_bound:
            fleet.pump(0.2)
    except Exception as exc:
        report.problems.append(f"the script failed: {type(exc).__name__}: {exc}")
    finally:
        fleet.close()
        if watch is not None:
            watch.stop()
        server.stop()
        redis.close()
        _stop_helpers(helpers)
    report.problems += fleet.problems
    report.workers = [fleet.finals[i] for i in sorted(fleet.finals) if fleet.finals[i]]
    report.http_faults = Counter(served)
    if watch is not None:
        report.redis_longest_ttl, report.redis_reads = watch.longest, watch.reads
        report.redis_makers = len(watch.makers)
    report.seconds = time.monotonic() - started
    return report


def _helpers_running() -> tuple[bool, bool]:
    """Whether the stdlib's fork server and resource tracker processes run in this process."""
    from multiprocessing import forkserver, resource_tracker

    server = getattr(forkserver, "_forkserver", None)
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    return (
        getattr(server, "_forkserver_pid", None) is not None,
        getattr(tracker, "_fd", None) is not None,
    )


def _stop_helpers(before: tuple[bool, bool]) -> None:
    """Stop the fork server and the resource tracker if the soak started them, now rather
    than when this process exits (under pytest: the end of the session). Either starts
    again on demand. Uses the stdlib's own stop hooks."""
    from multiprocessing import forkserver, resource_tracker

    server_was, tracker_was = before
    for was, helper in (
        (server_was, getattr(forkserver, "_forkserver", None)),
        (tracker_was, getattr(resource_tracker, "_resource_tracker", None)),
    ):
        stop = getattr(helper, "_stop", None)
        if not was and callable(stop):
            with contextlib.suppress(OSError, ChildProcessError):
                stop()


def _drive(
    config: FleetSoakConfig,
    fleet: _Fleet,
    redis: Any,
    report: FleetReport,
    traffic_started: float,
    traffic_budget: float,
    deadline: float,
) -> str:
    """Kill and restart redis-server on schedule until the runs are done; why it stopped."""

    def progress() -> float:
        elapsed = time.monotonic() - traffic_started
        return max(sum(fleet.runs) / max(config.runs, 1), elapsed / max(traffic_budget, 1e-9))

    def all_back() -> bool:
        return all(fleet.connected) and all(r >= len(report.kills) for r in fleet.reconnects)

    restarted_at: float | None = None
    while True:
        fleet.pump(0.05)
        if fleet.finals:
            return "a worker stopped early"
        now = time.monotonic()
        if restarted_at is not None and all_back():
            report.kills[-1].all_back_after = now - restarted_at
            restarted_at = None
        if now >= deadline:
            return f"the time bound ({config.max_seconds:.0f} s)"
        kills = len(report.kills)
        if restarted_at is None and kills == config.kills and sum(fleet.runs) >= config.runs:
            return f"{sum(fleet.runs)} runs done (asked for {config.runs})"
        if restarted_at is None and kills == config.kills and progress() >= 1.0:
            return "the traffic budget"
        if restarted_at is None and kills < config.kills and progress() >= (kills + 1) / (config.kills + 1):
            _kill_and_restart(config, fleet, redis, report, traffic_started)
            restarted_at = time.monotonic()


def _kill_and_restart(
    config: FleetSoakConfig, fleet: _Fleet, redis: Any, report: FleetReport, traffic_started: float
) -> None:
    """SIGKILL redis-server; start it again on its port once every worker noticed and
    finished a burst without it (or after ``down_bound_seconds``)."""
    kill = Kill(at_runs=sum(fleet.runs), at_seconds=time.monotonic() - traffic_started)
    report.kills.append(kill)
    killed = time.monotonic()
    redis.kill()
    bound = killed + config.down_bound_seconds
    while time.monotonic() < bound and not fleet.finals:
        fleet.pump(0.05)
        if all(c is False for c in fleet.connected) and all(b >= 1 for b in fleet.bursts_since_lost):
            break
    kill.noticed_by = sum(1 for c in fleet.connected if c is False)
    redis.start()
    kill.down_seconds = time.monotonic() - killed
    fleet.restarted_at, fleet.back_after = time.monotonic(), kill.back_after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = FleetSoakConfig()
    parser.add_argument("--workers", type=int, default=defaults.workers)
    parser.add_argument("--runs", type=int, default=defaults.runs, help="questions, all workers together")
    parser.add_argument("--burst", type=int, default=defaults.burst, help="concurrent questions per worker")
    parser.add_argument("--kills", type=int, default=defaults.kills, help="SIGKILLs of redis-server")
    parser.add_argument("--max-seconds", type=float, default=defaults.max_seconds)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--peer-grace-seconds", type=float, default=defaults.peer_grace_seconds)
    parser.add_argument("--tracemalloc", action="store_true", help="trace Python memory too (slower)")
    options = parser.parse_args()
    from tests.servers.redis_server import SKIP_HINT, redis_server_binary

    binary = redis_server_binary()
    if binary is None:
        print(f"fleet soak: {SKIP_HINT}", file=sys.stderr)
        raise SystemExit(2)
    config = FleetSoakConfig(
        workers=options.workers,
        runs=options.runs,
        burst=options.burst,
        kills=options.kills,
        max_seconds=options.max_seconds,
        seed=options.seed,
        trace_memory=options.tracemalloc,
        peer_grace_seconds=options.peer_grace_seconds,
    )
    # SIGTERM (a CI timeout, kill PID) unwinds like Ctrl-C: workers and servers are stopped
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    report = fleet_soak(config, redis_binary=binary)
    print("\n".join(report.lines()))
    raise SystemExit(1 if report.broken() else 0)


if __name__ == "__main__":
    from tests.support import fleet_soak  # the workers' code by its module name, not __main__

    fleet_soak.main()
