"""``make eval``'s smoke subset: the harness serves two real documents over loopback, asks a few
of their questions through the LangChain tool and writes its table and per-question JSON."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.eval.__main__ import main

QUESTIONS = ["spotify-001", "spotify-007", "spotify-021", "spotify-023", "crossbar-003", "crossbar-014"]


def test_the_harness_reports_a_few_questions_of_two_documents(tmp_path: Path) -> None:
    table, results = tmp_path / "EVAL.md", tmp_path / "latest.json"
    args = ["--docs", "spotify,crossbar", "--questions", ",".join(QUESTIONS)]
    assert main([*args, "--eval-md", str(table), "--json", str(results)]) == 0

    report = json.loads(results.read_text())
    documents = {d["document"]: d for d in report["documents"]}
    assert set(documents) == {"spotify", "crossbar"}
    for name, total in (("spotify", 88), ("crossbar", 13)):  # operations the documents describe
        assert documents[name]["total_operations"] == total
        assert 0 < documents[name]["registered_operations"] <= total
    asked = {q["id"]: q for d in documents.values() for q in d["questions"]}
    assert set(asked) == set(QUESTIONS)
    assert len(asked["spotify-023"]["steps"]) == 2  # a multi-step question asks each call
    for question in asked.values():
        for step in question["steps"]:
            assert step["plan_ms"] is None or step["plan_ms"] >= 0
            assert step["expressible"] == (not step["not_shown"])
    refusals = [q for q in asked.values() if q["unanswerable"]]
    assert len(refusals) == 2 and all(q["names_missing"] is not None for q in refusals)
    assert report["meta"]["questions"] == len(QUESTIONS)

    text = table.read_text()
    assert "| spotify | " in text and "| crossbar | " in text
    overall = next(line for line in text.splitlines() if line.startswith("| **overall**"))
    assert overall.split("|")[2].strip().endswith("/101")
    right = overall.split("|")[3]  # right operation, of the four answerable questions
    assert right.strip().split("/")[1].startswith("4 ")
