"""smolagents' ``Tool.from_langchain`` (in its own venv) over ``SchemaRouterTool``.

``python smolagents_langchain.py '{"down": [...], "arguments": {...}}' ...`` builds the seed
router (the named tools unavailable) for each case, bridges its LangChain tool into smolagents
and calls the smolagents tool with the arguments as an agent would. Prints one JSON object:
the inputs smolagents shows its model, and each call's output or the error raised.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def main(cases: list[dict[str, Any]]) -> dict[str, Any]:
    from smolagents import Tool

    from schemarouter_integrations.langchain import SchemaRouterTool
    from tests.support.seed import seed_router

    out: dict[str, Any] = {"calls": []}
    for case in cases:
        router, _ = seed_router(down=tuple(case.get("down", ())))
        bridged = Tool.from_langchain(SchemaRouterTool(router=router, fallback_scope="cross_provider"))
        out["inputs"] = bridged.inputs
        try:
            out["calls"].append({"output": bridged(**case["arguments"])})
        except Exception as exc:  # what escapes the bridge: reported, the test decides
            out["calls"].append({"raised": f"{type(exc).__name__}: {exc}"})
    return out


if __name__ == "__main__":
    print(json.dumps(main([json.loads(arg) for arg in sys.argv[1:]]), default=str))
