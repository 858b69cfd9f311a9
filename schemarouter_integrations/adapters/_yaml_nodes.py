"""libyaml's node tree as JSON data in one pass: the default YAML parse without the ``fast`` extra.

PyYAML's safe loader composes the node tree in C (libyaml), then constructs Python objects
from it in Python, and :func:`~._yaml.plain_data` walks those objects once more. For the
plain tree of a real document (maps, sequences, and the implicit scalars ``str``, ``null``,
``bool``, ``int``, ``float`` and ``timestamp``) :func:`plain_tree` builds the JSON data
straight from the nodes, each scalar built once by the loader's own constructor, which is
what the loader and :func:`~._yaml.plain_data` give, about five times faster.

Whatever it cannot be sure of it leaves to the loader (:data:`UNSURE`), which then
constructs the same nodes as it always has: any other tag, merge keys (``<<``) and ``=``,
a node met twice (an alias: so never an alias bomb), a key that is not text, an ``int`` or
null (``1``, ``1.0`` and ``true`` are one key to the loader), two keys that read the same
as text, nesting deeper than :data:`MAX_DEPTH`, more nodes than the budget,
a scalar its constructor refuses, and a loader whose constructors of these tags were
replaced.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = ["MAX_DEPTH", "UNSURE", "plain_tree"]

UNSURE: Any = object()
"""What :func:`plain_tree` returns for a tree it leaves to the loader."""
MAX_DEPTH = 100
"""Deeper nesting is left to the loader (real documents nest about 20 deep)."""

_TAG = "tag:yaml.org,2002:"
_STR, _MAP, _SEQ, _NULL = f"{_TAG}str", f"{_TAG}map", f"{_TAG}seq", f"{_TAG}null"
_BUILT = frozenset(f"{_TAG}{name}" for name in ("bool", "int", "float", "timestamp"))
"""Scalars built by the loader's constructor (once per distinct text)."""
_KEYS = frozenset({f"{_TAG}int", _NULL})
"""Keys other than text read here: ints and null, equal to the loader exactly when equal as text
(``1``, ``1.0`` and ``true`` are one key to it, so are two time stamps of one instant)."""
_OWN = {
    _STR: SafeConstructor.construct_yaml_str,
    _MAP: SafeConstructor.construct_yaml_map,
    _SEQ: SafeConstructor.construct_yaml_seq,
    _NULL: SafeConstructor.construct_yaml_null,
}
"""The constructors whose result :func:`plain_tree` writes itself: only when the loader's are these."""


class _Unsure(Exception):
    """Raised inside the walk: leave this tree to the loader."""


def plain_tree(loader: SafeConstructor, node: Node, *, max_nodes: int) -> Any:
    """*node* (composed by *loader*) as JSON data, or :data:`UNSURE` (see the module docstring).

    The data is what ``plain_data(loader.construct_document(node), [max_nodes])`` gives.
    """
    constructors = loader.yaml_constructors
    if any(constructors.get(tag) is not own for tag, own in _OWN.items()):
        return UNSURE
    try:
        return _Walk(loader, max_nodes - 1).node(node, MAX_DEPTH)
    except _Unsure:
        return UNSURE


class _Walk:
    """One node tree as JSON data; raises :class:`_Unsure` where the loader must decide."""

    def __init__(self, loader: SafeConstructor, budget: int) -> None:
        self.loader = loader
        self.budget = budget
        """Nodes left: :func:`~._yaml.plain_data` counts every value and item, not keys."""
        self.seen: set[int] = set()
        self.scalars: dict[tuple[str, str], Any] = {}

    def node(self, node: Node, depth: int) -> Any:
        kind = node.__class__
        if kind is ScalarNode:
            return self.scalar(node)
        if depth <= 0 or id(node) in self.seen:
            raise _Unsure
        self.seen.add(id(node))
        entries: list[Any] = node.value
        self.budget -= len(entries)
        if self.budget < 0:
            raise _Unsure
        if kind is MappingNode and node.tag == _MAP:
            mapping: dict[str, Any] = {}
            for key, value in entries:
                text = key.value if key.__class__ is ScalarNode and key.tag == _STR else self.key(key)
                if value.__class__ is ScalarNode and value.tag == _STR:
                    mapping[text] = value.value
                else:
                    mapping[text] = self.node(value, depth - 1)
            if len(mapping) != len(entries):
                raise _Unsure  # a key given twice, or two keys that read the same as text
            return mapping
        if kind is SequenceNode and node.tag == _SEQ:
            deeper = depth - 1
            return [
                item.value if item.__class__ is ScalarNode and item.tag == _STR else self.node(item, deeper)
                for item in entries
            ]
        raise _Unsure

    def key(self, node: Node) -> str:
        if node.__class__ is not ScalarNode or node.tag not in _KEYS:
            raise _Unsure
        return str(self.scalar(node))

    def scalar(self, node: Node) -> Any:
        tag, text = node.tag, node.value
        if tag == _STR:
            return text
        if tag == _NULL:
            return None
        try:
            return self.scalars[tag, text]
        except KeyError:
            pass
        if tag not in _BUILT:
            raise _Unsure
        try:
            value = self.loader.yaml_constructors[tag](self.loader, node)
        except Exception:  # the loader raises its own error, in its own order
            raise _Unsure from None
        if isinstance(value, date):
            value = str(value)  # a date or a time stamp, as plain_data writes it
        elif not isinstance(value, (bool, int, float, str)):
            raise _Unsure  # a constructor the application added
        self.scalars[tag, text] = value
        return value
