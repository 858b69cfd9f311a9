"""The public surface: each public module's ``__all__`` is exactly what it offers, and
importing the package costs no adapter, YAML, HTTP or framework import."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import pytest

PUBLIC_MODULES = [
    "schemarouter_integrations",
    "schemarouter_integrations.adapters",
    "schemarouter_integrations.config",
    "schemarouter_integrations.errors",
    "schemarouter_integrations.events",
    "schemarouter_integrations.langchain",
    "schemarouter_integrations.llamaindex",
    "schemarouter_integrations.mcp",
    "schemarouter_integrations.otel",
    "schemarouter_integrations.stores",
    "schemarouter_integrations.testing",
    "schemarouter_integrations.testing.langchain",
    "schemarouter_integrations.testing.llamaindex",
]


def isort_style(name: str) -> tuple[int, str]:
    """Constants, then classes, then functions (the order ruff keeps ``__all__`` in)."""
    return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)


def defined_public_names(module: types.ModuleType) -> set[str]:
    """Public names the module defines or re-exports from this package (not imported helpers)."""
    names = set()
    for name, value in vars(module).items():
        if name.startswith("_") or name == "TYPE_CHECKING" or isinstance(value, types.ModuleType):
            continue
        origin = getattr(value, "__module__", None)
        if origin is None or origin.startswith("schemarouter_integrations"):
            names.add(name)
    return names


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_is_sorted_without_duplicates(name: str) -> None:
    exported = list(importlib.import_module(name).__all__)
    assert exported == sorted(set(exported), key=isort_style)


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_name_in_all_can_be_imported(name: str) -> None:
    module = importlib.import_module(name)
    missing = [item for item in module.__all__ if not hasattr(module, item)]
    assert missing == []


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_public_name_a_module_defines_is_in_all(name: str) -> None:
    module = importlib.import_module(name)
    assert defined_public_names(module) - set(module.__all__) == set()


def test_every_internal_module_is_private() -> None:
    import schemarouter_integrations as package

    public = {name.rsplit(".", 1)[-1] for name in PUBLIC_MODULES[1:]}
    children = {
        info.name
        for info in __import__("pkgutil").iter_modules(package.__path__)
        if not info.name.startswith("_")
    }
    assert children == public


def test_importing_the_package_imports_no_adapter_yaml_http_or_framework_module() -> None:
    code = (
        "import sys, schemarouter_integrations\n"
        "heavy = ('schemarouter_integrations.adapters', 'yaml', 'httpx', 'langchain_core', 'llama_index', "
        "'redis', 'optimade', 'mcp')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
