"""Registration time of real OpenAPI documents (``add_url(kind="openapi")`` over loopback HTTP).

Documents: GitHub's REST description (1,078 operations; JSON form, whole and with
``operations=`` of 3), Stripe's (588 operations, JSON form), Petstore; GitHub's YAML form
registered with the package's parser (rapidyaml when the ``fast`` extra is installed), with
libyaml forced (``github.yaml (libyaml)``) and from the document cache (a 304 answer, so the
stored copy is parsed); plus the YAML parse of GitHub's and Stripe's documents on their own
(the package's loader, rapidyaml's walk alone, and libyaml's ``CSafeLoader`` alone, the
yardstick of the ``register <= 1.2x parse`` target). They are downloaded once into
``.cache/documents/`` (see ``tests/support/documents.py``). Medians of a few repeats after
one warm-up (the three cases of :data:`YAML_SIDE_BY_SIDE` in turns); the memos of schema
checks are emptied before each run, so every run pays what a first registration in a fresh
process pays (registering the same document again is faster).

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
import tempfile
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
    from schemarouter_integrations.adapters import _yaml
    from schemarouter_integrations.adapters._documents import parse_document

    documents = real_documents()
    server, url = _serve(documents["github.json"].parent)
    counts: dict[str, int] = {}

    cache_dir = tempfile.TemporaryDirectory(prefix="registration-bench-cache-")

    def register(name: str, *, cached: bool = False, **options: Any) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            async with SchemaRouter(document_cache=cache_dir.name if cached else None) as router:
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

    def with_libyaml(run: Callable[[], Any]) -> Callable[[], Any]:
        """*run* with the rapidyaml extra hidden (registration parses with libyaml)."""

        def hidden() -> Any:
            found = _yaml._rapidyaml
            _yaml._rapidyaml = lambda: None  # type: ignore[assignment]
            try:
                return asyncio.run(run())
            finally:
                _yaml._rapidyaml = found

        return hidden

    def rapidyaml_parse(name: str) -> Callable[[], Any]:
        body = documents[name].read_bytes()
        return lambda: _yaml.with_rapidyaml(body, max_nodes=2_000_000)

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
        "github.yaml (libyaml)": with_libyaml(register("github.yaml")),
        "github.yaml (document cache)": register("github.yaml", cached=True),
        "github.yaml: YAML parse only": parse("github.yaml"),
        "github.yaml: rapidyaml walk alone": rapidyaml_parse("github.yaml"),
        "github.yaml: CSafeLoader alone": safe_load("github.yaml"),
        "stripe.yaml: YAML parse only": parse("stripe.yaml"),
    }
    if _yaml.parser_in_use() != "rapidyaml":  # the same numbers twice would mislead
        for case in ("github.yaml (libyaml)", "github.yaml: rapidyaml walk alone"):
            del cases[case]
    try:
        seconds = _alternating(cases, repeats)
    finally:
        server.shutdown()
        cache_dir.cleanup()
    import yaml

    return {
        "seconds": seconds,
        "counts": counts,
        "libyaml": bool(getattr(yaml, "__with_libyaml__", False)),
        "parser": _yaml.parser_in_use(),
    }


YAML_SIDE_BY_SIDE = ("github.yaml", "github.yaml (libyaml)", "github.yaml: CSafeLoader alone")
"""Measured in turns, one of each per round, so that load from other work hits all alike."""


def _alternating(cases: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    alike = [case for case in YAML_SIDE_BY_SIDE if case in cases]
    seconds = {case: _median(run, repeats) for case, run in cases.items() if case not in alike}
    samples: dict[str, list[float]] = {case: [] for case in alike}
    for index in range(repeats + 1):
        for case in alike:
            _forget_checked_schemas()
            start = time.perf_counter()
            outcome = cases[case]()
            if asyncio.iscoroutine(outcome):
                asyncio.run(outcome)
            if index:
                samples[case].append(time.perf_counter() - start)
    seconds.update({case: statistics.median(values) for case, values in samples.items()})
    return {case: seconds[case] for case in cases}


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
            f"canonical arguments, {counts.get('fields')} distinct fields; libyaml={outcome['libyaml']}, "
            f"YAML parser: {outcome.get('parser')}"
        )
        seconds = outcome["seconds"]
        parse = seconds.get("github.yaml: CSafeLoader alone")
        for case in ("github.yaml", "github.yaml (libyaml)", "github.yaml (document cache)"):
            if parse and case in seconds:
                ratio = seconds[case] / parse
                print(f"{label}: register {case} / CSafeLoader parse = {ratio:.2f}x (target <= 1.2x)")


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
