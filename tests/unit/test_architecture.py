"""The package's architecture holds: no import circle, no oversized module.

The layers themselves are enforced by import-linter (``[tool.importlinter]`` in
``pyproject.toml``, run by ``make lint``).
"""

from __future__ import annotations

from pathlib import Path

import grimp

import schemarouter_integrations

MAX_MODULE_LINES = 320


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), i.e. import circles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.find_modules_directly_imported_by(module)):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return cycles


def test_no_module_of_the_package_takes_part_in_an_import_circle() -> None:
    graph = grimp.build_graph("schemarouter_integrations", include_external_packages=False)
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.a")
    graph.add_import(importer="pkg.c", imported="pkg.a")
    assert import_cycles(graph) == [["pkg.a", "pkg.b"]]


def test_no_module_is_longer_than_the_limit() -> None:
    root = Path(schemarouter_integrations.__file__).parent
    lengths = {str(p.relative_to(root)): len(p.read_text().splitlines()) for p in root.rglob("*.py")}
    too_long = {path: n for path, n in lengths.items() if n > MAX_MODULE_LINES}
    assert too_long == {}
