"""The demo's story: the outage race, the cooldown and the recovery, told on a rich console."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from rich.console import Console, RenderableType
from rich.live import Live

from schemarouter_integrations import RouterEvent, SchemaRouter
from schemarouter_integrations._demo import view
from schemarouter_integrations._demo.contenders import (
    CLIENT_TIMEOUT,
    HEDGE_AFTER,
    QUESTION,
    QUESTIONS,
    WARM_UP,
    Ask,
    Landscape,
    ask_tool,
    ask_with_fallbacks,
    build_router,
    landscape,
    router_tool,
)
from schemarouter_integrations.langchain import SchemaRouterTool

ROOT = Path(__file__).resolve().parents[2]
"""A source checkout's root (``benchmarks/RESULTS.md`` is read from there when it exists)."""
LOGGED = {"tool.start", "tool.error", "route.unavailable", "tool.hedge", "tool.fallback", "tool.end"}


class Screen:
    """The console, and the transcript of everything printed on it (the tests re-render it)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.transcript: list[RenderableType] = []

    def show(self, renderable: RenderableType = "") -> None:
        self.console.print(renderable)
        self.transcript.append(renderable)


async def contend(side: view.Side, routes: Landscape, ask: Ask, race: Race) -> None:
    """Warm up healthy, then ask the questions one after another once the primary hangs."""
    for _ in range(WARM_UP):
        await ask()
    race.warmed_up()
    await race.outage.wait()  # the outage starts for every side at once
    before = routes.primary.requests
    for _ in range(side.questions):
        started = time.perf_counter()
        path = await ask()
        side.latencies.append(time.perf_counter() - started)
        side.answered_by[path] += 1
    side.primary_requests = routes.primary.requests - before
    race.side_done(side)


@dataclass
class Race:
    """The race's moments: every side warmed up, the outage started, every side done."""

    sides: int
    finished: Callable[[view.Side], None]  # says that one side answered all its questions
    warm: anyio.Event = field(default_factory=anyio.Event)
    outage: anyio.Event = field(default_factory=anyio.Event)
    done: anyio.Event = field(default_factory=anyio.Event)
    _warmed: int = 0
    _done: int = 0

    def warmed_up(self) -> None:
        self._warmed += 1
        if self._warmed == self.sides:
            self.warm.set()

    def side_done(self, side: view.Side) -> None:
        self.finished(side)
        self._done += 1
        if self._done == self.sides:
            self.done.set()


def benchmark_ratio() -> str | None:
    """The outage timeline benchmark's total ratio, as recorded in benchmarks/RESULTS.md."""
    try:
        results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    except OSError:
        return None
    found = re.search(r"\|\s*total with_fallbacks / ours\s*\|\s*([\d.]+x)\s*\|", results)
    return found.group(1) if found else None


async def run(console: Console) -> list[RenderableType]:
    """The whole demo on *console*; returns the transcript of what it printed."""
    began = time.monotonic()
    screen = Screen(console)
    screen.show(view.intro(QUESTIONS, CLIENT_TIMEOUT))
    async with landscape() as lc_routes, landscape() as routes, landscape() as hedged_routes:
        router, hedged_router = build_router(routes), build_router(hedged_routes)
        async with router, hedged_router:
            await story(screen, router, hedged_router, lc_routes, routes, hedged_routes)
    screen.show(view.note((f"Demo finished in {time.monotonic() - began:.1f} s.", "bold")))
    return screen.transcript


