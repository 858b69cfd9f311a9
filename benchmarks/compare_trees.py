"""Run the same benchmark modules against two source trees, alternately, and compare medians.

    python benchmarks/compare_trees.py BEFORE_TREE AFTER_TREE [--rounds 3] invoke_bench plan_bench

This tree's ``benchmarks/`` is copied to a temporary directory, so both trees run the very
same benchmark code; each run is a fresh process whose ``PYTHONPATH`` is one tree, and the
runs alternate (before, after, before, ...) so that machine load hits both alike. Every
number is the median over the rounds of each run's own median; ``after / before`` < 1 is a
win. Results go to stdout and, with ``--json FILE``, to a file.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNNER = """
import json, sys, importlib, contextlib, io
sys.path.insert(0, {root!r})
import schemarouter_integrations
if not schemarouter_integrations.__file__.startswith({tree!r}):
    raise SystemExit("imported the wrong tree: " + schemarouter_integrations.__file__)
module = importlib.import_module("benchmarks." + {name!r})
with contextlib.redirect_stdout(io.StringIO()):
    out = module.main()
print(json.dumps({{k: v for k, v in out.items() if isinstance(v, (int, float))}}))
"""


def run_once(tree: Path, root: Path, name: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    code = RUNNER.format(root=str(root), name=name, tree=str(tree) + os.sep)
    done = subprocess.run(  # cwd: the copy, so that no tree is importable through sys.path[0]
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("modules", nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(
            HERE, root / "benchmarks", ignore=shutil.ignore_patterns("results", "*.png", "__pycache__")
        )
        runs: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
        for module in args.modules:
            for _ in range(args.rounds):
                for label, tree in (("before", args.before), ("after", args.after)):
                    for key, value in run_once(tree.resolve(), root, module).items():
                        runs[label].setdefault(key, []).append(value)
    table: dict[str, dict[str, float]] = {}
    print(f"{'measurement':<44} {'before':>10} {'after':>10} {'after/before':>12}")
    for key in sorted(set(runs["before"]) | set(runs["after"])):
        before = statistics.median(runs["before"].get(key, [float("nan")]))
        after = statistics.median(runs["after"].get(key, [float("nan")]))
        ratio = after / before if before else float("nan")
        table[key] = {"before": before, "after": after, "ratio": ratio}
        print(f"{key:<44} {before:>10.4g} {after:>10.4g} {ratio:>12.3f}")
    if args.json is not None:
        args.json.write_text(json.dumps({"rounds": args.rounds, "table": table}, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
