"""YAML text as JSON data: libyaml's safe loader, or rapidyaml when the ``yaml`` extra is installed.

:func:`load_yaml` is the one YAML parse of registration. Without the extra it is what it has
always been: PyYAML's safe loader (libyaml's ``CSafeLoader`` when PyYAML was built with it),
then :func:`plain_data` (string keys, dates as text, at most *max_nodes* nodes once aliases
are expanded).

With rapidyaml (``pip install "schemarouter-integrations[yaml]"``, module ``ryml``) the text
is parsed into rapidyaml's tree, which builds no Python object and expands no alias, and the
tree is walked into JSON data here. Each plain scalar is resolved with PyYAML's own YAML 1.1
resolvers and constructors (``yes``/``on`` are booleans, ``017`` is octal, ``1e5`` is text,
timestamps become text as :func:`plain_data` writes them), so the data is the data libyaml
gives. Whatever the walk cannot be sure of is left to libyaml, which then parses the text as
if rapidyaml were not there, so its limits and its errors are the only ones: anchors and
aliases (hence every alias bomb), tags, merge keys (``<<``) and ``=``, a stream that is not
exactly one document, a tab, a control or line-separator character, bytes that are not
UTF-8, a directive line, a plain scalar starting with a reserved indicator, a multi-line
flow mapping, a long key, an entry without a key, more nodes than *max_nodes*, nesting
deeper than :data:`MAX_DEPTH`, and anything rapidyaml refuses. rapidyaml's
C++ error handler writes its own message to standard error before it raises.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from types import ModuleType
from typing import Any, Literal

import yaml
from yaml.constructor import SafeConstructor

from . import _yaml_nodes

__all__ = ["Parser", "load_yaml", "parser_in_use", "plain_data", "with_libyaml", "with_rapidyaml"]

Parser = Literal["rapidyaml", "libyaml", "pyyaml"]
UNSURE: Any = object()
"""What :func:`with_rapidyaml` returns for a text it leaves to libyaml."""

_LEFT_TO_LIBYAML = re.compile(
    rb"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbf[\xbe\xbf]|^%",
    re.MULTILINE,
)
"""Bytes whose meaning the two parsers may not share: tabs and control characters, NEL and the
Unicode line separators (line breaks to libyaml), non-characters, and directive lines."""
_RESERVED_FIRST = frozenset(",[]{}#&*!|>'\"%@`")
"""A plain scalar cannot start with these: libyaml refuses what rapidyaml may read as text."""
_INDICATORS = frozenset({"-", "?", ":"})
SHORT_KEY = 100
"""A key of at most this many characters is short enough for libyaml whatever its escapes."""
MAX_KEY = 1000
"""A longer key is left to libyaml, which refuses an implicit key over 1024 characters as written."""
MAX_DEPTH = 100
"""Deeper nesting is left to libyaml, whose loader runs out of recursion near 500 levels
(fewer when called deep in a stack); real documents nest about 20 deep."""
"""A longer key is left to libyaml, which refuses an implicit key over 1024 characters as written."""


class _Unsure(Exception):
    """Raised inside the walk: leave this text to libyaml."""


def load_yaml(body: bytes, *, max_nodes: int) -> Any:
    """*body* (YAML) as JSON data, with rapidyaml when installed and sure, else libyaml.

    Raises what libyaml's loader raises (``yaml.YAMLError``, ``RecursionError``) and
    ``OverflowError`` when the data, aliases expanded, has more than *max_nodes* nodes.
    """
    if _rapidyaml() is not None:
        data = with_rapidyaml(body, max_nodes=max_nodes)
        if data is not UNSURE:
            return data
    return with_libyaml(body, max_nodes=max_nodes)


def with_libyaml(body: bytes, *, max_nodes: int) -> Any:
    """The default parse: PyYAML's safe loader (libyaml's when available), then :func:`plain_data`.

    The loader composes the node tree; :func:`~._yaml_nodes.plain_tree` turns a plain tree
    into the same JSON data in one pass, and leaves any other to the loader's constructor.
    """
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(body)
    try:
        node = loader.get_single_node()
        if node is None:
            return plain_data(None, [max_nodes])
        data = _yaml_nodes.plain_tree(loader, node, max_nodes=max_nodes)
        if data is _yaml_nodes.UNSURE:
            data = plain_data(loader.construct_document(node), [max_nodes])
        return data
    finally:
        loader.dispose()


def plain_data(value: Any, budget: list[int]) -> Any:
    """YAML data as JSON data (string keys, dates as text), at most ``budget[0]`` nodes."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    if isinstance(value, dict):
        return {str(k): plain_data(v, budget) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_data(v, budget) for v in value]
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    return str(value)


def parser_in_use() -> Parser:
    """Which parser :func:`load_yaml` tries first."""
    if _rapidyaml() is not None:
        return "rapidyaml"
    return "libyaml" if getattr(yaml, "__with_libyaml__", False) else "pyyaml"


@functools.cache
def _rapidyaml() -> ModuleType | None:
    """The ``ryml`` module when installed with the tree API the walk uses, else None."""
    try:
        ryml = importlib.import_module("ryml")  # the extra, loaded on first use
    except ImportError:
        return None
    needed: tuple[str, ...] = ("parse_in_arena", "NONE", "MAP", "SEQ", "VAL", "STREAM", "FLOW_ML", "KEYQUO")
    needed += ("VALQUO", "KEY_SQUO", "KEY_DQUO", "KEYANCH", "VALANCH", "KEYREF", "VALREF", "KEYTAG", "VALTAG")
    return ryml if all(hasattr(ryml, name) for name in needed) else None


