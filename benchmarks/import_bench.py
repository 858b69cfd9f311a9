"""What importing costs, against the packages a user imports anyway: ``-X importtime`` medians.

Each statement runs in a fresh interpreter under ``python -X importtime``; its cost is the
sum of the cumulative times of its top-level imports. The statements alternate in each of
:data:`REPEATS` rounds (the machine is shared: compare the ratios, measured side by side).

* the core, ``import schemarouter_integrations``, against ``import pydantic`` + ``import
  httpx`` (target <= 2x). The package root loads its names on first use (PEP 562), so the
  router itself is measured too: ``from schemarouter_integrations import SchemaRouter``, the
  first line of every application, against the same pair;
* the LangChain face, ``import schemarouter_integrations.langchain``, against ``import
  langchain_core.tools`` (target <= 1.5x); both modules load their tool classes on first use,
  so the classes are compared too: ``from schemarouter_integrations.langchain import
  SchemaRouterTool`` against ``from langchain_core.tools import StructuredTool``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys

REPEATS = 3
STATEMENTS = {
    "pydantic": "import pydantic",
    "httpx": "import httpx",
    "core": "import schemarouter_integrations",
    "router": "from schemarouter_integrations import SchemaRouter",
    "langchain_core.tools": "import langchain_core.tools",
    "langchain face": "import schemarouter_integrations.langchain",
    "StructuredTool": "from langchain_core.tools import StructuredTool",
    "SchemaRouterTool": "from schemarouter_integrations.langchain import SchemaRouterTool",
}
TARGETS = {"core": 2.0, "langchain_face": 1.5}


EVIDENCE = ("router", "langchain face", "SchemaRouterTool")  # whose heaviest imports are printed


def import_times(statement: str) -> list[tuple[int, int, str]]:
    """``(microseconds cumulative, nesting depth, module)`` of every import *statement* made in a
    fresh interpreter under ``-X importtime``."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        if cumulative.strip().isdigit():
            rows.append((int(cumulative), (len(name) - len(name.lstrip()) - 1) // 2, name.strip()))
    return rows


def import_seconds(statement: str) -> float:
    """Seconds the top-level imports of *statement* took (``-X importtime``, cumulative)."""
    return sum(cumulative for cumulative, depth, _ in import_times(statement) if depth == 0) / 1e6


def heaviest(statement: str, count: int = 6) -> list[str]:
    """The *count* costliest imports of *statement* below the top level (cumulative, one run)."""
    rows = sorted((row for row in import_times(statement) if row[1] > 0), reverse=True)
    return [f"{cumulative / 1e3:7.1f} ms  {name}" for cumulative, _, name in rows[:count]]


def main() -> dict[str, float]:
    samples: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    for _ in range(REPEATS):
        for name, statement in STATEMENTS.items():
            samples[name].append(import_seconds(statement))
    seconds = {name: statistics.median(values) for name, values in samples.items()}
    for name, value in seconds.items():
        print(f"{STATEMENTS[name]:<66} {value:7.3f} s")
    for name in EVIDENCE:
        print(f"heaviest imports under `{STATEMENTS[name]}` (-X importtime, cumulative):")
        print("\n".join(f"    {line}" for line in heaviest(STATEMENTS[name])))
    core = seconds["core"] / (seconds["pydantic"] + seconds["httpx"])
    router = seconds["router"] / (seconds["pydantic"] + seconds["httpx"])
    face = seconds["langchain face"] / seconds["langchain_core.tools"]
    classes = seconds["SchemaRouterTool"] / seconds["StructuredTool"]
    print(f"core / (pydantic + httpx) {core:.2f}x (target <= {TARGETS['core']})")
    print(f"router (SchemaRouter) / (pydantic + httpx) {router:.2f}x (the core's target applied to it)")
    print(f"langchain face / langchain_core.tools {face:.2f}x (target <= {TARGETS['langchain_face']})")
    print(f"SchemaRouterTool / StructuredTool {classes:.2f}x")
    results = {f"imports.{name}_s": round(value, 3) for name, value in seconds.items()}
    results.update(
        {"imports.core_ratio": round(core, 3), "imports.router_ratio": round(router, 3),
         "imports.langchain_face_ratio": round(face, 3), "imports.tool_class_ratio": round(classes, 3)}
    )  # fmt: skip
    return results


if __name__ == "__main__":
    main()
