"""Every third-party import of the package is declared: in the core dependencies, or in the
extra of the face that imports it (``langchain/`` in ``[langchain]``, ...). The wheel matrix
(``tests/distribution``) proves the same by installing each extra alone."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "schemarouter_integrations"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

NOT_DECLARED = {
    "trio": "imported only while trio runs the caller's event loop, so it is there",
    "langgraph": "used only when the application runs the tool inside a LangGraph graph",
}
FACES = {  # folder or module (relative to the package) -> the extra it may import from
    "langchain": "langchain",
    "llamaindex": "llamaindex",
    "otel": "otel",
    "mcp": "mcp",
    "adapters/_mcp": "mcp",
    "_cli": "cli",
    "stores/_redis.py": "redis",
    "stores/_redis_mirror.py": "redis",
    "stores/_redis_wire.py": "redis",
}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {
        normal(Requirement(r).name)
        for r in requirements
        if normal(Requirement(r).name) != normal(PROJECT["name"])
    }


CORE = requirement_names(PROJECT["dependencies"])
EXTRAS = {extra: requirement_names(reqs) for extra, reqs in PROJECT["optional-dependencies"].items()}
DISTRIBUTIONS = {
    module: {normal(d) for d in dists}
    for module, dists in importlib.metadata.packages_distributions().items()
}


def imports(path: Path) -> set[str]:
    """The top-level names of every absolute import in *path* (in functions and ``try`` too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"schemarouter_integrations", "__future__"}


def face_of(path: Path) -> str | None:
    relative = path.relative_to(PACKAGE).as_posix()
    for prefix, extra in FACES.items():
        if relative == prefix or relative.startswith(prefix.rstrip("/") + "/"):
            return extra
    return None


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_every_import_is_declared_where_its_face_is_installed(path: Path) -> None:
    face = face_of(path)
    allowed = CORE | (EXTRAS[face] if face else set().union(*EXTRAS.values()))
    undeclared = {}
    for module in imports(path) - set(NOT_DECLARED):
        distributions = DISTRIBUTIONS.get(module)
        assert distributions, f"{module} is imported but not installed: which distribution is it?"
        if not distributions & allowed:
            undeclared[module] = sorted(distributions)
    assert undeclared == {}, f"declare these in {f'[{face}]' if face else 'the core or an extra'}"


def test_the_all_extra_holds_every_other_extra() -> None:
    (everything,) = PROJECT["optional-dependencies"]["all"]
    listed = set(Requirement(everything).extras)
    assert listed == set(PROJECT["optional-dependencies"]) - {"all"}
