"""``make eval`` without the MP server's environment: MP is skipped with the reason, not failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.eval import __main__ as harness
from benchmarks.eval.corpus import load_questions
from benchmarks.eval.report import rows

MP_QUESTIONS = """\
document: mp
questions:
  - id: mp-trial-001
    ask: "band gap of silicon"
    arguments: {formula: Si}
    expect: {operations: [search_materials_summary__get], fields: [band_gap]}
    style: [plain]
    source: "a test of the harness"
"""


def test_mp_is_skipped_with_the_reason_when_its_environment_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mp.yaml").write_text(MP_QUESTIONS)
    monkeypatch.setattr(
        harness, "mp_unavailable", lambda: "no MP API server environment (run `make mp-venv`)"
    )
    said: list[str] = []

    outcomes = harness.run(load_questions(tmp_path), None, log=said.append)

    assert [(o.document, o.skipped) for o in outcomes] == [
        ("mp", "no MP API server environment (run `make mp-venv`)")
    ]
    assert said == ["mp: skipped (no MP API server environment (run `make mp-venv`))"]
    assert [r.name for r in rows(outcomes)] == ["**overall**"]  # a skipped document has no row
