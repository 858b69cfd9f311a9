"""What the demo shows, as rich renderables built from plain data (no I/O, no clock).

Every piece of text is left to rich to wrap at word boundaries: nothing here slices a string
or sets ``no_wrap``, and no single word is longer than the narrowest supported terminal
(60 columns), so no width from 60 to 200 cuts a word. ``tests/integration/test_demo.py``
renders the demo's transcript at those widths and checks it.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.progress_bar import ProgressBar
from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from schemarouter_integrations import Plan, RouterEvent

EVENT_STYLE = {
    "tool.fallback": "bold magenta",
    "tool.hedge": "bold cyan",
    "tool.error": "red",
    "route.unavailable": "yellow",
    "route.available": "green",
    "health.probe": "green",
    "tool.end": "green",
}


@dataclass
class Side:
    """One contender of the race: its questions' latencies and what reached the hung primary."""

    name: str
    questions: int
    latencies: list[float] = field(default_factory=list)
    answered_by: Counter[str] = field(default_factory=Counter)
    primary_requests: int = 0  # requests the hung primary received

    @property
    def answered(self) -> int:
        return len(self.latencies)

    @property
    def total(self) -> float:
        return sum(self.latencies)

    def timeouts_waited(self, timeout: float) -> int:
        """Questions that waited (nearly) the whole client timeout, as the benchmarks count them."""
        return sum(seconds >= 0.95 * timeout for seconds in self.latencies)


class Fitted:
    """*wide* when it renders at the width it is given without cutting a word, else *narrow*.

    (A table's minimum measurement is no promise: rich shrinks the widest columns first, so
    the words of the rendering itself are compared with those of an unconstrained one.)
    """

    def __init__(self, wide: RenderableType, narrow: RenderableType) -> None:
        self.wide, self.narrow = wide, narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        unbounded = _words(console, options.update_width(UNBOUNDED), self.wide)
        yield self.narrow if unbounded - _words(console, options, self.wide) else self.wide


UNBOUNDED = 500
_GUIDES = re.compile(r"^[\u2500-\u259f]+$")  # box drawing and rules: not words


def _words(console: Console, options: ConsoleOptions, renderable: RenderableType) -> Counter[str]:
    lines = console.render_lines(renderable, options, pad=False)
    text = "\n".join("".join(segment.text for segment in line) for line in lines)
    return Counter(word for word in text.split() if not _GUIDES.match(word))


def heading(text: str) -> Rule:
    return Rule(Text(text, style="bold"), style="dim")


def intro(questions: int, timeout: float) -> Panel:
    text = Text.assemble(
        ("The primary data API hangs. ", "bold red"),
        "It accepts every request and never answers, so each call waits for the client's "
        f"{timeout} s timeout. Three LangChain runnables ask the same {questions} questions "
        "over the same loopback HTTP routes: ",
        ("with_fallbacks", "bold"),
        " (primary, then mirror, then a second provider), and ",
        ("SchemaRouterTool", "bold"),
        ", plain and hedged. No network, no LLM key.",
    )
    return Panel(text, title="schemarouter-integrations demo", title_align="left", border_style="blue")


def fallback_tree(plan: Plan, urls: dict[str, str]) -> Tree:
    """The compiled plan as a tree: the primary, each fallback under the one it backs up."""
    tree = Tree(Text.assemble(("Plan", "bold"), f" for need {plan.need}, fallback scope cross_provider"))
    node = tree
    for number, call in enumerate(plan.calls):
        role = "primary" if number == 0 else f"fallback {number} ({call.scope})"
        label = Text.assemble(
            (f"{role}: ", "bold" if number == 0 else "magenta"),
            (f"{call.tool}.{call.endpoint}", "bold"),
            f"  provider {call.provider}, {call.access_mode}, {urls.get(call.tool, '')}",
        )
        node = node.add(label)
    left_out = tree.add(Text("left out of the plan", style="dim"))
    for rejection in plan.rejected:
        left_out.add(Text(f"{rejection.tool}.{rejection.endpoint}: {rejection.reason}", style="dim"))
    return tree


def event_line(who: str, event: RouterEvent) -> Table:
    """One router event as a line of the log."""
    data: dict[str, Any] = event.model_dump()
    kind = event.type
    if kind in {"tool.fallback", "tool.hedge"}:
        detail = f"{data['from_tool']}.{data['from_endpoint']} -> {data['to_tool']}.{data['to_endpoint']}"
        if kind == "tool.fallback":
            detail += f"  scope {data['scope']}, reason {data['reason']}"
        else:
            detail += f"  after {data['after_seconds']} s without an answer"
    else:
        detail = f"{data['tool']}.{data['endpoint']}"
        if kind == "tool.error":
            detail += f"  {data['error_type']}: {data['error']}"
        elif kind == "route.unavailable":
            detail += f"  cooling down for {data['cooldown_seconds']:.0f} s"
        elif kind == "tool.end":
            detail += f"  {data['records']} record(s) in {data['duration_ms']:.0f} ms"
        elif kind == "health.probe":
            detail += f"  ok={data['ok']} in {data['duration_ms']:.0f} ms"
        elif kind == "route.available":
            detail += f"  reopened: {data['reason']}"
    line = Table.grid(padding=(0, 1))
    line.add_column(width=6, style="dim")
    line.add_column(width=17, style=EVENT_STYLE.get(kind, "default"))
    line.add_column()  # the detail wraps in its own column, under itself
    line.add_row(who, kind, detail)
    return line


