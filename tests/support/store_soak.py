"""The stores soak: worker processes sharing one real redis-server for their answer cache,
cooldowns and rate limits, while Redis is killed, restarted and made to hang, two tenants
share the Redis namespace, half the workers' clocks run 120 s ahead, and a router of routers
three levels deep meets an outage of its innermost sources.

The script starts a throw-away redis-server and three loopback services
(``tests/support/store_soak_apps.py``): tenant A's and tenant B's materials search (each on
its own origin, each answering its own API key only, each stamping its records with its
tenant and the true time it answered) and a rate-limited density search that counts every
429 it sends. Then N worker processes; each builds

* two tenant routers (A and B), each with its own server and key, registered under the same
  route name, both on one ``RedisAvailabilityStore`` / ``RedisAnswerCache`` namespace, with a
  1 s answer TTL and a 30 s stale window;
* a router for the rate-limited search (``RateLimit``, shared through Redis);
* a chain of routers: outer -> middle -> inner over in-process MCP servers, the inner one
  with two sources, the outer one with an archive of its own. Between 35 % and 55 % of the
  soak the inner sources are down, and marked unavailable for that time on the inner router
  (a known outage: its routes cool down);

and asks bursts of concurrent questions of all three kinds until told to stop. Workers with
an odd index (half the fleet) run on a clock ``--skew-seconds`` ahead: the wall clock of the
process (``time.time``) and the router's ``clock``.

Meanwhile the script kills redis-server (SIGKILL) and starts it again, and makes it hang
(SIGSTOP, then SIGCONT), each for ``--outage-seconds``, spread over the soak. It stops by
itself after ``--seconds`` (every worker also has a hard deadline of its own).

Invariants (exit 1 when one fails): no question answered with the other tenant's records;
no cached answer served as fresh when it is truly older than its TTL (plus a tolerance); no
429 from the rate-limited service; no question that hung (a bound of 30 s each); every
question answered or ended with a typed ``SchemaRouterError``; the chain answers every
question (falling back to its archive across the inner outage) and every answer through
it names all three levels in ``provenance.chain``.

``python -m tests.support.store_soak`` (``make soak``) runs the long one;
``tests/integration/test_fleet_soak.py`` runs a short one.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import multiprocessing
import random
import signal
import sys
import time
import traceback
import uuid
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for_messages
from typing import Any

PRELOAD = ["anyio", "httpx", "redis.asyncio", "schemarouter_integrations", "schemarouter_integrations.stores"]
FORMULAS = ["Si", "Ge", "GaAs", "C", "NaCl", "MgO"]
TENANTS = ("A", "B")
QUESTION_BOUND_SECONDS = 30.0  # a question that takes longer hung (an invariant)
AGE_TOLERANCE_SECONDS = 2.0  # a fresh answer may be this much older than its TTL (loaded machine)
SLOW_SECONDS = 5.0
CHAIN = "middle.data_lookup"


@dataclass(frozen=True)
class StoreSoakConfig:
    """What to run: *workers* processes for *seconds*, Redis killed *kills* times and hung
    *hangs* times, each for *outage_seconds*."""

    workers: int = 4
    seconds: float = 120.0
    burst: int = 12
    kills: int = 2
    hangs: int = 1
    outage_seconds: float = 6.0
    skew_seconds: float = 120.0
    ttl_seconds: float = 1.0
    stale_seconds: float = 30.0
    rate_per_second: float = 10.0
    rate_burst: int = 4  # at least the workers: each keeps 1/workers of it while Redis is away
    skewed_tenant_share: float = 0.02
    """The share of tenant questions on a skewed worker (0.5 elsewhere): a host whose clock runs
    ahead writes some answers that the rest of the fleet reads, rather than rewriting each
    one every TTL itself."""
    seed: int = 5
    start_bound_seconds: float = 180.0


@dataclass(frozen=True)
class WorkerArgs:
    index: int
    redis_url: str
    namespace: str
    tenant_urls: dict[str, str]
    tenant_keys: dict[str, str]
    limited_url: str
    skew_seconds: float
    config: StoreSoakConfig
    hard_deadline: float  # true wall clock: the worker stops by itself then


@dataclass
class Tally:
    """What one worker saw, by question kind (``tenant``, ``rate``, ``chain``)."""

    index: int
    skew_seconds: float
    asked: Counter[str] = field(default_factory=Counter)
    answered: Counter[str] = field(default_factory=Counter)
    typed: Counter[str] = field(default_factory=Counter)  # "<kind> <ErrorType>"
    untyped: list[str] = field(default_factory=list)
    hung: Counter[str] = field(default_factory=Counter)
    slow: int = 0
    longest: float = 0.0
    wrong_tenant: list[str] = field(default_factory=list)
    cached_fresh: int = 0
    stale_served: int = 0
    stale_as_fresh: list[str] = field(default_factory=list)
    oldest_fresh: float = 0.0
    chain_full: int = 0
    chain_short: list[str] = field(default_factory=list)
    chain_archive: int = 0
    chain_loop_refusals: int = 0
    outage_questions: int = 0
    rate_starts: list[tuple[float, str]] = field(default_factory=list)
    """When (``time.monotonic()``, one clock for every process of the host) each call to the
    rate-limited service was let go by the rate gate, and whether Redis or the local share
    gave its turn."""


# -- one worker process --------------------------------------------------------------------
def _record_starts(rate: Any, tally: Tally) -> None:
    """Note when the rate gate lets each call go, and by which state (``redis``, ``local``)."""
    import contextvars

    gate, backend = rate.rate_gate, rate.rate_gate.backend
    via: contextvars.ContextVar[str] = contextvars.ContextVar("via", default="redis")
    alone, admit = backend._alone, gate.admit

    def local(*args: Any) -> Any:
        via.set("local")
        return alone(*args)

    async def admitted(call: Any) -> float:
        via.set("redis")
        waited = await admit(call)
        tally.rate_starts.append((time.monotonic(), via.get()))
        return waited

    backend._alone, gate.admit = local, admitted


def _source(name: str, down: list[bool]) -> Any:
    def search(formula: str) -> list[dict[str, Any]]:
        if down[0] and name.startswith("inner"):
            raise ConnectionError(f"{name} is down")
        return [{"formula": formula, "band_gap": 1.1}]

    search.__name__ = "search"
    return search


async def _routers(args: WorkerArgs, stack: contextlib.AsyncExitStack, clock: Any, down: list[bool]) -> Any:
    """The tenant routers, the rate router and the chain's outer router, all entered."""
    from schemarouter_integrations import CachePolicy, CooldownPolicy, RateLimit, SchemaRouter
    from schemarouter_integrations.mcp import router_mcp_server
    from schemarouter_integrations.stores import RedisAnswerCache, RedisAvailabilityStore, RedisRateLimiter
    from tests.support.store_soak_apps import TENANT_KEY_HEADER

    c = args.config
    cooldown = CooldownPolicy(base_seconds=0.5, max_seconds=2.0)

    def store() -> Any:
        return RedisAvailabilityStore(
            args.redis_url,
            args.namespace,
            peer_grace_seconds=0.1,
            connect_timeout_seconds=1.0,
            reconnect_min_seconds=0.05,
            reconnect_max_seconds=0.5,
        )

    async def entered(router: Any) -> Any:
        return await stack.enter_async_context(router)

    tenants = {}
    for tenant in TENANTS:
        cache = RedisAnswerCache(args.redis_url, args.namespace, timeout_seconds=0.5)
        router = await entered(
            SchemaRouter(cooldown=cooldown, clock=clock, availability_store=store(), answer_cache=cache)
        )
        await router.add_url(
            args.tenant_urls[tenant] + "/openapi.json",
            kind="openapi",
            name="materials",
            provider="materials",
            headers={TENANT_KEY_HEADER: args.tenant_keys[tenant]},
            timeout_seconds=2.0,
            cache=CachePolicy(ttl_seconds=c.ttl_seconds, stale_if_error_seconds=c.stale_seconds),
        )
        tenants[tenant] = router
    limiter = RedisRateLimiter(
        args.redis_url, args.namespace, timeout_seconds=0.5, fleet_size=args.config.workers
    )
    rate = await entered(
        SchemaRouter(cooldown=cooldown, clock=clock, availability_store=store(), rate_limiter=limiter)
    )
    await rate.add_url(
        args.limited_url + "/openapi.json",
        kind="openapi",
        name="limited",
        provider="limited",
        timeout_seconds=2.0,
        rate_limit=RateLimit(per_second=c.rate_per_second, burst=c.rate_burst, max_wait_seconds=0.5),
    )
    fields: list[Any] = ["band_gap", {"name": "formula", "identity": True}]
    short = CooldownPolicy(base_seconds=0.5, max_seconds=1.0)
    inner = await entered(SchemaRouter(cooldown=short, clock=clock))
    for name in ("inner_db", "inner_backup"):
        inner.add_callable(_source(name, down), name=name, provider="lab", read_only=True, fields=fields)
    middle = await entered(SchemaRouter(cooldown=short, clock=clock))
    served_inner = router_mcp_server(inner, fallback_scope="same_provider")
    await middle.add_mcp(served_inner, name="inner", provider="lab", read_only=True, timeout_seconds=5)
    outer = await entered(SchemaRouter(cooldown=short, clock=clock))
    served_middle = router_mcp_server(middle, fallback_scope="cross_provider")
    await outer.add_mcp(served_middle, name="middle", provider="lab", read_only=True, timeout_seconds=5)
    outer.add_callable(
        _source("archive", down), name="archive", provider="archive", read_only=True, fields=fields
    )
    return tenants, rate, outer, inner


