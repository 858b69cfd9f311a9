"""Griffe extension for the reference: Sphinx roles in docstrings become links or code.

The package's docstrings cross-reference with Sphinx roles (``:class:`ToolResult```,
``:meth:`~SchemaRouter.add_url```), which Markdown would show as raw text. Each role whose
target is a public object of the reference becomes a mkdocstrings cross-reference
(``[ToolResult][schemarouter_integrations.ToolResult]``); any other target (private helpers,
other libraries) becomes inline code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|mod|exc|data|obj|const):`(~?)([^`<>]+?)`")
PUBLIC_MODULES = (
    "schemarouter_integrations",
    "schemarouter_integrations.events",
    "schemarouter_integrations.errors",
    "schemarouter_integrations.stores",
    "schemarouter_integrations.adapters",
    "schemarouter_integrations.config",
    "schemarouter_integrations.langchain",
    "schemarouter_integrations.llamaindex",
    "schemarouter_integrations.mcp",
    "schemarouter_integrations.otel",
    "schemarouter_integrations.testing",
)


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles into mkdocstrings cross-references (public targets) or code."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.path != PUBLIC_MODULES[0]:
            return
        public = _public_ids(pkg)
        for obj in _objects(pkg, set()):
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = ROLE.sub(lambda m: _rewrite(m, public), obj.docstring.value)


def _rewrite(match: re.Match[str], public: set[str]) -> str:
    short, target = match.group(1) == "~", match.group(2).strip().lstrip(".").removesuffix("()")
    shown = target.rsplit(".", 1)[-1] if short else target
    for module in ("", *PUBLIC_MODULES):
        candidate = f"{module}.{target}" if module else target
        if candidate in public:
            return f"[`{shown}`][{candidate}]"
    return f"`{shown}`"


def _public_ids(pkg: griffe.Module) -> set[str]:
    ids: set[str] = set()
    for path in PUBLIC_MODULES:
        try:
            module = pkg.modules_collection[path]
        except KeyError:
            continue
        ids.add(path)
        for name in _exported(module):
            ids.add(f"{path}.{name}")
            try:
                target = module[name]
                if target.is_alias:
                    target = target.final_target
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
            if target.is_class:
                members = (member for member in target.all_members if not member.startswith("_"))
                ids.update(f"{path}.{name}.{member}" for member in members)
    return ids


def _exported(module: griffe.Object) -> list[str]:
    exports = getattr(module, "exports", None)
    if exports:
        return [str(name) for name in exports]
    return [name for name in module.members if not name.startswith("_")]


def _objects(obj: griffe.Object, seen: set[str]) -> list[griffe.Object]:
    if obj.path in seen:
        return []
    seen.add(obj.path)
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_objects(member, seen))  # type: ignore[arg-type]
    return found
