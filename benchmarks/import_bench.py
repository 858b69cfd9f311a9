"""What importing costs, against the packages a user imports anyway: ``-X importtime`` medians.

Each statement runs in a fresh interpreter under ``python -X importtime``; its cost is the
sum of the cumulative times of its top-level imports. The statements alternate in each of
:data:`REPEATS` rounds (the machine is shared: compare the ratios, measured side by side).

* the core, ``import schemarouter_integrations``, against ``import pydantic`` + ``import
  httpx`` (target <= 2x);
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
    "langchain_core.tools": "import langchain_core.tools",
    "langchain face": "import schemarouter_integrations.langchain",
    "StructuredTool": "from langchain_core.tools import StructuredTool",
    "SchemaRouterTool": "from schemarouter_integrations.langchain import SchemaRouterTool",
}
TARGETS = {"core": 2.0, "langchain_face": 1.5}


def import_seconds(statement: str) -> float:
    """Seconds the top-level imports of *statement* took (``-X importtime``, cumulative)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
    )
    total = 0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        if cumulative.strip().isdigit() and name[:1] == " " and name[1:2] != " ":
            total += int(cumulative)
    return total / 1e6


def main() -> dict[str, float]:
    samples: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    for _ in range(REPEATS):
        for name, statement in STATEMENTS.items():
            samples[name].append(import_seconds(statement))
    seconds = {name: statistics.median(values) for name, values in samples.items()}
    for name, value in seconds.items():
        print(f"{STATEMENTS[name]:<66} {value:7.3f} s")
    core = seconds["core"] / (seconds["pydantic"] + seconds["httpx"])
    face = seconds["langchain face"] / seconds["langchain_core.tools"]
    classes = seconds["SchemaRouterTool"] / seconds["StructuredTool"]
    print(f"core / (pydantic + httpx) {core:.2f}x (target <= {TARGETS['core']})")
    print(f"langchain face / langchain_core.tools {face:.2f}x (target <= {TARGETS['langchain_face']})")
    print(f"SchemaRouterTool / StructuredTool {classes:.2f}x")
    results = {f"imports.{name}_s": round(value, 3) for name, value in seconds.items()}
    results.update(
        {"imports.core_ratio": round(core, 3), "imports.langchain_face_ratio": round(face, 3),
         "imports.tool_class_ratio": round(classes, 3)}
    )  # fmt: skip
    return results


if __name__ == "__main__":
    main()