async def _ask(kind: str, question: Any, tally: Tally, true_time: Any) -> None:
    """One question, bounded; its outcome and the invariants it bears on, tallied."""
    import anyio

    from schemarouter_integrations import SchemaRouterError

    router, request, check = question
    tally.asked[kind] += 1
    started = time.monotonic()
    result: Any = None
    with anyio.move_on_after(QUESTION_BOUND_SECONDS) as bound:
        try:
            result = await router.invoke(request)
        except SchemaRouterError as exc:
            tally.typed[f"{kind} {type(exc).__name__}"] += 1
            if kind == "chain" and "RoutingLoopError" in str(exc):
                tally.chain_loop_refusals += 1
        except Exception as exc:
            if len(tally.untyped) < 20:
                tally.untyped.append(f"{kind}: {type(exc).__name__}: {exc}"[:300])
            else:
                tally.untyped.append("")
    took = time.monotonic() - started
    tally.longest = max(tally.longest, took)
    tally.slow += took > SLOW_SECONDS
    if bound.cancelled_caught:
        tally.hung[kind] += 1
        return
    if result is not None:
        tally.answered[kind] += 1
        check(result, tally, true_time)


def _tenant_check(tenant: str, ttl: float) -> Any:
    def check(result: Any, tally: Tally, true_time: Any) -> None:
        others = sorted({str(r.get("tenant")) for r in result.records if r.get("tenant") != tenant})
        if others and len(tally.wrong_tenant) < 1000:
            tally.wrong_tenant.append(f"tenant {tenant} got {others} (cached={result.cached})")
        if result.stale:
            tally.stale_served += 1
        elif result.cached:
            tally.cached_fresh += 1
            ages = [
                true_time() - r["served_at"] for r in result.records if isinstance(r.get("served_at"), float)
            ]
            age = max(ages, default=0.0)
            tally.oldest_fresh = max(tally.oldest_fresh, age)
            if age > ttl + AGE_TOLERANCE_SECONDS and len(tally.stale_as_fresh) < 1000:
                tally.stale_as_fresh.append(
                    f"{age:.1f} s old, served fresh (age_seconds={result.age_seconds}, ttl {ttl:g} s)"
                )

    return check