async def story(
    screen: Screen,
    router: SchemaRouter,
    hedged_router: SchemaRouter,
    lc_routes: Landscape,
    routes: Landscape,
    hedged_routes: Landscape,
) -> None:
    tool, hedged_tool = router_tool(router, hedged=False), router_tool(hedged_router, hedged=True)
    plan = router.plan_executable(tool.options.request(QUESTION, {"formula": "Si"}))
    paths = [f"{call.tool}.{call.endpoint}" for call in plan.calls]
    screen.show(view.fallback_tree(plan, routes.urls()))

    sides = [
        view.Side("LangChain with_fallbacks", QUESTIONS),
        view.Side("SchemaRouterTool", QUESTIONS),
        view.Side("SchemaRouterTool, hedged", QUESTIONS),
    ]
    logging: dict[str, bool] = {}  # who -> still logging its first question of the outage

    def log_first_question(who: str) -> Callable[[RouterEvent], None]:
        def sink(event: RouterEvent) -> None:
            if not logging.get(who):
                return
            if event.type in LOGGED:
                screen.show(view.event_line(who, event))
            elif event.type in {"run.end", "run.error"}:
                logging[who] = False

        return sink

    unsubscribe = [
        router.subscribe(log_first_question("router")),
        hedged_router.subscribe(log_first_question("hedged")),
    ]

    def finished(side: view.Side) -> None:
        waits = side.timeouts_waited(CLIENT_TIMEOUT)
        screen.show(
            view.note(
                (f"{side.name}: ", "bold"),
                f"{side.answered} of {side.questions} answered in {side.total:.2f} s; "
                f"{waits} of them waited for the timeout",
            )
        )

    screen.show(view.heading("The outage: mp_api hangs"))
    race = Race(3, finished)
    contenders = [
        (sides[0], lc_routes, ask_with_fallbacks(lc_routes)),
        (sides[1], routes, ask_tool(tool)),
        (sides[2], hedged_routes, ask_tool(hedged_tool)),
    ]
    async with anyio.create_task_group() as group:
        for side, side_routes, ask in contenders:
            group.start_soon(contend, side, side_routes, ask, race)
        with anyio.fail_after(60):
            await race.warm.wait()  # a healthy warm-up: plans compiled, connections open
        for _, side_routes, _ in contenders:
            side_routes.primary.hanging = True
        screen.show(
            view.note(
                ("mp_api now hangs. ", "bold red"),
                f"{QUESTIONS} questions per side; the router events of each tool's first question:",
            )
        )
        logging.update(router=True, hedged=True)
        race.outage.set()
        await watch_race(screen.console, sides, race.done)
    for stop in unsubscribe:
        stop()
    screen.show(view.results(sides, CLIENT_TIMEOUT))
    screen.show(view.verdict(sides[0], sides[1], benchmark_ratio()))
    screen.show(view.hedged(sides[1], sides[2], HEDGE_AFTER, CLIENT_TIMEOUT))

    screen.show(view.heading("The cooldown"))
    screen.show(view.health(router.inspect().execution, paths))
    for rejection in router.plan_executable(tool.options.request(QUESTION, {"formula": "Si"})).rejected:
        if rejection.tool == "mp_api" and rejection.endpoint == "search":
            screen.show(view.note("The next plan leaves it out: ", f"mp_api.search: {rejection.reason}"))
    await recovery(screen, router, tool, routes, lc_routes, paths)


async def watch_race(console: Console, sides: list[view.Side], done: anyio.Event) -> None:
    """Until every side is done: a live race on a terminal, nothing extra when piped."""
    if not console.is_terminal or console.record:
        await done.wait()
        return
    with Live(view.race(sides), console=console, refresh_per_second=10, transient=True) as live:
        while not done.is_set():
            with anyio.move_on_after(0.1):
                await done.wait()
            live.update(view.race(sides))


async def recovery(
    screen: Screen,
    router: SchemaRouter,
    tool: SchemaRouterTool,
    routes: Landscape,
    lc_routes: Landscape,
    paths: list[str],
) -> None:
    screen.show(view.heading("The recovery"))
    routes.primary.hanging = lc_routes.primary.hanging = False
    screen.show(
        view.note(
            ("mp_api answers again. ", "bold green"),
            "with_fallbacks finds out on its next question (it tries the primary every time, "
            "which is also why it paid every timeout); the router learns it from its health probe, "
            "without sending a question there first:",
        )
    )
    reopened = anyio.Event()

    def watch(event: RouterEvent) -> None:
        if event.type in {"health.probe", "route.available"}:
            screen.show(view.event_line("router", event))
        if event.type == "route.available":
            reopened.set()

    unsubscribe = router.subscribe(watch)
    await router.start_health_monitor(interval_seconds=3600, probe_timeout_seconds=2)
    with anyio.fail_after(30):
        await reopened.wait()
    await router.stop_health_monitor()
    unsubscribe()
    screen.show(view.health(router.inspect().execution, paths))
    started = time.perf_counter()
    path = await ask_tool(tool)()
    seconds = time.perf_counter() - started
    screen.show(
        view.note(
            ("SchemaRouterTool: ", "bold"), f"the next question answered by {path} in {seconds * 1000:.0f} ms"
        )
    )
