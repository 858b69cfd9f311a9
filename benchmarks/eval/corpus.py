"""The evaluation corpus: real documents, their served data and the questions asked of them.

Layout (``benchmarks/eval/``): ``corpus/<doc>/`` holds the document as published
(``openapi.json`` or ``openapi.yaml``), ``SOURCE.md`` and optionally ``data/*.json`` (answers the
loopback server gives: ``{"operation": <operationId or "get /path">, "source": ..., "body": ...}``);
``questions/<doc>.yaml`` holds the questions (format: ``benchmarks/eval/README.md``).
:func:`load_questions` reads and checks them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
QUESTIONS = HERE / "questions"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
STYLES = frozenset(
    [
        "plural",
        "abbreviation",
        "compound",
        "hyphenation",
        "resource-word",
        "multi-subject",
        "constraint",
        "sorted",
        "unanswerable",
        "multi-step",
        "plain",
    ]
)


class CorpusError(ValueError):
    """A question file or corpus folder that does not follow the format."""


@dataclass(frozen=True)
class ValueRule:
    """Where the served data holds the answer: ``field`` of the record ``where`` matches."""

    field: str
    equals: Any = None
    contains: tuple[Any, ...] | None = None
    approx: float | None = None
    tolerance: float = 0.0
    where: dict[str, Any] = dataclass_field(default_factory=dict)


@dataclass(frozen=True)
class Expectation:
    operations: tuple[str, ...]
    fields: tuple[str, ...] = ()
    value: ValueRule | None = None
    missing: tuple[str, ...] = ()
    """For a question no operation answers: what the refusal must name."""

    @property
    def unanswerable(self) -> bool:
        return not self.operations


@dataclass(frozen=True)
class Step:
    ask: str
    arguments: dict[str, Any]
    expect: Expectation


@dataclass(frozen=True)
class Question:
    id: str
    document: str
    steps: tuple[Step, ...]
    style: tuple[str, ...]
    source: str

    @property
    def multi_step(self) -> bool:
        return len(self.steps) > 1


@dataclass(frozen=True)
class QuestionFile:
    document: str
    register: dict[str, Any]
    questions: tuple[Question, ...]


def _expectation(raw: Any, where: str) -> Expectation:
    if not isinstance(raw, dict) or "operations" not in raw:
        raise CorpusError(f"{where}: expect needs operations")
    value = raw.get("value")
    rule = None
    if value is not None:
        if "field" not in value or not ({"equals", "contains", "approx"} & set(value)):
            raise CorpusError(f"{where}: value needs field and one of equals/contains/approx")
        contains = value.get("contains")
        rule = ValueRule(
            field=str(value["field"]),
            equals=value.get("equals"),
            contains=tuple(contains) if contains is not None else None,
            approx=float(value["approx"]) if value.get("approx") is not None else None,
            tolerance=float(value.get("tolerance", 0.0)),
            where=dict(value.get("where") or {}),
        )
    refusal = raw.get("refusal") or {}
    operations = tuple(str(o) for o in raw.get("operations") or ())
    missing = tuple(str(m) for m in refusal.get("missing") or ())
    if not operations and not missing:
        raise CorpusError(f"{where}: a question without operations must name what is missing")
    return Expectation(operations, tuple(str(f) for f in raw.get("fields") or ()), rule, missing)


def _question(raw: dict[str, Any], document: str, where: str) -> Question:
    qid = raw.get("id")
    if not isinstance(qid, str):
        raise CorpusError(f"{where}: every question needs an id")
    where = f"{where} {qid}"
    raw_steps = raw.get("steps") or [raw]
    steps = tuple(
        Step(str(s["ask"]), dict(s.get("arguments") or {}), _expectation(s.get("expect"), where))
        for s in raw_steps
    )
    style = raw.get("style") or ["plain"]
    style = (style,) if isinstance(style, str) else tuple(style)
    unknown = set(style) - STYLES
    if unknown:
        raise CorpusError(f"{where}: unknown style {sorted(unknown)}")
    return Question(qid, document, steps, style, str(raw.get("source", "")))


def load_question_file(path: Path) -> QuestionFile:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "document" not in data:
        raise CorpusError(f"{path.name}: needs a document key")
    document = str(data["document"])
    questions = tuple(_question(q, document, path.name) for q in data.get("questions") or ())
    ids = [q.id for q in questions]
    if len(ids) != len(set(ids)):
        raise CorpusError(f"{path.name}: duplicate question ids")
    return QuestionFile(document, dict(data.get("register") or {}), questions)


def load_questions(folder: Path = QUESTIONS) -> dict[str, QuestionFile]:
    """Every question file by document name (``mp`` included when present)."""
    files = {}
    for path in sorted(folder.glob("*.yaml")):
        loaded = load_question_file(path)
        files[loaded.document] = loaded
    return files


# -- documents -------------------------------------------------------------------------------
def document_path(doc: str, corpus: Path = CORPUS) -> Path:
    for name in ("openapi.json", "openapi.yaml"):
        if (corpus / doc / name).is_file():
            return corpus / doc / name
    raise CorpusError(f"corpus/{doc} has no openapi.json or openapi.yaml")


def load_document(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    if not isinstance(data, dict):
        raise CorpusError(f"{path} is not a document")
    return data


def operation_labels(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(method, path, label)`` of every operation; the label is the operationId, else
    ``"<method> <path>"`` (how the question files name an operation without one)."""
    found = []
    for path, item in (document.get("paths") or {}).items():
        for method in METHODS:
            operation = (item or {}).get(method)
            if isinstance(operation, dict):
                original = operation.get("operationId")
                label = original if isinstance(original, str) and original else f"{method} {path}"
                found.append((method, str(path), label))
    return found


@dataclass(frozen=True)
class Answer:
    """One served answer: the body the loopback server gives for an operation."""

    operation: str
    body: Any
    source: str


def load_answers(doc: str, corpus: Path = CORPUS) -> dict[str, Answer]:
    """The vendored answers of *doc* by operation label."""
    answers: dict[str, Answer] = {}
    for path in sorted((corpus / doc / "data").glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or "operation" not in raw or "body" not in raw:
            raise CorpusError(f"{path}: needs operation and body")
        answers[str(raw["operation"])] = Answer(
            str(raw["operation"]), raw["body"], str(raw.get("source", ""))
        )
    return answers


TEMPLATE = re.compile(r"\{steps\[(\d+)\]\.([A-Za-z0-9_.-]+?)(?:\[(\d+)\])?(?:\|([^}]*))?\}")
"""``{steps[0].material_id}`` (every value the earlier answer holds), ``{steps[0].id[0]}`` (the
first one) and, with the value used when the earlier answer lacks it, ``{steps[0].id[0]|mp-149}``."""
