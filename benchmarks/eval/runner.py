"""Ask every question of one document through the LangChain tool, as a model would.

The model passes ``query`` and the model-facing arguments the tool's schema shows, written as
that schema asks (:func:`~benchmarks.eval.scoring.conform`: ``"2244"`` where it takes text, a
list where it takes lists, an enum member in its own case) (plus,
when the schema takes a ``filters`` object, every other argument inside it). An argument the
schema does not take is left out and makes the question not expressible. The plan is the one
the tool itself makes for those values (same settings), timed alone; the answer is the tool's
``ToolMessage`` (its text and its artifact).
"""

from __future__ import annotations

import statistics
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import ValidationError

from benchmarks.eval.corpus import Question, QuestionFile, Step
from benchmarks.eval.scoring import (
    Record,
    conform,
    fields_carried,
    names_missing,
    operation_right,
    refused,
    resolve_arguments,
    value_right,
)
from benchmarks.eval.targets import Target
from schemarouter_integrations import SchemaRouter, SchemaRouterError
from schemarouter_integrations.langchain import SchemaRouterTool

CONTENT_KEPT = 600
"""Characters of the model-facing text kept per step in the JSON."""


@dataclass
class StepOutcome:
    ask: str
    arguments: dict[str, Any]
    given: dict[str, Any]
    not_shown: list[str]
    expressible: bool
    chained: bool
    expected: list[str]
    chosen: str | None
    right_operation: bool
    answered: bool
    fields_carried: bool
    value_right: bool | None
    unanswerable: bool
    needs_fields: bool
    names_missing: bool | None
    plan_ms: float | None
    plan_missing: list[str] = field(default_factory=list)
    plan_unmatched: list[str] = field(default_factory=list)
    records: int = 0
    content: str = ""


@dataclass
class QuestionOutcome:
    id: str
    document: str
    style: list[str]
    steps: list[StepOutcome]

    @property
    def right_operation(self) -> bool:
        return all(s.right_operation for s in self.steps)

    @property
    def expressible(self) -> bool:
        return all(s.expressible for s in self.steps)

    @property
    def value_right(self) -> bool | None:
        checked = [s.value_right for s in self.steps if s.value_right is not None]
        return None if not checked else all(checked)

    @property
    def names_missing(self) -> bool | None:
        checked = [s.names_missing for s in self.steps if s.names_missing is not None]
        return None if not checked else all(checked)

    @property
    def unanswerable(self) -> bool:
        return any(s.unanswerable for s in self.steps)

    @property
    def needs_fields(self) -> bool:
        return any(s.needs_fields for s in self.steps if not s.unanswerable)

    @property
    def fields_carried(self) -> bool:
        return all(s.fields_carried for s in self.steps if not s.unanswerable)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data |= {
            "right_operation": self.right_operation,
            "expressible": self.expressible,
            "value_right": self.value_right,
            "names_missing": self.names_missing,
            "fields_carried": self.fields_carried,
            "unanswerable": self.unanswerable,
            "needs_fields": self.needs_fields,
        }
        return data


@dataclass
class DocumentOutcome:
    document: str
    total_operations: int
    registered_operations: int
    registration_error: str | None
    questions: list[QuestionOutcome]
    skipped: str | None = None

    @property
    def plan_ms_median(self) -> float | None:
        times = [s.plan_ms for q in self.questions for s in q.steps if s.plan_ms is not None]
        return statistics.median(times) if times else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "document": self.document,
            "total_operations": self.total_operations,
            "registered_operations": self.registered_operations,
            "registration_error": self.registration_error,
            "skipped": self.skipped,
            "plan_ms_median": self.plan_ms_median,
            "questions": [q.as_dict() for q in self.questions],
        }


async def ask_document(
    target: Target, question_file: QuestionFile, only: set[str] | None = None
) -> DocumentOutcome:
    """Register *target* on a fresh router and ask its questions (those in *only*, if given)."""
    questions = [q for q in question_file.questions if only is None or q.id in only]
    try:
        router = await target.build()
    except SchemaRouterError as exc:
        message = f"{type(exc).__name__}: {exc}"
        outcomes = [_unregistered(q, target, message) for q in questions]
        return DocumentOutcome(question_file.document, target.total, 0, message[:500], outcomes)
    try:
        registered = sum(len(spec.endpoints) for spec in router.tools.values())
        tool = SchemaRouterTool(router=router)
        outcomes = [await _ask(tool, router, target, q) for q in questions]
    finally:
        await router.aclose()
    return DocumentOutcome(question_file.document, target.total, registered, None, outcomes)


