"""The examples and exit codes shown at the end of every command's ``--help``.

Written for click's plain help formatter: a paragraph that starts with ``\\b`` keeps its lines.
"""

from __future__ import annotations

__all__ = ["EXAMPLES", "EXIT_CODES", "epilog"]

_PROGRAM = "schemarouter-integrations"

EXAMPLES: dict[str, list[str]] = {
    "main": [
        "validate --config landscape.toml",
        'query "What is the band gap of Si?" --arg formula=Si --config landscape.toml',
        "--version",
    ],
    "validate": [
        "validate --config landscape.toml",
        "validate --config landscape.toml --json",
        "validate --connect --config landscape.toml",
    ],
    "plan": [
        'plan "What is the band gap of Si?" --arg formula=Si --config landscape.toml',
        'plan "band gap" --arg \'elements=["Ga","As"]\' --config landscape.toml --json',
    ],
    "query": [
        'query "What is the band gap of Si?" --arg formula=Si --config landscape.toml',
        'query "What is the band gap of Si?" --arg formula=Si --config landscape.toml --json',
    ],
    "gather": [
        'gather "band gap" --arg formula=Si --config landscape.toml',
        'gather "band gap" --arg formula=Si --config landscape.toml --json',
    ],
    "inspect": [
        "inspect --config landscape.toml",
        "inspect --config landscape.toml --json",
    ],
    "probe": [
        "probe --config landscape.toml",
        "probe --config landscape.toml --json",
    ],
    "demo": [
        "demo",
        "demo --svg demo.svg",
    ],
    "serve-mcp": [
        "serve-mcp --config landscape.toml",
        "serve-mcp --config landscape.toml --transport http --port 8000",
    ],
}

EXIT_CODES: dict[str, dict[int, str]] = {
    "main": {
        0: "answered / ok",
        1: "failed",
        2: "usage or configuration error",
        3: "no route, or every route unavailable",
    },
    "validate": {
        0: "the file is usable",
        1: "a route could not be read (--connect, --strict)",
        2: "usage or configuration error: file, line and key are named",
    },
    "plan": {
        0: "a primary route was planned",
        1: "failed",
        2: "usage or configuration error",
        3: "no route can answer",
    },
    "query": {
        0: "answered",
        1: "failed (an upstream refused, a bad answer, ...)",
        2: "usage or configuration error",
        3: "no route, or every route unavailable",
    },
    "gather": {
        0: "at least one route answered",
        1: "failed",
        2: "usage or configuration error",
        3: "no route, or every route unavailable",
    },
    "inspect": {
        0: "ok",
        1: "failed (a route pending under --strict, ...)",
        2: "usage or configuration error",
    },
    "probe": {
        0: "every probe answered ok and no route is pending",
        1: "a probe failed, or a route is pending",
        2: "usage or configuration error",
    },
    "demo": {
        0: "the demo ran",
        1: "the demo failed",
        2: "the [langchain] extra is not installed",
    },
    "serve-mcp": {
        0: "served until stopped",
        1: "failed",
        2: "usage or configuration error",
    },
}


def epilog(command: str) -> str:
    """The ``--help`` epilog of *command*: examples, then exit codes."""
    examples = "\n".join(f"  {_PROGRAM} {line}" for line in EXAMPLES[command])
    codes = "\n".join(f"  {code}  {meaning}" for code, meaning in EXIT_CODES[command].items())
    return f"\b\nExamples:\n{examples}\n\n\b\nExit codes:\n{codes}"
