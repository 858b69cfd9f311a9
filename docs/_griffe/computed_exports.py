"""Griffe extension for the reference: ``__all__`` computed by a lazy package.

A lazy package derives ``__all__`` from its table of names by home module
(``__all__, __getattr__, __dir__ = _lazy_attributes(globals(), {...})``), which a static reader
cannot evaluate; without it every re-exported name would count as a private import. This
imports such a module and reads the ``__all__`` it computes.
"""

from __future__ import annotations

import ast
import importlib
from typing import Any

import griffe

PACKAGE = "schemarouter_integrations"


class ComputedExports(griffe.Extension):
    """Set the exports of a module whose ``__all__`` is computed from the runtime value."""

    def on_module_members(
        self, *, node: ast.AST | griffe.ObjectNode, mod: griffe.Module, **kwargs: Any
    ) -> None:
        if mod.exports is None and mod.path.startswith(PACKAGE) and mod.is_init_module:
            computed = getattr(importlib.import_module(mod.path), "__all__", None)
            if computed is not None:
                mod.exports = list(computed)