def race(sides: list[Side]) -> Table:
    """The race as it runs: questions answered and time spent, per side."""
    table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    table.add_column("side", ratio=2)
    table.add_column("progress", ratio=2)
    table.add_column("answered", ratio=2)
    for side in sides:
        bar = ProgressBar(total=side.questions, completed=side.answered)
        table.add_row(side.name, bar, f"{side.answered} of {side.questions} answered in {side.total:.2f} s")
    return table


def _measures(sides: list[Side], timeout: float) -> list[tuple[str, list[str]]]:
    return [
        ("total time", [f"{s.total:.2f} s" for s in sides]),
        ("question 1", [f"{s.latencies[0] * 1000:.0f} ms" for s in sides]),
        ("questions 2+, median", [f"{statistics.median(s.latencies[1:]) * 1000:.1f} ms" for s in sides]),
        ("questions that waited for the timeout", [str(s.timeouts_waited(timeout)) for s in sides]),
        ("requests to the hung primary", [str(s.primary_requests) for s in sides]),
        (
            "answered by",
            ["\n".join(f"{n} x {route}" for route, n in s.answered_by.most_common()) for s in sides],
        ),
    ]


def results(sides: list[Side], timeout: float) -> Fitted:
    """The side-by-side result: one column per side (one small table per side when narrow)."""
    title = "The outage, side by side"
    wide = Table(title=title, title_justify="left", title_style="bold")
    wide.add_column("measure")
    for side in sides:
        wide.add_column(side.name, justify="right")
    measures = _measures(sides, timeout)
    for label, cells in measures:
        wide.add_row(label, *cells)
    narrow = []
    for number, side in enumerate(sides):
        table = Table(title=side.name, title_justify="left")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for label, cells in measures:
            table.add_row(label, cells[number])
        narrow.append(table)
    return Fitted(wide, Group(Text(title, style="bold"), *narrow))


def verdict(slow: Side, fast: Side, benchmark_ratio: str | None) -> Text:
    """The ratio of this run, and what the same per-question costs add up to over 100 questions."""
    measured = slow.total / fast.total
    slow_rest = statistics.median(slow.latencies[1:])
    fast_rest = statistics.median(fast.latencies[1:])
    projected = (slow.latencies[0] + 99 * slow_rest) / (fast.latencies[0] + 99 * fast_rest)
    text = Text.assemble(
        (f"{fast.name} answered the {fast.questions} questions {measured:.0f}x faster", "bold green"),
        f" than {slow.name}: it paid the timeout once, then left the cooled primary out of every "
        f"plan, while {slow.name} has no memory and paid it on every question. The gap grows with "
        f"every question: at these per-question costs, 100 questions take "
        f"{slow.latencies[0] + 99 * slow_rest:.0f} s against {fast.latencies[0] + 99 * fast_rest:.2f} s",
        (f" ({projected:.0f}x)", "bold"),
    )
    if benchmark_ratio:
        text.append(f"; benchmarks/outage_timeline_bench.py measures {benchmark_ratio} over 100 questions.")
    else:
        text.append(".")
    return text


def hedged(plain: Side, hedged: Side, after: float) -> Text:
    """What hedging adds: the first question no longer waits for the timeout."""
    return Text.assemble(
        (f"{hedged.name}: ", "bold"),
        f"question 1 took {hedged.latencies[0] * 1000:.0f} ms instead of {plain.latencies[0] * 1000:.0f} ms: "
        f"the mirror started after {after * 1000:.0f} ms without an answer from the primary.",
    )


def health(snapshot: Any, paths: list[str]) -> Fitted:
    """Route health: open, or cooling down with the seconds left and the reason (below the
    table when the terminal is narrow)."""
    reasons = {path: snapshot.cooldown_reasons.get(path) or "" for path in snapshot.cooldowns}

    def table(with_reasons: bool) -> Table:
        table = Table(title="Route health", title_justify="left", title_style="bold")
        for column in ("access path", "state", "cooldown left", *(["reason"] if with_reasons else [])):
            table.add_column(column)
        for path in paths:
            left = snapshot.cooldowns.get(path)
            state = Text("open", style="green") if left is None else Text("cooling down", style="yellow")
            cells: list[RenderableType] = [path, state, "-" if left is None else f"{left:.1f} s"]
            table.add_row(*cells, *([reasons.get(path, "")] if with_reasons else []))
        return table

    below = [Text(f"reason for {path}: {reason}") for path, reason in reasons.items() if path in paths]
    return Fitted(table(with_reasons=True), Group(table(with_reasons=False), *below))


def note(*parts: str | tuple[str, str]) -> Text:
    return Text.assemble(*parts)


def group(*items: RenderableType) -> Group:
    return Group(*items)
