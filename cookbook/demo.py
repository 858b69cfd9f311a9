"""The demo: a LangGraph agent asks for the band gap of Si while the Materials Project API is down.

Everything runs offline on loopback (``cookbook/services``): a Materials-Project-like REST API
and two OPTIMADE reference servers playing OQMD and Alexandria. The router comes from the
landscape file ``cookbook/landscapes/local.toml``; the agent is LangGraph's prebuilt ReAct
agent with the scripted offline chat model (``cookbook/scripted_langchain.py``).

The terminal shows the compiled plan (and every rejected candidate with its reason), the
live router events as LangGraph streams them (``tool.fallback`` with its scope), the answer
and the route that gave it, the route health with cooldowns counting down, the next
question skipping the cooled route, and a health probe reopening it.

Run: ``make demo``, ``schemarouter-integrations demo`` or ``python cookbook/demo.py``;
``--svg PATH`` also saves the output as a picture.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import anyio
from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.scripted_langchain import ScriptedChemist
from cookbook.services.landscape import LocalLandscape
from schemarouter_integrations import Plan, SchemaRouter
from schemarouter_integrations.config import RouterConfig, load_config
from schemarouter_integrations.langchain import SchemaRouterTool

QUESTION = "What is the band gap of Si?"
ARGUMENTS = {"formula": "Si"}
SHOWN = {"tool.start", "tool.retry", "tool.error", "route.unavailable", "tool.fallback", "tool.end"}
STYLE = {
    "tool.fallback": "bold magenta",
    "tool.error": "red",
    "route.unavailable": "yellow",
    "tool.end": "green",
}


def plan_table(plan: Plan) -> list[Table]:
    chain = Table(title=f"Compiled plan: need {plan.need}", title_justify="left")
    for column in ("role", "access path", "provider", "mode", "server projection"):
        chain.add_column(column)
    for number, call in enumerate(plan.calls):
        role = "primary" if number == 0 else f"fallback {number} ({call.scope})"
        projection = ", ".join(f"{k}={v}" for k, v in call.server_projection.items())
        chain.add_row(role, call.access_path, call.provider or "-", call.access_mode or "-", projection)
    rejected = Table(title="Rejected candidates", title_justify="left")
    rejected.add_column("access path", style="dim")
    rejected.add_column("reason")
    for rejection in plan.rejected:
        rejected.add_row(rejection.access_path, rejection.reason)
    return [chain, rejected]


def health_table(router: SchemaRouter, paths: list[str]) -> Table:
    snapshot = router.inspect().execution
    table = Table(title="Route health", title_justify="left")
    for column in ("access path", "state", "cooldown left", "reason"):
        table.add_column(column)
    for path in paths:
        left = snapshot.cooldowns.get(path)
        if left is None:
            table.add_row(path, "[green]open[/]", "-", "")
        else:
            reason = escape((snapshot.cooldown_reasons.get(path) or "")[:60])
            table.add_row(path, "[yellow]cooling down[/]", f"{left:5.1f} s", reason)
    return table


def describe(event: dict[str, Any]) -> str:
    kind = event["type"]
    if kind == "tool.fallback":
        return (
            f"{event['from_tool']}.{event['from_endpoint']} -> {event['to_tool']}.{event['to_endpoint']}"
            f"  scope={event['scope']} reason={event['reason']}"
        )
    text = f"{event['tool']}.{event['endpoint']}"
    if kind == "tool.error":
        text += f"  {event['error_type']}: {event['error'][:48]}"
    if kind == "route.unavailable":
        text += f"  cooled down for {event['cooldown_seconds']:.0f} s"
    return text


async def ask(agent: Any, console: Console, title: str) -> float:
    """One agent turn, streamed: router events live, then the answer; returns the seconds taken."""
    console.rule(f"[bold]{title}")
    console.print(f"[bold]User:[/] {QUESTION}")
    started = time.monotonic()
    answer = ""
    async for item in agent.astream_events({"messages": [("user", QUESTION)]}, version="v2"):
        if item["event"] == "on_custom_event" and item["name"] in SHOWN:
            style = STYLE.get(item["name"], "default")
            line = escape(describe(item["data"]))
            console.print(f"  [{style}]{item['name']:<18}[/] {line}", highlight=False)
        elif item["event"] == "on_chain_end" and not item.get("parent_ids"):
            answer = str(item["data"]["output"]["messages"][-1].content)
    seconds = time.monotonic() - started
    console.print(f"[bold]Agent:[/] {answer}  [dim]({seconds:.2f} s)[/]")
    return seconds


async def countdown(router: SchemaRouter, console: Console, paths: list[str], seconds: float) -> None:
    """Cooldowns counting down: live on a terminal, then the last state printed once."""
    if console.is_terminal and not console.record:
        with Live(health_table(router, paths), console=console, refresh_per_second=8, transient=True) as live:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                await anyio.sleep(0.125)
                live.update(health_table(router, paths))
    else:  # piped or recorded: one line per tick
        for _ in range(int(seconds / 0.5)):
            left = router.inspect().execution.cooldowns
            console.print("  " + ",  ".join(f"{path}: {s:4.1f} s left" for path, s in sorted(left.items())))
            await anyio.sleep(0.5)
    console.print(health_table(router, paths))


async def run(console: Console) -> None:
    began = time.monotonic()
    with console.status("Starting the MP-like API and two OPTIMADE reference servers on loopback ..."):
        services = LocalLandscape().start()
    try:
        console.print(
            f"Services up in {time.monotonic() - began:.1f} s: {services.env['MP_API_URL']} (MP),"
            f" {services.env['OQMD_URL']} (OQMD), {services.env['ALEXANDRIA_URL']} (Alexandria)"
        )
        config: RouterConfig = load_config(services.config_path)
        router = await SchemaRouter.from_config(config)
        async with router:
            await story(router, config, services, console)
            leaked = services.api_key in router.inspect().model_dump_json()
            console.print(f"API key visible in inspect(): {leaked}")
    finally:
        services.stop()
    console.print(f"[bold]Demo finished in {time.monotonic() - began:.1f} s.[/]")


async def story(
    router: SchemaRouter, config: RouterConfig, services: LocalLandscape, console: Console
) -> None:
    tool = SchemaRouterTool(router=router, **config.tool.framework_options())
    with warnings.catch_warnings():  # LangGraph 1.x points to langchain.agents.create_agent
        warnings.simplefilter("ignore")
        from langgraph.prebuilt import create_react_agent

        agent = create_react_agent(ScriptedChemist(), [tool])
    request = config.tool.request(QUESTION, ARGUMENTS)
    plan = router.plan_executable(request)
    paths = [call.access_path for call in plan.calls]
    console.print(
        Panel.fit(
            f"Landscape {config.source}: routes {sorted(config.routes)}, tool {config.tool.name!r}"
            f" (scope={config.tool.scope}, max_fallbacks={config.tool.max_fallbacks})"
        )
    )
    for table in plan_table(plan):
        console.print(table)

    console.print("\n[bold red]Outage:[/] the Materials Project API now answers 503 to every search.")
    services.api.faults.always("503")
    first = await ask(agent, console, "Question 1, during the outage")
    await countdown(router, console, paths, 2.0)

    console.print("\nThe plan for the next question leaves the cooled route out:")
    for rejection in router.plan_executable(request).rejected:
        if rejection.access_path == "mp_api.search":
            console.print(f"  [dim]{rejection.access_path}:[/] {rejection.reason}")
    second = await ask(agent, console, "Question 2: the cooled route is skipped, no failed wait")
    console.print(f"Question 1 took {first:.2f} s (a failed route, retried); question 2 took {second:.2f} s.")

    console.print(
        "\n[bold green]Recovery:[/] the API is back; the trusted probe (GET search) reopens it early."
    )
    services.api.faults.clear()
    reopened = anyio.Event()

    def watch(event: Any) -> None:
        if event.type == "health.probe" and event.access_path == "mp_api.search":
            console.print(
                f"  health.probe       {event.access_path} ok={event.ok} ({event.duration_ms:.0f} ms)"
            )
        if event.type == "route.available":
            console.print(f"  [green]route.available[/]    {event.access_path}  reason={event.reason}")
            reopened.set()

    unsubscribe = router.subscribe(watch)
    await router.start_health_monitor(interval_seconds=3600, probe_timeout_seconds=2)
    with anyio.fail_after(10):
        await reopened.wait()
    await router.stop_health_monitor()
    unsubscribe()
    console.print(health_table(router, paths))
    await ask(agent, console, "Question 3, after recovery")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, help="also save the output as an SVG picture")
    options = parser.parse_args()
    console = Console(record=options.svg is not None, width=None if Console().is_terminal else 110)
    anyio.run(run, console)
    if options.svg is not None:
        console.save_svg(str(options.svg), title="schemarouter-integrations demo")
        print(f"saved {options.svg}")


if __name__ == "__main__":
    main()
