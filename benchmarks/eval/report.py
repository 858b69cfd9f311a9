"""The report of one ``make eval`` run: the table, ``benchmarks/EVAL.md``, the docs page and plot,
and the per-question JSON (for diffing two runs)."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.eval.runner import DocumentOutcome, QuestionOutcome

ROOT = Path(__file__).resolve().parents[2]
EVAL_MD = ROOT / "benchmarks" / "EVAL.md"
RESULTS = ROOT / "benchmarks" / "eval" / "results" / "latest.json"
DOCS_PAGE = ROOT / "docs" / "evaluation.md"
PLOT = ROOT / "docs" / "assets" / "eval.png"


@dataclass(frozen=True)
class Ratio:
    right: int
    asked: int

    def __str__(self) -> str:
        if not self.asked:
            return "-"
        return f"{self.right}/{self.asked} ({100 * self.right / self.asked:.0f}%)"

    @property
    def share(self) -> float:
        return self.right / self.asked if self.asked else 0.0


@dataclass(frozen=True)
class Row:
    name: str
    registered: str
    right_operation: Ratio
    right_value: Ratio
    expressible: Ratio
    refusals: Ratio
    fields: Ratio
    plan_ms: float | None

    def cells(self) -> list[str]:
        plan = "-" if self.plan_ms is None else f"{self.plan_ms:.2f}"
        return [
            self.name,
            self.registered,
            str(self.right_operation),
            str(self.right_value),
            str(self.expressible),
            str(self.refusals),
            str(self.fields),
            plan,
        ]


HEADER = [
    "document",
    "registered ops / all",
    "right operation",
    "right value",
    "expressible",
    "refusals naming what is missing",
    "needed fields carried",
    "plan ms (median)",
]


def row(name: str, registered: str, questions: list[QuestionOutcome], plan_ms: float | None) -> Row:
    answerable = [q for q in questions if not q.unanswerable]
    valued = [q for q in questions if q.value_right is not None]
    refusing = [q for q in questions if q.names_missing is not None]
    needing = [q for q in answerable if q.needs_fields]
    return Row(
        name,
        registered,
        Ratio(sum(q.right_operation for q in answerable), len(answerable)),
        Ratio(sum(bool(q.value_right) for q in valued), len(valued)),
        Ratio(sum(q.expressible for q in questions), len(questions)),
        Ratio(sum(bool(q.names_missing) for q in refusing), len(refusing)),
        Ratio(sum(q.fields_carried for q in needing), len(needing)),
        plan_ms,
    )


def rows(documents: list[DocumentOutcome]) -> list[Row]:
    """One row per asked document and the overall row."""
    asked = [d for d in documents if d.skipped is None]
    table = [
        row(d.document, f"{d.registered_operations}/{d.total_operations}", d.questions, d.plan_ms_median)
        for d in asked
    ]
    times = [s.plan_ms for d in asked for q in d.questions for s in q.steps if s.plan_ms is not None]
    registered = sum(d.registered_operations for d in asked)
    total = sum(d.total_operations for d in asked)
    every = [q for d in asked for q in d.questions]
    table.append(
        row("**overall**", f"{registered}/{total}", every, statistics.median(times) if times else None)
    )
    return table


def markdown_table(table: list[Row]) -> list[str]:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in table]
    return lines


def failure(question: QuestionOutcome, registered: bool = True) -> str | None:
    """What went wrong first, read off the outcome (the mechanical class of a failure)."""
    if not registered:
        return "document not registered"
    for step in question.steps:
        if step.unanswerable:
            if not step.right_operation:
                return "answered a question no operation answers (with other data)"
            if not step.names_missing:
                return "refused, but without naming what is missing"
        elif step.chosen is None and step.plan_ms is None:
            return "arguments rejected by the tool's schema"
        elif step.chosen is None:
            return "no route for an answerable question"
        elif not step.right_operation:
            return "wrong operation"
        elif step.value_right is False:
            return "right operation, expected value not in the answer"
        elif step.needs_fields and not step.fields_carried:
            return "right operation, needed fields not in the answer"
    return None


def failure_counts(documents: list[DocumentOutcome]) -> Counter[str]:
    return Counter(
        c
        for d in documents
        for q in d.questions
        if (c := failure(q, registered=d.registration_error is None)) is not None
    )


def style_rows(documents: list[DocumentOutcome]) -> list[str]:
    """Right operation (answerable steps) and expressible, by question style."""
    counts: dict[str, list[int]] = {}
    for d in documents:
        for q in d.questions:
            for style in q.style:
                entry = counts.setdefault(style, [0, 0, 0])
                entry[0] += int(q.right_operation)
                entry[1] += 1
                entry[2] += int(q.expressible)
    lines = ["| style | questions | right operation (or refusal) | expressible |", "|---|---|---|---|"]
    for style, (right, asked, expressible) in sorted(counts.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"| {style} | {asked} | {Ratio(right, asked)} | {Ratio(expressible, asked)} |")
    return lines


def results_json(documents: list[DocumentOutcome], meta: dict[str, Any]) -> dict[str, Any]:
    return {"meta": meta, "documents": [d.as_dict() for d in documents]}


def write_json(data: dict[str, Any], path: Path = RESULTS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True, default=str) + "\n")
    return path


def body(documents: list[DocumentOutcome], meta: dict[str, Any]) -> list[str]:
    """The report's text below its title (shared by ``EVAL.md`` and the docs page)."""
    table = rows(documents)
    lines = [
        f"Run of {meta['date']} on commit `{meta['commit']}`: {meta['questions']} questions over "
        f"{meta['documents']} documents in {meta['seconds']:.0f} s.",
        "",
        *markdown_table(table),
        "",
        "- *registered ops / all*: the endpoints the router registered from the document, of the "
        "operations it describes (OPTIMADE: entry types).",
        "- *right operation*: the operation the router planned is one the question file expects "
        "(answerable questions; a multi-step question counts when every call is right).",
        "- *right value*: the answer carries the expected value (questions whose served data holds it).",
        "- *expressible*: every argument the question needs is one the tool's schema lets the model pass.",
        "- *refusals naming what is missing*: for questions no operation answers, the text the "
        "model reads names what is missing.",
        "- *needed fields carried*: every field the question needs is in the answer's records "
        "(questions that name the fields they need).",
        "- *plan ms*: the router planning the tool's request alone (median over all calls).",
    ]
    skipped = [d for d in documents if d.skipped is not None]
    if skipped:
        lines += ["", "Skipped: " + "; ".join(f"`{d.document}` ({d.skipped})" for d in skipped) + "."]
    failures = failure_counts(documents)
    if failures:
        lines += ["", "## What went wrong first", "", "| failure | questions |", "|---|---|"]
        lines += [f"| {name} | {count} |" for name, count in failures.most_common()]
    lines += ["", "## By question style", "", *style_rows([d for d in documents if d.skipped is None])]
    errors = [d for d in documents if d.registration_error]
    if errors:
        lines += ["", "## Documents that did not register", ""]
        lines += [f"- `{d.document}`: {d.registration_error}" for d in errors]
    return lines


