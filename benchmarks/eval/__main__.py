"""``make eval``: ask every corpus question through the LangChain tool and report.

``python -m benchmarks.eval [--docs a,b] [--questions id,id] [--questions-dir DIR] [--eval-md PATH]
[--json PATH]``. MP (``questions/mp.yaml``) is asked of the MP API server of
:class:`~cookbook.services.materials_project.landscape.MPLandscape` when its environment exists
(``make mp-venv``), and skipped with the reason otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio

from benchmarks.eval.corpus import CORPUS, QUESTIONS, QuestionFile, load_questions
from benchmarks.eval.report import (
    EVAL_MD,
    RESULTS,
    markdown_table,
    results_json,
    rows,
    write_json,
    write_reports,
)
from benchmarks.eval.runner import DocumentOutcome, ask_document
from benchmarks.eval.server import CorpusServer
from benchmarks.eval.targets import (
    MPTarget,
    OpenApiTarget,
    OptimadeTarget,
    Target,
    mp_unavailable,
    optimade_server,
    register_options,
)

MP = "mp"
OPTIMADE = "optimade"


def _commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "unknown"


EVAL_CALL_TIMEOUT_SECONDS = 30.0
"""Each MP route's call timeout in the evaluation."""


@contextlib.contextmanager
def _mp_landscape() -> Iterator[Any]:
    from cookbook.services.materials_project.landscape import MPLandscape

    # the eval scores the reading of questions, not latency: on a loaded machine a 2 s call
    # timeout cools MP's routes down and every later question reads as a wrong operation
    with MPLandscape(call_timeout=EVAL_CALL_TIMEOUT_SECONDS) as landscape:
        yield landscape


def _kind(question_file: QuestionFile) -> str:
    if question_file.document == MP:
        return MP
    return str(question_file.register.get("kind", "openapi"))


def run(files: dict[str, QuestionFile], only: set[str] | None, log: Any = print) -> list[DocumentOutcome]:
    """Serve, register and ask every document of *files*; MP last (its server starts slowest)."""
    outcomes: list[DocumentOutcome] = []
    openapi = [d for d, f in files.items() if _kind(f) == "openapi"]
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(CorpusServer(openapi, CORPUS)) if openapi else None
        for doc, question_file in files.items():
            kind = _kind(question_file)
            target: Target
            if kind == "openapi":
                assert server is not None
                target = OpenApiTarget(doc, server, register_options(question_file))
            elif kind == "optimade":
                target = OptimadeTarget(doc, stack.enter_context(optimade_server()))
            elif kind == MP:
                continue
            else:
                raise SystemExit(f"{doc}: unknown register kind {kind!r}")
            outcomes.append(_ask(target, question_file, only, log))
    if MP in files:
        reason = mp_unavailable()
        if reason is not None:
            log(f"mp: skipped ({reason})")
            outcomes.append(DocumentOutcome(MP, 0, 0, None, [], skipped=reason))
        else:
            with _mp_landscape() as landscape:
                routes = tuple(files[MP].register.get("routes") or ("mp_api",))
                outcomes.append(_ask(MPTarget(MP, landscape, routes), files[MP], only, log))
    return outcomes


def _ask(target: Target, question_file: QuestionFile, only: set[str] | None, log: Any) -> DocumentOutcome:
    started = time.perf_counter()
    outcome = anyio.run(ask_document, target, question_file, only)
    right = sum(q.right_operation for q in outcome.questions)
    log(
        f"{target.name}: {outcome.registered_operations}/{outcome.total_operations} registered, "
        f"{right}/{len(outcome.questions)} right, {time.perf_counter() - started:.1f} s"
    )
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.eval", description=__doc__)
    parser.add_argument("--docs", help="comma-separated documents (default: every question file)")
    parser.add_argument("--questions", help="comma-separated question ids (default: all)")
    parser.add_argument("--questions-dir", type=Path, default=QUESTIONS, help="the question files")
    parser.add_argument("--eval-md", type=Path, default=EVAL_MD, help="where the table goes")
    parser.add_argument("--json", type=Path, default=RESULTS, help="where the per-question JSON goes")
    options = parser.parse_args(argv)
    files = load_questions(options.questions_dir)
    if options.docs:
        wanted = options.docs.split(",")
        unknown = set(wanted) - set(files)
        if unknown:
            parser.error(f"no question file for {sorted(unknown)}")
        files = {d: files[d] for d in wanted}
    only = set(options.questions.split(",")) if options.questions else None
    started = time.perf_counter()
    documents = run(files, only)
    seconds = time.perf_counter() - started
    asked = [d for d in documents if d.skipped is None]
    meta = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _commit(),
        "questions": sum(len(d.questions) for d in asked),
        "documents": len(asked),
        "seconds": seconds,
    }
    write_json(results_json(documents, meta), options.json)
    write_reports(documents, meta, eval_md=options.eval_md)
    print()
    print("\n".join(markdown_table(rows(documents))))
    print(
        f"\n{meta['questions']} questions, {meta['documents']} documents, {seconds:.0f} s; "
        f"wrote {options.eval_md} and {options.json}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
