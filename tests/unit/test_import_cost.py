"""Imports cost what they use: heavy modules load on first use, never with the package.

Each check runs in a fresh interpreter and reads ``sys.modules`` (never a time): what a
module imports is what its import costs.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FRAMEWORKS = ("langchain", "langchain_core", "langsmith", "langgraph", "llama_index", "mcp")
TRACING = ("opentelemetry", "phoenix", "openinference")
SERVERS = ("uvicorn", "starlette", "fastapi", "redis")
SCHEMA_CHECKING = ("jsonschema", "referencing", "attrs", "rpds", "jsonschema_rs")
PARSING = ("yaml", "ryml", "httpx", "optimade")


def loaded_after(code: str) -> set[str]:
    """The top-level packages in ``sys.modules`` after running *code* in a new interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("heavy", [FRAMEWORKS, TRACING, SERVERS, SCHEMA_CHECKING, PARSING])
def test_importing_the_core_imports_no_heavy_module(heavy: tuple[str, ...]) -> None:
    assert loaded_after("import schemarouter_integrations") & set(heavy) == set()


def test_the_schema_checker_loads_when_the_first_contract_is_checked() -> None:
    loaded = loaded_after(
        "from schemarouter_integrations import EndpointSpec, FieldSpec\n"
        "EndpointSpec(name='search', fields=[FieldSpec(name='band_gap', path=['band_gap'])],\n"
        "             input_schema={'type': 'object', 'properties': {'formula': {'type': 'string'}}})"
    )
    assert "jsonschema" in loaded


def test_importing_the_langchain_face_leaves_tracers_and_langsmith_unloaded() -> None:
    loaded = loaded_after("import sys, schemarouter_integrations.langchain")
    modules = _modules_after("import schemarouter_integrations.langchain")
    assert "langsmith" not in loaded
    assert not any(m.startswith("langchain_core.tracers") for m in modules)


def test_the_langchain_tool_does_not_import_the_langsmith_tracer_until_one_is_attached() -> None:
    modules = _modules_after("from schemarouter_integrations.langchain import SchemaRouterTool")
    assert "langchain_core.tracers.langchain" not in modules and "langsmith.run_helpers" not in modules


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))