def write_reports(documents: list[DocumentOutcome], meta: dict[str, Any], *, eval_md: Path = EVAL_MD) -> Path:
    """``benchmarks/EVAL.md``, the docs page and the plot (the plot needs matplotlib)."""
    lines = body(documents, meta)
    intro = [
        "# Evaluation: real documents, real questions",
        "",
        "Written by `make eval` (`python -m benchmarks.eval`); nothing here is edited by hand. "
        "Every question is asked through the LangChain tool as a model asks it: the query and "
        "only the arguments the tool's schema shows.",
        "",
    ]
    eval_md.write_text("\n".join([*intro, *lines]) + "\n")
    if eval_md == EVAL_MD:
        plotted = _plot(rows(documents))
        page = [*intro]
        if plotted:
            page += ["![right operation, value, expressible and refusals per document](assets/eval.png)", ""]
        page += [*lines, "", *_format_notes()]
        DOCS_PAGE.write_text("\n".join(page) + "\n")
    return eval_md


def _format_notes() -> list[str]:
    return [
        "## The corpus",
        "",
        "`benchmarks/eval/corpus/<document>/` holds each real document as published, with "
        "`SOURCE.md` (repository, commit, path, licence) and `data/` (the answers the loopback "
        "server gives where a question checks a value). `benchmarks/eval/questions/<document>.yaml` "
        "holds the questions: each with the query, the arguments an agent passes, the operations "
        "that answer it, the fields it needs, and the expected value where the served data holds "
        "it; questions no operation answers name what the refusal must say is missing; "
        "multi-step questions are the calls an agent makes, each using the ids of the earlier "
        "answer. Questions are never edited to pass; a question found wrong is fixed in a commit "
        "of its own that says why.",
        "",
        "Run `make eval` (or `python -m benchmarks.eval --help` for one document or question); "
        "`benchmarks/eval/results/latest.json` holds every question's outcome for diffing two runs.",
    ]


def _plot(table: list[Row]) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = [r.name.replace("*", "") for r in table]
    series = [
        ("right operation", [r.right_operation for r in table]),
        ("right value", [r.right_value for r in table]),
        ("expressible", [r.expressible for r in table]),
        ("refusal names what is missing", [r.refusals for r in table]),
    ]
    figure, axes = plt.subplots(figsize=(10, 4.5))
    width = 0.2
    for index, (label, ratios) in enumerate(series):
        xs = [i + (index - 1.5) * width for i in range(len(names))]
        axes.bar(xs, [100 * r.share if r.asked else 0 for r in ratios], width, label=label)
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
    axes.set_ylabel("% of questions")
    axes.set_ylim(0, 120)
    axes.legend(fontsize=7, ncols=4, loc="upper center")
    axes.set_title("make eval: the router's reading of real questions, per document")
    figure.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(PLOT, dpi=110)
    plt.close(figure)
    return True
