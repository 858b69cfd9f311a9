"""What the demo shows, as rich renderables built from plain data (no I/O, no clock).

Every piece of text is left to rich to wrap at word boundaries: nothing here slices a string
or sets ``no_wrap``, and no single word is longer than the narrowest supported terminal
(60 columns), so no width from 60 to 200 cuts a word. ``tests/integration/test_demo.py``
renders the demo's transcript at those widths and checks it.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
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


Cell = str | Text


class FittedTable:
    """A table whose column widths are chosen for the width it is given, so that no word is cut
    (rich alone shrinks the widest columns first, below their longest word); *narrow* instead
    when even the longest words of the columns do not fit side by side."""

    def __init__(
        self, title: str, headers: list[str], rows: list[list[Cell]], narrow: RenderableType, right: int = 0
    ) -> None:
        self.title, self.headers, self.rows, self.narrow = title, headers, rows, narrow
        self.right = right  # the last *right* columns are right-justified (numbers)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widths = column_widths(
            [[h, *(row[i] for row in self.rows)] for i, h in enumerate(self.headers)], options.max_width
        )
        if widths is None:
            yield self.narrow
            return
        table = Table(title=self.title, title_justify="left", title_style="bold")
        for index, (header, width) in enumerate(zip(self.headers, widths, strict=True)):
            right = index >= len(self.headers) - self.right
            table.add_column(header, width=width, justify="right" if right else "left")
        for row in self.rows:
            table.add_row(*row)
        yield table


def column_widths(columns: list[list[Cell]], max_width: int) -> list[int] | None:
    """Content widths for *columns* (header and cells) in a boxed table of *max_width*: each at
    least its longest word, the room left going to the first column (the row labels), then to
    the columns closest to their longest line; None if the longest words alone do not fit."""
    texts = [[cell.plain if isinstance(cell, Text) else cell for cell in column] for column in columns]
    shortest = [max([cell_len(word) for cell in column for word in cell.split()] or [1]) for column in texts]
    longest = [
        max([cell_len(line) for cell in column for line in cell.splitlines()] or [1]) for column in texts
    ]
    room = max_width - (len(columns) + 1) - 2 * len(columns)  # borders, and one space each side
    if sum(shortest) > room:
        return None
    widths, spare = list(shortest), room - sum(shortest)
    rest = sorted(range(1, len(columns)), key=lambda i: longest[i] - shortest[i])
    for index in [0, *rest]:  # the row labels first, then the most nearly whole columns
        grow = min(max(longest[index] - shortest[index], 0), spare)
        widths[index] += grow
        spare -= grow
    return widths


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
            (f"\nprovider {call.provider}, {call.access_mode}, {urls.get(call.tool, '')}", "dim"),
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
        ("waited for the timeout", [str(s.timeouts_waited(timeout)) for s in sides]),
        ("requests to the hung primary", [str(s.primary_requests) for s in sides]),
        (
            "answered by",
            ["\n".join(f"{n} x {route}" for route, n in s.answered_by.most_common()) for s in sides],
        ),
    ]


def results(sides: list[Side], timeout: float) -> FittedTable:
    """The side-by-side result: one column per side (one small table per side when narrow)."""
    title = "The outage, side by side"
    measures = _measures(sides, timeout)
    narrow = []
    for number, side in enumerate(sides):
        table = Table(title=side.name, title_justify="left")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for label, cells in measures:
            table.add_row(label, cells[number])
        narrow.append(table)
    rows: list[list[Cell]] = [[label, *cells] for label, cells in measures]
    headers = ["measure", *(side.name for side in sides)]
    return FittedTable(title, headers, rows, Group(Text(title, style="bold"), *narrow), right=len(sides))


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


def hedged(plain: Side, hedged: Side, after: float, timeout: float) -> Text:
    """What hedging adds: the first question no longer waits for the timeout."""
    return Text.assemble(
        (f"{hedged.name}: ", "bold"),
        f"question 1 took {hedged.latencies[0] * 1000:.0f} ms instead of {plain.latencies[0] * 1000:.0f} ms: "
        f"the mirror started after {after * 1000:.0f} ms without an answer from the primary. The calls "
        "left with the hung primary finish in the background and the first timeout cools it, so it got "
        f"{hedged.primary_requests} request(s) in the meantime, and {hedged.timeouts_waited(timeout)} "
        "question(s) waited for the timeout.",
    )


def health(snapshot: Any, paths: list[str]) -> FittedTable:
    """Route health: open, or cooling down with the seconds left and the reason (below the
    table when the terminal is narrow)."""
    title = "Route health"
    reasons = {path: snapshot.cooldown_reasons.get(path) or "" for path in snapshot.cooldowns}
    rows: list[list[Cell]] = []
    for path in paths:
        left = snapshot.cooldowns.get(path)
        if left is None:
            rows.append([path, Text("open", style="green"), "-", ""])
        else:
            rows.append([path, Text("cooling down", style="yellow"), f"{left:.1f} s", reasons[path]])
    headers = ["access path", "state", "cooldown left", "reason"]
    narrow = Table(title=title, title_justify="left", title_style="bold")
    for header in headers[:3]:
        narrow.add_column(header)
    for row in rows:
        narrow.add_row(*row[:3])
    below = [Text(f"reason for {path}: {reason}") for path, reason in reasons.items() if path in paths]
    return FittedTable(title, headers, rows, Group(narrow, *below))


def note(*parts: str | tuple[str, str]) -> Text:
    return Text.assemble(*parts)


def group(*items: RenderableType) -> Group:
    return Group(*items)