def _rate_check(result: Any, tally: Tally, true_time: Any) -> None:
    return None


def _chain_check(result: Any, tally: Tally, true_time: Any) -> None:
    if result.access_path != CHAIN:
        tally.chain_archive += 1
        return
    chain = list(getattr(result.provenance, "chain", None) or [])
    if len(chain) == 3 and chain[0] == CHAIN and chain[1] == "inner.data_lookup":
        tally.chain_full += 1
    elif len(tally.chain_short) < 20:
        tally.chain_short.append(f"chain {chain} (provenance {result.provenance})")


async def _worker_main(args: WorkerArgs, conn: Connection) -> dict[str, Any]:
    import anyio
    import anyio.to_thread

    from schemarouter_integrations import PlanRequest

    true_time = time.time
    clock = None
    if args.skew_seconds:  # this host's clocks run ahead: the wall clock and the router's clock
        skew = args.skew_seconds
        setattr(time, "time", lambda: true_time() + skew)  # noqa: B010 - the process's own clock
        clock = lambda: time.monotonic() + skew  # noqa: E731
    c = args.config
    tally = Tally(args.index, args.skew_seconds)
    rng = random.Random(c.seed * 1000 + args.index)
    down = [False]
    async with contextlib.AsyncExitStack() as stack:
        tenants, rate, outer, inner = await _routers(args, stack, clock, down)
        _record_starts(rate, tally)
        conn.send(("ready", {"index": args.index}))
        if await anyio.to_thread.run_sync(conn.recv) != "go":
            raise RuntimeError("expected 'go'")
        began = time.monotonic()
        outage = (began + 0.35 * c.seconds, began + 0.55 * c.seconds)

        def question() -> tuple[str, Any]:
            formula = rng.choice(FORMULAS)
            pick = rng.random()
            if pick < (c.skewed_tenant_share if args.skew_seconds else 0.5):
                tenant = rng.choice(TENANTS)
                fields = ["band_gap", "tenant", "served_at"]
                request = PlanRequest(query="band gap", arguments={"formula": formula}, fields=fields)
                return "tenant", (tenants[tenant], request, _tenant_check(tenant, c.ttl_seconds))
            if pick < 0.75:
                request = PlanRequest(query="density", arguments={"formula": formula}, fields=["density"])
                return "rate", (rate, request, _rate_check)
            request = PlanRequest(
                query="band gap",
                arguments={"formula": formula},
                preferred_tools=["middle"],
                fallback_scope="cross_provider",
            )
            return "chain", (outer, request, _chain_check)

        while True:
            now = time.monotonic()
            if not down[0] and outage[0] <= now < outage[1]:  # a known outage: marked, as an operator would
                for name in ("inner_db", "inner_backup"):
                    inner.mark_access_unavailable(name, "search", seconds=outage[1] - now, reason="outage")
            down[0] = outage[0] <= now < outage[1]
            async with anyio.create_task_group() as burst:
                for _ in range(c.burst):
                    kind, asked = question()
                    if kind == "chain" and down[0]:
                        tally.outage_questions += 1
                    burst.start_soon(_ask, kind, asked, tally, true_time)
            conn.send(("progress", {"asked": sum(tally.asked.values())}))
            told = [conn.recv() for _ in iter(conn.poll, False)]
            if "stop" in told or true_time() > args.hard_deadline:
                break
            await anyio.sleep(0.05)
    result = {k: dict(v) if isinstance(v, Counter) else v for k, v in vars(tally).items()}
    result["untyped_count"] = len(tally.untyped)
    result["untyped"] = [u for u in tally.untyped if u][:5]
    return result


