"""Packages load their names on first use (PEP 562) and still offer exactly what they did.

What a lazy package offers is checked against its ``TYPE_CHECKING`` imports (what mypy and
IDEs see); what an import costs is read from ``sys.modules`` in a fresh interpreter, never
from a clock.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import schemarouter_integrations

PACKAGE_ROOT = Path(schemarouter_integrations.__file__).parent
LAZY_PACKAGES = sorted(
    ".".join(("schemarouter_integrations", *path.parent.relative_to(PACKAGE_ROOT).parts))
    for path in PACKAGE_ROOT.rglob("__init__.py")
    if "_lazy_attributes" in path.read_text()
)
ROUTER_MODULES = ("_router", "_contracts", "_execution", "_planning", "_registry", "events", "errors")
TRACING = ("langsmith", "langchain_core.tracers", "opentelemetry", "openinference", "phoenix")
FRAMEWORKS = ("langchain_core", "langsmith", "llama_index", "mcp", "opentelemetry")
CHECKERS_AND_CLIENTS = ("jsonschema", "referencing", "httpx", "yaml", "redis")


def static_imports(package: str) -> dict[str, str]:
    """``{name: absolute home module}`` of the imports under ``if TYPE_CHECKING:`` in *package*."""
    path = PACKAGE_ROOT.joinpath(*package.split(".")[1:], "__init__.py")
    homes: dict[str, str] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                home = importlib.util.resolve_name("." * statement.level + (statement.module or ""), package)
                homes.update({alias.name: home for alias in statement.names})
    return homes


def modules_after(code: str) -> set[str]:
    """Every module in ``sys.modules`` after running *code* in a new interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def loaded(modules: set[str], packages: tuple[str, ...]) -> list[str]:
    """The *modules* that are one of *packages* or inside one."""
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages))


def test_the_root_and_the_public_packages_are_lazy() -> None:
    expected = {
        "schemarouter_integrations",
        "schemarouter_integrations.langchain",
        "schemarouter_integrations.stores",
    }
    assert expected <= set(LAZY_PACKAGES)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_name_in_all_is_imported_statically_for_type_checkers(package: str) -> None:
    assert set(importlib.import_module(package).__all__) == set(static_imports(package))


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_lazy_name_is_the_object_its_home_module_defines(package: str) -> None:
    module = importlib.import_module(package)
    for name, home in static_imports(package).items():
        assert getattr(module, name) is getattr(importlib.import_module(home), name), name


def test_a_star_import_of_the_root_in_a_fresh_interpreter_gives_every_name_in_all() -> None:
    probe = (
        "import json, schemarouter_integrations as p\n"
        "namespace = {}\n"
        "exec('from schemarouter_integrations import *', namespace)\n"
        "print(json.dumps(sorted(set(p.__all__) - set(namespace))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_dir_of_the_root_lists_every_public_name_before_any_is_loaded() -> None:
    probe = (
        "import json, schemarouter_integrations as p\nprint(json.dumps(sorted(set(p.__all__) - set(dir(p)))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_an_unknown_name_of_the_root_raises_attribute_error_naming_the_package() -> None:
    with pytest.raises(AttributeError, match="'schemarouter_integrations' has no attribute 'Nope'"):
        _ = schemarouter_integrations.Nope  # type: ignore[attr-defined]


def test_a_name_once_loaded_is_kept_in_the_package() -> None:
    from schemarouter_integrations import SchemaRouter

    assert vars(schemarouter_integrations)["SchemaRouter"] is SchemaRouter


def test_importing_the_root_loads_no_router_module() -> None:
    modules = modules_after("import schemarouter_integrations")
    assert loaded(modules, tuple(f"schemarouter_integrations.{m}" for m in ROUTER_MODULES)) == []


def test_importing_the_langchain_face_loads_neither_the_router_nor_any_tracer() -> None:
    modules = modules_after("import schemarouter_integrations.langchain")
    router = tuple(f"schemarouter_integrations.{m}" for m in ROUTER_MODULES)
    assert loaded(modules, router + TRACING + CHECKERS_AND_CLIENTS) == []


def test_naming_the_router_loads_no_framework_tracer_checker_or_http_client() -> None:
    modules = modules_after("from schemarouter_integrations import SchemaRouter")
    assert loaded(modules, FRAMEWORKS + TRACING + CHECKERS_AND_CLIENTS) == []


def test_naming_the_router_loads_asyncio_only_when_a_run_needs_it() -> None:
    assert "asyncio" not in modules_after("from schemarouter_integrations import SchemaRouter")


def test_the_public_modules_the_root_offered_as_attributes_still_are() -> None:
    probe = (
        "import schemarouter_integrations as p\n"
        "print(p.errors.SchemaRouterError.__name__, p.events.ToolFallbackEvent.__name__, "
        "p.stores.MemoryAvailabilityStore.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["SchemaRouterError", "ToolFallbackEvent", "MemoryAvailabilityStore"]
