"""The demo: the primary data API hangs; SchemaRouter and LangChain ``with_fallbacks`` side by side.

Everything runs on loopback, with no network and no LLM key: each contender gets its own three
HTTP servers (``benchmarks/_loopback.py``, the servers of the outage benchmarks): the primary
``mp_api``, its same-provider mirror ``mp_mirror`` and a second provider ``oqmd``. After a
healthy warm-up the primary starts to hang (it reads every request and never answers) and three
LangChain runnables ask the same questions, one after another, side by side:

* ``with_fallbacks``: ``RunnableLambda(primary).with_fallbacks([mirror, oqmd])``; no memory, so
  every question waits for the 0.5 s client timeout before the mirror answers.
* ``SchemaRouterTool``: the first question pays the timeout, the primary cools down, and the
  next questions go straight to the mirror.
* ``SchemaRouterTool`` hedged (``HedgePolicy(after_seconds=0.05)``): even the first question
  starts the mirror after 50 ms.

Then the terminal shows the route health (the primary cooling down, with its reason), the
primary coming back, a trusted health probe reopening it before its cooldown ends, and the next
question answered by it again.

Run: ``make demo`` (its own small venv, ``.venv-demo``), ``schemarouter-integrations demo``
or ``python cookbook/demo.py``; ``--width N`` sets the width, ``--svg PATH`` also saves a picture.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
from rich.console import Console, RenderableType
from rich.live import Live

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._loopback import LoopbackServer
from cookbook import _demo_view as view
from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    HedgePolicy,
    InvocationUnavailableError,
    RouterEvent,
    SchemaRouter,
    ToolCall,
    ToolSpec,
)
from schemarouter_integrations.langchain import SchemaRouterTool

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = 20
CLIENT_TIMEOUT = 0.5
HEDGE_AFTER = 0.05
WARM_UP = 2
QUESTION = "What is the band gap of Si?"
ROUTES = {  # tool -> (provider, access mode)
    "mp_api": ("materials_project", "openapi"),
    "mp_mirror": ("materials_project", "openapi"),
    "oqmd": ("oqmd", "optimade"),
}
LOGGED = {"tool.start", "tool.error", "route.unavailable", "tool.hedge", "tool.fallback", "tool.end"}

Ask = Callable[[], Awaitable[str]]


class Screen:
    """The console, and the transcript of everything printed on it (the tests re-render it)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.transcript: list[RenderableType] = []

    def show(self, renderable: RenderableType = "") -> None:
        self.console.print(renderable)
        self.transcript.append(renderable)


class QuietServer(LoopbackServer):
    """The benchmarks' loopback server, silent when a client resets a kept-alive connection."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass

    def __enter__(self) -> QuietServer:
        super().__enter__()
        return self


@dataclass
class Landscape:
    """One contender's three loopback servers and its HTTP client (0.5 s timeout)."""

    client: httpx.AsyncClient
    servers: dict[str, QuietServer] = field(default_factory=dict)

    @property
    def primary(self) -> QuietServer:
        return self.servers["mp_api"]

    async def get(self, tool: str, arguments: dict[str, Any]) -> Any:
        """One GET to *tool*'s server; a transport error or timeout is InvocationUnavailableError."""
        try:
            response = await self.client.get(self.servers[tool].url, params=arguments)
            response.raise_for_status()
        except httpx.HTTPError as exc:
            raise InvocationUnavailableError(f"{type(exc).__name__} after {CLIENT_TIMEOUT} s") from exc
        return response.json()

    def urls(self) -> dict[str, str]:
        return {tool: server.url for tool, server in self.servers.items()}


@asynccontextmanager
async def landscape() -> AsyncIterator[Landscape]:
    async with AsyncExitStack() as stack:
        client = await stack.enter_async_context(httpx.AsyncClient(timeout=CLIENT_TIMEOUT))
        servers = {tool: stack.enter_context(QuietServer()) for tool in ROUTES}
        yield Landscape(client, servers)


def spec(tool: str) -> ToolSpec:
    provider, mode = ROUTES[tool]
    search = EndpointSpec(
        name="search",
        fields=[FieldSpec(name="band_gap", aliases=["band gap"]), FieldSpec(name="formula")],
        read_only=True,
        input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
        records_path=["data"],
    )
    endpoints = [search]
    if tool == "mp_api":  # one endpoint that cannot answer the question, to show a rejection
        endpoints.append(EndpointSpec(name="heartbeat", fields=[FieldSpec(name="status")], read_only=True))
    return ToolSpec(name=tool, provider=provider, access_mode=mode, endpoints=endpoints)


def build_router(routes: Landscape) -> SchemaRouter:
    """The three routes, each invoked with the same GET the with_fallbacks chain makes."""
    router = SchemaRouter()
    for tool in ROUTES:

        async def invoke(call: ToolCall, tool: str = tool) -> Any:
            return await routes.get(tool, dict(call.arguments))

        router.register(spec(tool), invoke)

    async def probe() -> bool:  # trusted: a plain GET of the primary, as the application decides
        try:
            return (await routes.client.get(routes.primary.url, params={"formula": "Si"})).is_success
        except httpx.HTTPError:
            return False

    router.register_health_probe("mp_api", "search", probe)
    return router


def router_tool(router: SchemaRouter, hedged: bool) -> SchemaRouterTool:
    return SchemaRouterTool(
        router=router,
        name="materials_data",
        fallback_scope="cross_provider",
        max_fallbacks=2,
        preferred_tools=["mp_api"],
        hedge=HedgePolicy(after_seconds=HEDGE_AFTER) if hedged else None,
    )


def ask_tool(tool: SchemaRouterTool) -> Ask:
    """One question the way an agent asks it: a tool call; returns the access path that answered."""
    number = 0

    async def ask() -> str:
        nonlocal number
        number += 1
        call = {"name": tool.name, "args": {"query": QUESTION, "formula": "Si"}, "id": f"call-{number}"}
        message = await tool.ainvoke({**call, "type": "tool_call"})
        result = message.artifact
        assert result.records[0]["band_gap"] == 0.61, result.records
        return f"{result.tool}.{result.endpoint}"

    return ask


def ask_with_fallbacks(routes: Landscape) -> Ask:
    """LangChain's own answer to a failing primary: ``with_fallbacks`` over the same three GETs."""
    from langchain_core.runnables import RunnableLambda

    def step(tool: str) -> RunnableLambda[dict[str, Any], tuple[str, Any]]:
        async def get(arguments: dict[str, Any]) -> tuple[str, Any]:
            return f"{tool}.search", await routes.get(tool, arguments)

        return RunnableLambda(get, name=tool)

    chain = step("mp_api").with_fallbacks([step("mp_mirror"), step("oqmd")])

    async def ask() -> str:
        path, answer = await chain.ainvoke({"formula": "Si"})
        assert answer["data"][0]["band_gap"] == 0.61, answer
        return str(path)

    return ask


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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--width", type=int, help="the width in columns (default: the terminal's)")
    parser.add_argument("--svg", type=Path, help="also save the output as an SVG picture")
    options = parser.parse_args()
    console = Console(record=options.svg is not None, width=options.width)
    anyio.run(run, console)
    if options.svg is not None:
        console.save_svg(str(options.svg), title="schemarouter-integrations demo")
        print(f"saved {options.svg.name}")


if __name__ == "__main__":
    main()