def _worker(args: WorkerArgs, conn: Connection) -> None:
    """A worker process; reports through *conn*; never outlives the script."""
    import logging

    import anyio

    logging.getLogger("schemarouter_integrations").setLevel(logging.CRITICAL)  # counted, not printed
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        conn.send(("final", anyio.run(_worker_main, args, conn)))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        return  # the script went away
    except BaseException:
        with contextlib.suppress(OSError):
            conn.send(("error", traceback.format_exc()))
        raise SystemExit(1) from None
    finally:
        conn.close()


# -- the script ----------------------------------------------------------------------------
def densest(times: list[float], window: float) -> int:
    """The most of *times* in any window ``[t, t + window)``."""
    ordered = sorted(times)
    return max((bisect.bisect_left(ordered, t + window) - i for i, t in enumerate(ordered)), default=0)


@dataclass
class RedisFault:
    kind: str  # "kill" (SIGKILL, then started again, empty) or "hang" (SIGSTOP, then SIGCONT)
    at_seconds: float
    lasted: float = 0.0


@dataclass
class StoreSoakReport:
    config: StoreSoakConfig
    namespace: str
    workers: list[dict[str, Any]] = field(default_factory=list)
    faults: list[RedisFault] = field(default_factory=list)
    tenant_calls: dict[str, Counter[str]] = field(default_factory=dict)
    limited_calls: Counter[str] = field(default_factory=Counter)
    refused_at: list[float] = field(default_factory=list)  # seconds into the traffic of each 429
    arrived_at: list[float] = field(default_factory=list)  # seconds into the traffic of every call
    began: float = 0.0  # time.monotonic() when the traffic began
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def total(self, key: str) -> Counter[str]:
        out: Counter[str] = Counter()
        for worker in self.workers:
            out.update(worker[key])
        return out

    def count(self, key: str) -> int:
        return sum(len(w[key]) if isinstance(w[key], list) else int(w[key]) for w in self.workers)

    def examples(self, key: str, n: int = 3) -> list[str]:
        return [e for w in self.workers for e in w[key]][:n]

    def invariants(self) -> list[tuple[str, bool, str]]:
        """(name, held, what was counted) for every invariant."""
        hung = self.total("hung")
        untyped = sum(w["untyped_count"] for w in self.workers)
        chain_typed = {k: v for k, v in self.total("typed").items() if k.startswith("chain ")}
        asked, answered = self.total("asked"), self.total("answered")
        every = len(self.workers) == self.config.workers and not self.problems
        return [
            ("every worker ran and reported", every, f"{len(self.workers)}/{self.config.workers} reported"),
            (
                "no wrong tenant's answer",
                self.count("wrong_tenant") == 0,
                f"{self.count('wrong_tenant')} answers",
            ),
            (
                "no answer older than its TTL served as fresh (clocks 120 s apart)",
                self.count("stale_as_fresh") == 0,
                f"{self.count('stale_as_fresh')} answers; oldest served fresh "
                f"{max((w['oldest_fresh'] for w in self.workers), default=0.0):.1f} s",
            ),
            (
                "no 429 from the rate-limited service",
                self.limited_calls["429"] == 0,
                f"{self.limited_calls['429']} x 429",
            ),
            ("no question hung", sum(hung.values()) == 0, f"{sum(hung.values())} ({dict(hung)})"),
            ("every question answered or typed", untyped == 0, f"{untyped} untyped"),
            (
                "the chain answers every question, across the inner outage",
                not chain_typed and answered["chain"] == asked["chain"] > 0,
                f"{answered['chain']}/{asked['chain']} answered; errors {chain_typed}",
            ),
            (
                "answers through the chain name all three levels",
                self.count("chain_short") == 0 and self.count("chain_full") > 0,
                f"{self.count('chain_full')} with a chain of three, {self.count('chain_short')} shorter",
            ),
            (
                "the faults happened (Redis killed and hung, an inner outage)",
                len(self.faults) == self.config.kills + self.config.hangs
                and self.count("outage_questions") > 0,
                f"{len(self.faults)} Redis faults; "
                f"{self.count('outage_questions')} chain questions in the outage",
            ),
        ]

    def refused_in_faults(self) -> int:
        windows = [(f.at_seconds, f.at_seconds + f.lasted + 2.0) for f in self.faults]
        return sum(1 for t in self.refused_at if any(a <= t <= b for a, b in windows))

    def busiest(self) -> str:
        """The most calls to the rate-limited service in any 1 s and 0.25 s, where they arrived
        and where the workers' rate gates let them go (by Redis or a local share)."""
        starts = [t for w in self.workers for t, _ in w["rate_starts"]]
        local = sum(1 for w in self.workers for _, via in w["rate_starts"] if via == "local")
        arrived = " / ".join(str(densest(self.arrived_at, w)) for w in (1.0, 0.25))
        started = " / ".join(str(densest(starts, w)) for w in (1.0, 0.25))
        return f"at the service {arrived}; at the gates {started} ({local} of {len(starts)} by a local share)"

    def _tenant_calls(self) -> dict[str, dict[str, int]]:
        return {tenant: dict(calls) for tenant, calls in self.tenant_calls.items()}

    def broken(self) -> list[str]:
        return [f"{name}: {counted}" for name, held, counted in self.invariants() if not held]

    def lines(self) -> list[str]:
        c = self.config
        asked, answered, typed = self.total("asked"), self.total("answered"), self.total("typed")
        skewed = [w["index"] for w in self.workers if w["skew_seconds"]]
        out = [
            f"stores soak: {len(self.workers)} workers on one Redis namespace ({self.namespace}) for "
            f"{self.seconds:.0f} s; clocks {c.skew_seconds:g} s ahead on workers {skewed}",
            "Redis faults: "
            + ", ".join(f"{f.kind} at {f.at_seconds:.0f} s for {f.lasted:.1f} s" for f in self.faults),
            f"questions: {sum(asked.values())} asked, {sum(answered.values())} answered; by kind asked "
            f"{dict(asked)}, answered {dict(answered)}",
            f"typed errors: {dict(sorted(typed.items()))}",
            f"untyped: {sum(w['untyped_count'] for w in self.workers)} {self.examples('untyped')}; "
            f"hung: {dict(self.total('hung'))}; slower than {SLOW_SECONDS:g} s: {self.count('slow')}; "
            f"longest {max((w['longest'] for w in self.workers), default=0.0):.1f} s",
            f"tenants: servers answered {self._tenant_calls()}; "
            f"cached fresh {self.count('cached_fresh')}, stale served {self.count('stale_served')}; "
            f"wrong tenant {self.count('wrong_tenant')} {self.examples('wrong_tenant', 2)}",
            f"clock: fresh answers truly older than {c.ttl_seconds:g} s + {AGE_TOLERANCE_SECONDS:g} s: "
            f"{self.count('stale_as_fresh')} {self.examples('stale_as_fresh', 2)}",
            f"rate limit {c.rate_per_second:g}/s (burst {c.rate_burst}): the service answered "
            f"{dict(self.limited_calls)}; 429s while Redis was down or hung (or 2 s after): "
            f"{self.refused_in_faults()} of {len(self.refused_at)}",
            "busiest windows (calls in any 1 s / 0.25 s; the limit's bound "
            f"{c.rate_burst + c.rate_per_second:g} / {c.rate_burst + c.rate_per_second / 4:g}): "
            f"{self.busiest()}",
            f"chain: {self.count('chain_full')} through three levels, {self.count('chain_archive')} by the "
            f"archive, {self.count('chain_short')} with a shorter chain {self.examples('chain_short', 2)}; "
            f"{self.count('outage_questions')} asked during the inner outage",
        ]
        out += [f"{self.problems[i]}" for i in range(min(len(self.problems), 5))]
        out.append("invariants:")
        out += [
            f"  [{'held' if held else 'BROKEN'}] {name}: {counted}"
            for name, held, counted in self.invariants()
        ]
        return out


