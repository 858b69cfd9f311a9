"""The evaluation corpus holds together: every question names operations its document has,
arguments those operations take, and answers the document describes."""

from __future__ import annotations

import re

import pytest

from benchmarks.eval.corpus import (
    CORPUS,
    document_path,
    load_answers,
    load_document,
    load_questions,
    operation_labels,
)

FILES = load_questions()
OPENAPI = [doc for doc, f in FILES.items() if f.register.get("kind", "openapi") == "openapi" and doc != "mp"]


def shown(name: str) -> str:
    """A parameter's model-facing name (leading non-alphanumerics dropped, others made ``_``)."""
    return re.sub(r"\W", "_", re.sub(r"^[^A-Za-z0-9]+", "", name))


def parameters(doc: str) -> dict[str, set[str]]:
    document = load_document(document_path(doc))
    found = {}
    for method, path, label in operation_labels(document):
        item = document["paths"][path]
        raw = (item.get("parameters") or []) + (item[method].get("parameters") or [])
        names = set()
        for parameter in raw:
            if "$ref" in parameter:
                parameter = document["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
            names.add(shown(parameter["name"]))
        found[label] = names
    return found


def test_the_corpus_has_ten_documents_besides_mp_from_four_domains() -> None:
    documents = [d for d in FILES if d != "mp"]
    assert len(documents) >= 10
    domains = set()
    for doc in documents:
        text = (CORPUS / doc / "SOURCE.md").read_text()
        assert "Licence" in text or "licence" in text, doc
        assert "commit" in text or "npm package" in text, doc  # where it was taken from
        domains.add(re.search(r"Domain: ([a-zA-Z/]+)", text).group(1))  # type: ignore[union-attr]
    assert {"materials", "biology/medicine", "bibliographic", "SaaS"} <= domains


def test_there_are_150_questions_besides_mp() -> None:
    assert sum(len(f.questions) for d, f in FILES.items() if d != "mp") >= 150


def test_every_question_id_is_unique_across_files() -> None:
    ids = [q.id for f in FILES.values() for q in f.questions]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("doc", OPENAPI)
def test_expected_operations_and_arguments_are_the_documents_own(doc: str) -> None:
    taken = parameters(doc)
    for question in FILES[doc].questions:
        for step in question.steps:
            for label in step.expect.operations:
                assert label in taken, f"{question.id}: {label} is not an operation of {doc}"
            if step.expect.operations:
                assert any(set(step.arguments) <= taken[label] for label in step.expect.operations), (
                    f"{question.id}: no expected operation takes {sorted(step.arguments)}"
                )


@pytest.mark.parametrize("doc", OPENAPI)
def test_served_answers_are_for_operations_the_document_has(doc: str) -> None:
    labels = {label for _, _, label in operation_labels(load_document(document_path(doc)))}
    assert set(load_answers(doc)) <= labels


def test_unanswerable_questions_name_what_is_missing() -> None:
    for question_file in FILES.values():
        for question in question_file.questions:
            for step in question.steps:
                assert step.expect.operations or step.expect.missing, question.id