def with_rapidyaml(body: bytes, *, max_nodes: int) -> Any:
    """*body* as JSON data read with rapidyaml, or :data:`UNSURE` (see the module docstring)."""
    ryml = _rapidyaml()
    if ryml is None or _LEFT_TO_LIBYAML.search(body) or not _utf8(body):
        return UNSURE
    try:
        tree = ryml.parse_in_arena(body)
    except Exception:  # rapidyaml's errors are libyaml's to report
        return UNSURE
    if tree.size() > max_nodes:
        return UNSURE
    try:
        return _Walk(ryml, tree, body).document()
    except (_Unsure, RecursionError, UnicodeDecodeError):
        return UNSURE


def _utf8(body: bytes) -> bool:
    if body.isascii():
        return True
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class _Walk:
    """One rapidyaml tree turned into JSON data, as libyaml's loader and :func:`plain_data` would."""

    def __init__(self, ryml: ModuleType, tree: Any, body: bytes) -> None:
        self.tree = tree
        self.body = body
        self.none = ryml.NONE
        self.map, self.seq, self.val, self.stream = ryml.MAP, ryml.SEQ, ryml.VAL, ryml.STREAM
        self.key_quoted, self.val_quoted = ryml.KEYQUO, ryml.VALQUO
        self.key_squo, self.key_dquo = ryml.KEY_SQUO, ryml.KEY_DQUO
        self.refused = (
            ryml.KEYANCH | ryml.VALANCH | ryml.KEYREF | ryml.VALREF | ryml.KEYTAG | ryml.VALTAG | ryml.FLOW_ML
        )
        self.refused |= getattr(ryml, "KEY_UNFILT", 0) | getattr(ryml, "VAL_UNFILT", 0)
        self.resolved: dict[str, Any] = {}

    def document(self) -> Any:
        tree = self.tree
        root = tree.root_id()
        flags = tree.type(root)
        if flags & self.stream == self.stream:
            if tree.num_children(root) != 1:
                raise _Unsure
            root = tree.first_child(root)
            flags = tree.type(root)
        if not flags & (self.map | self.seq | self.val):
            raise _Unsure  # an empty document: libyaml says what it is
        if flags & self.refused:
            raise _Unsure
        return self._node(root, flags, MAX_DEPTH)

    def _node(self, node: int, flags: int, depth: int) -> Any:
        tree, none, refused = self.tree, self.none, self.refused
        if flags & (self.map | self.seq) and depth <= 0:
            raise _Unsure
        if flags & self.map:
            mapping: dict[str, Any] = {}
            child = tree.first_child(node)
            while child != none:
                child_flags = tree.type(child)
                if child_flags & refused:
                    raise _Unsure
                mapping[self._key(tree.key(child), child_flags)] = self._node(child, child_flags, depth - 1)
                child = tree.next_sibling(child)
            return mapping
        if flags & self.seq:
            items: list[Any] = []
            child = tree.first_child(node)
            while child != none:
                child_flags = tree.type(child)
                if child_flags & refused:
                    raise _Unsure
                items.append(self._node(child, child_flags, depth - 1))
                child = tree.next_sibling(child)
            return items
        raw = tree.val(node)
        text = "" if raw is None else str(raw, "utf-8")
        return text if flags & self.val_quoted else self._plain(text)

    def _key(self, raw: Any, flags: int) -> str:
        if raw is None:
            raise _Unsure  # an entry without a key
        text = str(raw, "utf-8")
        if len(text) > SHORT_KEY:
            self._long_key(text, flags)
        if flags & self.key_quoted:
            return text
        value = self._plain(text)
        return value if value.__class__ is str else str(value)

    def _long_key(self, text: str, flags: int) -> None:
        """Raise :class:`_Unsure` unless libyaml reads the key *text* as an implicit key too
        (at most 1024 characters as written, escapes included): it must be written as is."""
        if flags & self.key_squo:
            written = "'" + text.replace("'", "''") + "'"
        elif flags & self.key_dquo and '"' not in text and "\\" not in text:
            written = f'"{text}"'
        elif flags & self.key_quoted:
            raise _Unsure
        else:
            written = text
        if len(written) > MAX_KEY or written.encode() not in self.body:
            raise _Unsure

    def _plain(self, text: str) -> Any:
        """A plain scalar as libyaml's loader resolves and builds it (YAML 1.1)."""
        try:
            return self.resolved[text]
        except KeyError:
            pass
        first = text[:1]
        if first in _RESERVED_FIRST or (first in _INDICATORS and (len(text) == 1 or text[1] == " ")):
            raise _Unsure
        value = _resolve(text)
        self.resolved[text] = value
        return value


def _resolve(text: str) -> Any:
    resolvers = _IMPLICIT.get(text[:1], ()) if text else _IMPLICIT.get("", ())
    for tag, pattern in (*resolvers, *_IMPLICIT.get(None, ())):
        if pattern.match(text):
            if tag == _NULL:
                return None
            build = _BUILDERS.get(tag)
            if build is None:  # a merge key, '=', or a resolver added by the application
                raise _Unsure
            value = build(yaml.ScalarNode(tag, text))
            return value if isinstance(value, (bool, int, float)) else str(value)
    return text


_NULL = "tag:yaml.org,2002:null"
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_IMPLICIT: dict[Any, list[tuple[str, re.Pattern[str]]]] = _LOADER.yaml_implicit_resolvers
"""The loader's own implicit resolvers, by first character (None: tried for every scalar)."""
_BUILDERS: dict[str, Callable[[yaml.ScalarNode], Any]] = {
    tag: functools.partial(_LOADER.yaml_constructors[tag], SafeConstructor())
    for tag in (f"tag:yaml.org,2002:{name}" for name in ("bool", "int", "float", "timestamp"))
}