class _Workers:
    def __init__(self, context: Any) -> None:
        self.context = context
        self.procs: list[Any] = []
        self.conns: list[Connection] = []
        self.ready: set[int] = set()
        self.finals: dict[int, dict[str, Any]] = {}
        self.problems: list[str] = []

    def spawn(self, args: list[WorkerArgs]) -> None:
        for worker in args:
            ours, theirs = self.context.Pipe()
            proc = self.context.Process(
                target=_worker, args=(worker, theirs), name=f"store-soak-{worker.index}"
            )
            proc.daemon = True
            proc.start()
            theirs.close()
            self.procs.append(proc)
            self.conns.append(ours)

    def pump(self, timeout: float) -> None:
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
            elif kind == "final":
                self.finals[index] = body
            elif kind == "error":
                self.problems.append(f"worker {index} failed:\n{body}")
                self.finals[index] = {}

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(min(0.1, max(0.0, end - time.monotonic())))

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
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)


def fault_plan(config: StoreSoakConfig) -> list[tuple[float, str]]:
    """When (seconds into the traffic) and how Redis fails: kills and hangs alternating,
    spread evenly over the soak."""
    kinds, kills, hangs = [], config.kills, config.hangs
    while kills or hangs:
        if kills and (len(kinds) % 2 == 0 or not hangs):
            kinds.append("kill")
            kills -= 1
        else:
            kinds.append("hang")
            hangs -= 1
    n = len(kinds)
    return [(config.seconds * (i + 1) / (n + 1), kind) for i, kind in enumerate(kinds)]