def _expected(target: Target, step: Step) -> list[str]:
    return [target.aliases.get(label, label) for label in step.expect.operations]


def _unregistered(question: Question, target: Target, message: str) -> QuestionOutcome:
    steps = [
        StepOutcome(
            ask=s.ask,
            arguments=dict(s.arguments),
            given={},
            not_shown=sorted(s.arguments),
            expressible=not s.arguments,
            chained=True,
            expected=_expected(target, s),
            chosen=None,
            right_operation=False,
            answered=False,
            fields_carried=False,
            value_right=False if s.expect.value is not None else None,
            unanswerable=s.expect.unanswerable,
            needs_fields=bool(s.expect.fields),
            names_missing=False if s.expect.unanswerable else None,
            plan_ms=None,
            content=message[:CONTENT_KEPT],
        )
        for s in question.steps
    ]
    return QuestionOutcome(question.id, question.document, list(question.style), steps)


async def _ask(
    tool: SchemaRouterTool, router: SchemaRouter, target: Target, question: Question
) -> QuestionOutcome:
    earlier: list[list[Record]] = []
    steps = []
    for step in question.steps:
        outcome, records = await _ask_step(tool, router, target, step, earlier)
        steps.append(outcome)
        earlier.append(records)
    return QuestionOutcome(question.id, question.document, list(question.style), steps)


async def _ask_step(
    tool: SchemaRouterTool, router: SchemaRouter, target: Target, step: Step, earlier: list[list[Record]]
) -> tuple[StepOutcome, list[Record]]:
    arguments, chained = resolve_arguments(step.arguments, earlier)
    schema = tool.get_input_schema().model_json_schema()
    properties, defs = schema.get("properties") or {}, schema.get("$defs") or {}
    shown = set(properties) - {"query"}
    given = {k: conform(v, properties[k], defs) for k, v in arguments.items() if k in shown}
    rest = {k: v for k, v in arguments.items() if k not in shown}
    if rest and "filters" in shown:
        given["filters"] = rest
        rest = {}
    values = {"query": step.ask, **given}
    chosen, plan_ms, missing, unmatched = _plan(tool, router, values)
    call = {"type": "tool_call", "id": f"call_{uuid.uuid4().hex[:12]}", "name": tool.name, "args": values}
    message = await tool.ainvoke(call)
    answered = getattr(message, "status", "success") != "error"
    artifact = getattr(message, "artifact", None)
    records: list[Record] = list(getattr(artifact, "records", None) or []) if answered else []
    content = str(getattr(message, "content", message))
    expect = step.expect
    expected = _expected(target, step)
    if expect.unanswerable:
        right = refused(answered, missing, chosen)
        named: bool | None = names_missing(content, expect.missing, query=step.ask)
    else:
        right = operation_right(chosen, expected)
        named = None
    value = value_right(records, expect.value) if expect.value is not None else None
    outcome = StepOutcome(
        ask=step.ask,
        arguments=arguments,
        given=given,
        not_shown=sorted(rest),
        expressible=not rest,
        chained=chained,
        expected=expected,
        chosen=chosen,
        right_operation=right,
        answered=answered,
        fields_carried=fields_carried(records, expect.fields) if not expect.unanswerable else False,
        value_right=value,
        unanswerable=expect.unanswerable,
        needs_fields=bool(expect.fields),
        names_missing=named,
        plan_ms=plan_ms,
        plan_missing=missing,
        plan_unmatched=unmatched,
        records=len(records),
        content=content[:CONTENT_KEPT],
    )
    return outcome, records


def _plan(
    tool: SchemaRouterTool, router: SchemaRouter, values: dict[str, Any]
) -> tuple[str | None, float | None, list[str], list[str]]:
    """The endpoint the tool plans for *values*, the planning time (ms), ``missing``, ``unmatched``."""
    arguments = tool.arguments
    try:
        request = tool.options.request(values["query"], arguments.to_canonical(arguments.checked(values)))
    except ValidationError:
        return None, None, [], []
    started = time.perf_counter()
    try:
        plan = router.plan(request)
    except SchemaRouterError:
        return None, (time.perf_counter() - started) * 1000, [], []
    elapsed = (time.perf_counter() - started) * 1000
    chosen = plan.primary.endpoint if plan.primary is not None else None
    return chosen, elapsed, list(plan.missing), list(getattr(plan, "unmatched", []) or [])
