"""Registration time of real OpenAPI documents (``add_url(kind="openapi")`` over loopback HTTP).

Documents: GitHub's REST description (1,078 operations; JSON form, whole and with
``operations=`` of 3), Stripe's (588 operations, JSON form), Petstore; plus the YAML parse
of GitHub's and Stripe's documents on their own (the package's loader: libyaml's
``CSafeLoader`` when PyYAML has it). They are downloaded once into ``.cache/documents/`` (see
``tests/support/documents.py``). Medians of a few repeats after one warm-up; the memos of
schema checks are emptied before each run, so every run pays what a first registration in a
fresh process pays (registering the same document again is faster).

``--tree PATH`` measures the package found at PATH instead of this checkout's;
``--compare PATH`` runs the same measurements on PATH in a subprocess and prints both side
by side (e.g. a ``git worktree add /tmp/wt-reg-before fb722d3`` of the code before).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GITHUB_FEW = ["issues/list-for-repo", "repos/get", "pulls/list"]
real_documents: Callable[[], dict[str, Path]]
TARGETS = {"github.json": 3.0, "github.json (3 operations)": 0.5}


def _serve(directory: Path) -> tuple[ThreadingHTTPServer, str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def _forget_checked_schemas() -> None:
    """Empty the process-wide memos of schema checks, so each run pays what a first one does."""
    from schemarouter_integrations._bounded import BoundedCache
    from schemarouter_integrations._contracts import schemas

    for value in vars(schemas).values():
        if isinstance(value, BoundedCache):
            value.clear()


def _median(run: Callable[[], Awaitable[Any]] | Callable[[], Any], repeats: int) -> float:
    samples = []
    for index in range(repeats + 1):
        _forget_checked_schemas()
        start = time.perf_counter()
        outcome = run()
        if asyncio.iscoroutine(outcome):
            asyncio.run(outcome)
        if index:  # the first run warms up imports and caches
            samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def measure(repeats: int) -> dict[str, Any]:
    """Seconds per case (median) and the GitHub document's distinct arguments and fields."""
    from schemarouter_integrations import SchemaRouter
    from schemarouter_integrations.adapters._documents import parse_document

    documents = real_documents()
    server, url = _serve(documents["github.json"].parent)
    counts: dict[str, int] = {}

    def register(name: str, **options: Any) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            async with SchemaRouter() as router:
                spec = await router.add_url(
                    f"{url}/{name}", kind="openapi", name="bench", base_url=url, **options
                )
            if name == "github.json" and not options:
                counts["endpoints"] = len(spec.endpoints)
                counts["arguments"] = len({a for e in spec.endpoints for a in e.argument_names})
                counts["fields"] = len({f.name for e in spec.endpoints for f in e.fields})

        return run

    def parse(name: str) -> Callable[[], Any]:
        body = documents[name].read_bytes()
        return lambda: parse_document(body, where=name)

    def safe_load(name: str) -> Callable[[], Any]:
        import yaml

        body = documents[name].read_bytes()
        return lambda: yaml.load(body, Loader=yaml.CSafeLoader)

    cases: dict[str, Callable[[], Any]] = {
        "github.json": register("github.json"),
        "github.json (3 operations)": register("github.json", operations=GITHUB_FEW),
        "stripe.json": register("stripe.json"),
        "petstore-v3.yaml": register("petstore-v3.yaml"),
        "github.yaml": register("github.yaml"),
        "github.yaml: YAML parse only": parse("github.yaml"),
        "github.yaml: CSafeLoader alone": safe_load("github.yaml"),
        "stripe.yaml: YAML parse only": parse("stripe.yaml"),
    }
    try:
        seconds = {case: _median(run, repeats) for case, run in cases.items()}
    finally:
        server.shutdown()
    import yaml

    return {"seconds": seconds, "counts": counts, "libyaml": bool(getattr(yaml, "__with_libyaml__", False))}


def _table(results: dict[str, dict[str, Any]]) -> None:
    labels = list(results)
    print(f"{'case':<32}" + "".join(f"{label:>14}" for label in labels) + "   target")
    for case in next(iter(results.values()))["seconds"]:
        cells = "".join(f"{results[label]['seconds'][case]:>13.3f}s" for label in labels)
        target = TARGETS.get(case)
        print(f"{case:<32}{cells}   {f'< {target} s' if target else ''}")
    for label, outcome in results.items():
        counts = outcome["counts"]
        print(
            f"{label}: GitHub gives {counts.get('endpoints')} endpoints, {counts.get('arguments')} distinct "
            f"canonical arguments, {counts.get('fields')} distinct fields; libyaml={outcome['libyaml']}"
        )


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, help="measure the package of this checkout instead")
    parser.add_argument("--compare", type=Path, help="also measure this checkout, side by side")
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("SCHEMAROUTER_BENCH_REPEATS", "3")))
    parser.add_argument("--json", action="store_true", help="print the results as JSON only")
    args = parser.parse_args(argv if argv is not None else [])
    sys.path.insert(0, str(ROOT))
    global real_documents
    from tests.support.documents import real_documents  # this checkout's, whatever --tree says

    sys.path.insert(0, str(args.tree or ROOT))  # the package measured
    results: dict[str, dict[str, Any]] = {}
    if args.compare is not None:
        command = [sys.executable, __file__, "--tree", str(args.compare), "--repeats", str(args.repeats)]
        command.append("--json")
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        results[f"{args.compare.name}"] = json.loads(done.stdout)
    label = (args.tree or ROOT).name
    results[label] = measure(args.repeats)
    if args.json:
        print(json.dumps(results[label]))
    else:
        print(f"add_url(kind='openapi') registration, median of {args.repeats} after a warm-up")
        _table(results)
    return {f"registration {case} s": value for case, value in results[label]["seconds"].items()}


if __name__ == "__main__":
    main(sys.argv[1:])
