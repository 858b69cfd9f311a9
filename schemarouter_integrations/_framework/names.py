"""Model-facing argument names: identifiers every host accepts, mapped back to the wire names.

Models and MCP clients read argument names through Python (pydantic, LangChain, LlamaIndex,
``llama-index-tools-mcp``), TypeScript and JSON Schema tooling, several of which refuse a
name with a leading underscore or dash (``_limit``) or with characters outside
``[A-Za-z0-9_]``. :func:`model_facing_names` gives each wire name the name shown in its
place: leading characters that are not letters or digits dropped (``_``, ``-``, ``.``,
``$``, ``@``, ...), every other character that is not an identifier character replaced by
``_``, ``arg_`` before a leading digit (so every shown name starts with a letter), and a
numeric suffix (``_2``, ``_3``, ...) on a collision. The
same function names the arguments of the LangChain tool, the LlamaIndex tool and the MCP
server, so a model sees the same names in all three.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Collection, Iterable

from pydantic import BaseModel

__all__ = ["FACE_RESERVED_NAMES", "model_facing_names", "shown_name"]

FACE_RESERVED_NAMES = frozenset({"query", "fields", "filters"})
"""Names the faces use themselves (the question, the MCP tool's field selection, and the
object of the filters not shown as top-level keys)."""

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")
_BASEMODEL_NAMES = frozenset(dir(BaseModel))


def shown_name(wire: str) -> str:
    """The name shown for *wire* before collisions are resolved (``_limit`` -> ``limit``,
    ``.format`` -> ``format``); it always starts with an ASCII letter."""
    base = _NOT_IDENTIFIER.sub("_", wire).lstrip("_")
    if not base:
        return "arg"
    return f"arg_{base}" if base[0].isdigit() else base


def _usable(name: str) -> bool:
    """A name pydantic can use as a field name, and a model as an argument name, as is."""
    return not name.startswith("_") and name not in _BASEMODEL_NAMES and not keyword.iskeyword(name)


def model_facing_names(
    wire_names: Iterable[str], *, reserved: Collection[str] = FACE_RESERVED_NAMES
) -> dict[str, str]:
    """``{wire name: shown name}`` for *wire_names*, one-to-one and independent of their order.

    A wire name that is already a usable identifier keeps it; the others take
    :func:`shown_name`. When two wire names (or a *reserved* name) would be shown alike, the
    one that is already that identifier keeps it, and the others, in sorted order, take the
    first free numeric suffix (``_limit`` beside ``limit`` is shown as ``limit_2``). A name
    pydantic cannot use as a field (``schema``, ``json``) or that is a Python keyword takes a suffix as well.
    """
    names = sorted(set(wire_names))
    taken: set[str] = set(reserved)
    out: dict[str, str] = {}
    # first pass: names that are their own shown name and free
    for wire in names:
        if shown_name(wire) == wire and _usable(wire) and wire not in taken:
            out[wire] = wire
            taken.add(wire)
    for wire in names:
        if wire in out:
            continue
        candidate = _free(shown_name(wire), taken)
        out[wire] = candidate
        taken.add(candidate)
    return out


def _free(base: str, taken: set[str]) -> str:
    """*base*, else *base* with the first numeric suffix that is free and usable.

    *base* starts with a letter, so a suffixed name is never a keyword nor a pydantic
    attribute, and one of ``len(taken) + 1`` suffixes is free: the search is bounded.
    """
    if base not in taken and _usable(base):
        return base
    for suffix in range(2, len(taken) + 3):
        candidate = f"{base}_{suffix}"
        if candidate not in taken and _usable(candidate):
            return candidate
    raise ValueError(f"no free model-facing name for {base!r}")  # pragma: no cover - see above