def store_soak(config: StoreSoakConfig, *, redis_binary: str | None = None) -> StoreSoakReport:
    """Run the stores soak; return its report (``report.broken()`` lists failed invariants)."""
    from tests.servers.redis_server import RedisServer
    from tests.servers.uvicorn_thread import UvicornThread
    from tests.support.store_soak_apps import limited_app, tenant_app

    report = StoreSoakReport(config, namespace=f"store-soak-{uuid.uuid4().hex[:8]}")
    started = time.monotonic()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    redis = RedisServer(redis_binary)
    keys = {tenant: f"key-{tenant}-{uuid.uuid4().hex[:12]}" for tenant in TENANTS}
    report.tenant_calls = {tenant: Counter() for tenant in TENANTS}
    servers = {t: UvicornThread(tenant_app(t, keys[t], report.tenant_calls[t])) for t in TENANTS}
    refused: list[float] = []
    arrived: list[float] = []
    limited = UvicornThread(
        limited_app(config.rate_per_second, config.rate_burst, report.limited_calls, refused, arrived)
    )
    began = time.monotonic()
    workers = _Workers(context)
    try:
        redis.start()
        for server in [*servers.values(), limited]:
            server.start()
        workers.spawn(
            [
                WorkerArgs(
                    index=i,
                    redis_url=redis.url,
                    namespace=report.namespace,
                    tenant_urls={t: s.url for t, s in servers.items()},
                    tenant_keys=keys,
                    limited_url=limited.url,
                    skew_seconds=config.skew_seconds if i % 2 else 0.0,
                    config=config,
                    hard_deadline=time.time() + config.start_bound_seconds + config.seconds + 60,
                )
                for i in range(config.workers)
            ]
        )
        start_bound = time.monotonic() + config.start_bound_seconds
        while len(workers.ready) + len(workers.finals) < config.workers and time.monotonic() < start_bound:
            workers.pump(0.2)
        if len(workers.ready) < config.workers or workers.finals:
            raise RuntimeError(f"only {len(workers.ready)} of {config.workers} workers started")
        workers.send("go")
        began = time.monotonic()
        for at, kind in fault_plan(config):
            workers.wait(max(0.0, began + at - time.monotonic()))
            fault = RedisFault(kind, at_seconds=time.monotonic() - began)
            report.faults.append(fault)
            if kind == "kill":
                redis.kill()
            else:
                redis.pause()
            workers.wait(config.outage_seconds)
            if kind == "kill":
                redis.start()
            else:
                redis.resume()
            fault.lasted = time.monotonic() - began - fault.at_seconds
        workers.wait(max(0.0, began + config.seconds - time.monotonic()))
        workers.send("stop")
        final_bound = time.monotonic() + QUESTION_BOUND_SECONDS + 30
        while len(workers.finals) < config.workers and time.monotonic() < final_bound:
            workers.pump(0.2)
    except Exception as exc:
        report.problems.append(f"the script failed: {type(exc).__name__}: {exc}")
    finally:
        workers.close()
        for server in [*servers.values(), limited]:
            server.stop()
        redis.close()
    report.refused_at = [t - began for t in refused]
    report.arrived_at = [t - began for t in arrived]
    report.began = began
    report.problems += workers.problems
    report.workers = [workers.finals[i] for i in sorted(workers.finals) if workers.finals[i]]
    report.seconds = time.monotonic() - started
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = StoreSoakConfig()
    parser.add_argument("--workers", type=int, default=defaults.workers)
    parser.add_argument("--seconds", type=float, default=defaults.seconds, help="how long the traffic runs")
    parser.add_argument("--burst", type=int, default=defaults.burst, help="concurrent questions per worker")
    parser.add_argument("--kills", type=int, default=defaults.kills, help="SIGKILLs of redis-server")
    parser.add_argument("--hangs", type=int, default=defaults.hangs, help="SIGSTOPs of redis-server")
    parser.add_argument("--outage-seconds", type=float, default=defaults.outage_seconds)
    parser.add_argument("--skew-seconds", type=float, default=defaults.skew_seconds)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    options = parser.parse_args()
    from tests.servers.redis_server import SKIP_HINT, redis_server_binary

    binary = redis_server_binary()
    if binary is None:
        print(f"stores soak: {SKIP_HINT}", file=sys.stderr)
        raise SystemExit(2)
    config = StoreSoakConfig(
        workers=options.workers,
        seconds=options.seconds,
        burst=options.burst,
        kills=options.kills,
        hangs=options.hangs,
        outage_seconds=options.outage_seconds,
        skew_seconds=options.skew_seconds,
        seed=options.seed,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    report = store_soak(config, redis_binary=binary)
    print("\n".join(report.lines()))
    raise SystemExit(1 if report.broken() else 0)


if __name__ == "__main__":
    from tests.support import store_soak  # the workers' code by its module name, not __main__

    store_soak.main()
