"""OpenAPI 3.0/3.1 schemas as plain JSON Schema: ``$ref`` resolution, nullable, records.

References are resolved with ``referencing`` against the document's own URL, over the
document and the files its external references brought in (read beforehand by
:func:`~.._documents.load_document_set`, every ``$ref`` inside them already absolute, so a
reference in a file resolves relative to that file). A reference into a file that could not be
read is a short ``RegistrationError`` naming the reference as written and why. A ``$ref``
that leads back to itself (directly or through other references, in one file or across
files) without any content is a cycle: resolving it raises :class:`SchemaCycleError` (a
``RegistrationError``) instead of recursing forever; a recursive schema (a tree whose
``children`` are trees, in one file or across two) is fine where it is only read, and
summarised where it would be inlined whole. Inlined schemas are bounded in size too, so a
document cannot blow up registration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from referencing import Registry, Resource
from referencing.exceptions import Unresolvable

from ..._nodes import MISSING, follow
from ...errors import RegistrationError
from .written import normalise_schema

MAX_INLINED_NODES = 20_000
_DATA_KEYWORDS = frozenset({"example", "examples", "default", "enum", "const"})
_NESTING = frozenset({"items", "additionalProperties", "prefixItems", "contains", "unevaluatedProperties"})
"""Keywords whose schema describes a value nested inside this one."""
_NAMED_NESTING = frozenset({"properties", "patternProperties"})
_SUMMARY = frozenset({"type", "title", "description", "format", "nullable"})
"""What a value nested deeper than the asked depth keeps."""
_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "examples",
        "example",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
    }
)
"""Keywords that describe rather than constrain (dropped by ``inline(..., annotations=False)``)."""


class SchemaCycleError(RegistrationError):
    """A ``$ref`` cycle: the schema refers back to itself."""


class SchemaResolver:
    """Resolves references of one OpenAPI document (``version`` ``"3.0"`` or ``"3.1"``).

    Lookups are kept by reference text, and a reference inside the document (``#/...``) is
    read by its JSON pointer directly, so a large document pays for what it uses only.
    """

    def __init__(
        self,
        document: dict[str, Any],
        url: str,
        version: str,
        *,
        files: Mapping[str, Any] | None = None,
        problems: Mapping[str, str] | None = None,
        shown: Callable[[str], str] | None = None,
    ) -> None:
        """*files* maps the URL of each other file of the document to its data (references in
        it absolute), *problems* a file that could not be read to why, *shown* an absolute
        reference to the way its document wrote it, quoted (for messages)."""
        self.url = url
        self.version = version
        self._document = document
        resources = [(url, Resource.opaque(document))]
        resources += [(file, Resource.opaque(data)) for file, data in (files or {}).items()]
        registry: Registry[Any] = Registry().with_resources(resources)
        self._resolver = registry.resolver(base_uri=url)
        self._files: dict[str, Any] = dict(files or {})
        self._problems = dict(problems or {})
        self._shown = shown or repr
        self._lookups: dict[str, tuple[str, Any]] = {}
        self._finding: set[str] = set()
        self._entered: dict[str, int] = {}
        self._recursive = False
        self._budget = 0
        self._annotations = True

    # -- references ------------------------------------------------------------------
    def lookup(self, ref: str) -> Any:
        """The node a ``$ref`` points at (one step, no further resolution)."""
        return self._lookup(ref)[1]

    def _lookup(self, ref: str) -> tuple[str, Any]:
        """``(key, node)``: the absolute reference and the node it points at, kept."""
        known = self._lookups.get(ref)
        if known is None:
            if ref in self._finding:  # its pointer passes through a $ref that leads back to it
                raise SchemaCycleError(f"$ref cycle: {ref.split('#', 1)[-1] or ref}")
            self._finding.add(ref)
            try:
                known = self._lookups[ref] = (urljoin(self.url, ref), self._find(ref))
            finally:
                self._finding.discard(ref)
        return known

    def _find(self, ref: str) -> Any:
        absolute = urljoin(self.url, ref)
        file, fragment = urldefrag(absolute)
        data = self._document if file == self.url else self._files.get(file, MISSING)
        if data is not MISSING and (not fragment or fragment.startswith("/")):
            found = self._pointer(data, fragment)
            if found is not MISSING:
                return found
        shown = repr(ref) if ref.startswith("#") else self._shown(absolute)
        problem = self._problems.get(file)
        if problem is not None:
            raise RegistrationError(f"cannot resolve $ref {shown}: {problem}")
        try:
            return self._resolver.lookup(absolute).contents
        except Unresolvable:
            home = ref.startswith("#") or file == self.url
            where = "this document" if home else "that file"
            raise RegistrationError(f"cannot resolve $ref {shown}: it points at nothing in {where}") from None

    def _pointer(self, node: Any, pointer: str) -> Any:
        """The node at JSON *pointer* in *node*, through whole objects given as ``$ref``
        (``"paths": {"$ref": "./paths.json"}``, ``"schemas": {"$ref": "#/x-schemas"}``)."""
        keys = (unquote(raw).replace("~1", "/").replace("~0", "~") for raw in pointer[1:].split("/"))
        return follow(node, keys if pointer else (), self._entering)

    def _entering(self, node: Any, key: str) -> Any:
        """*node*, or the object it refers to when it is a ``$ref`` without a member *key*."""
        return self.deref(node) if _is_ref(node) and key not in node else node

    def deref(self, node: Any, seen: tuple[str, ...] = ()) -> Any:
        """Follow a chain of ``$ref`` until a node that is not a reference."""
        chain = list(seen)
        while _is_ref(node):
            key, target = self._lookup(node["$ref"])
            if key in chain:
                raise SchemaCycleError(_cycle_message([*chain, key]))
            chain.append(key)
            node = target
        return node

    # -- schemas ---------------------------------------------------------------------
    def inline(
        self, schema: Any, *, depth: int | None = None, annotations: bool = True, recursive: bool = False
    ) -> dict[str, Any]:
        """A self-contained JSON Schema (2020-12): references inlined, OpenAPI-isms removed.

        With *depth*, values nested deeper than *depth* levels (object properties, array
        items) are summarised by their ``type``, ``title``, ``description`` and ``format``.
        ``annotations=False`` keeps only what constrains values: titles, descriptions,
        examples, defaults and ``x-`` extensions are left out (the shape of a value, which
        many fields share). ``recursive=True`` inlines a recursive schema (a filter expression
        whose ``and`` items are expressions) once, the value where it recurs summarised like
        a value deeper than *depth*.
        Raises :class:`SchemaCycleError` for recursive schemas (without ``recursive``, and
        always for a cycle that never descends into a nested value) and ``RegistrationError``
        for schemas too large to inline.
        """
        self._budget = MAX_INLINED_NODES
        self._annotations = annotations
        self._recursive = recursive
        self._entered.clear()
        try:
            result = self._inline(schema, (), MAX_INLINED_NODES if depth is None else depth)
        except RecursionError:
            raise RegistrationError("a schema is nested too deeply to inline") from None
        return result if isinstance(result, dict) else {}

    def _inline(self, node: Any, stack: tuple[str, ...], depth: int) -> Any:
        self._budget -= 1
        if self._budget < 0:
            raise RegistrationError(f"a schema is too large to inline (more than {MAX_INLINED_NODES} nodes)")
        if isinstance(node, list):
            return [self._inline(item, stack, depth) for item in node]
        if not isinstance(node, dict):
            return node
        if _is_ref(node):
            key, found = self._lookup(node["$ref"])
            if key in stack:
                if self._recursive and depth < self._entered[key]:  # it recurs inside itself
                    return self._summary(found)
                raise SchemaCycleError(_cycle_message([*stack, key]))
            self._entered[key] = depth
            try:
                target = self._inline(found, (*stack, key), depth)
            finally:
                del self._entered[key]
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if self.version == "3.0" or not siblings or not isinstance(target, dict):
                return target
            return {**target, **{k: self._inline(v, stack, depth) for k, v in siblings.items()}}
        if depth < 0:
            kept = _SUMMARY if self._annotations else _SUMMARY - _ANNOTATIONS
            return normalise_schema({k: v for k, v in node.items() if k in kept}, self.version)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if not self._annotations and (key in _ANNOTATIONS or key.startswith("x-")):
                continue
            if key in _DATA_KEYWORDS:
                out[key] = value
            elif key in _NESTING:
                out[key] = self._inline(value, stack, depth - 1)
            elif key in _NAMED_NESTING and isinstance(value, dict):
                out[key] = {name: self._inline(v, stack, depth - 1) for name, v in value.items()}
            else:
                out[key] = self._inline(value, stack, depth)
        return normalise_schema(out, self.version)

    def _summary(self, node: Any) -> dict[str, Any]:
        """A value's ``type``, ``title``, ``description`` and ``format`` (what a value nested
        deeper than asked keeps)."""
        try:
            found = self.deref(node)
        except SchemaCycleError:
            return {}
        kept = _SUMMARY if self._annotations else _SUMMARY - _ANNOTATIONS
        return normalise_schema({k: v for k, v in as_mapping(found).items() if k in kept}, self.version)

    # -- object schemas --------------------------------------------------------------
    def properties(self, schema: Any) -> dict[str, Any]:
        """The properties of an object schema, ``allOf`` parts merged, refs followed once."""
        merged: dict[str, Any] = {}
        for part in self.all_of(self.concrete(schema)):
            properties = part.get("properties")
            if isinstance(properties, dict):
                merged.update(properties)
        return merged

    def concrete(self, schema: Any) -> dict[str, Any]:
        """*schema* dereferenced, with nullable wrappers (``anyOf``/``oneOf`` with null) removed."""
        node = self.deref(schema)
        for _ in range(32):
            if not isinstance(node, dict):
                return {}
            options = node.get("anyOf") or node.get("oneOf")
            if not isinstance(options, list):
                return node
            real = [o for o in (self.deref(o) for o in options) if not _is_null(o)]
            if len(real) != 1:
                return node
            node = real[0]
        return node if isinstance(node, dict) else {}

    def all_of(self, node: dict[str, Any], depth: int = 0) -> Iterator[dict[str, Any]]:
        """*node* and, depth first, every part of its ``allOf`` (each made concrete)."""
        yield node
        parts = node.get("allOf")
        if isinstance(parts, list) and depth < 16:
            for part in parts:
                yield from self.all_of(self.concrete(part), depth + 1)


def as_mapping(node: Any) -> dict[str, Any]:
    return node if isinstance(node, dict) else {}


def _is_ref(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("$ref"), str)


def _is_null(node: Any) -> bool:
    return isinstance(node, dict) and (node.get("type") == "null" or node.get("enum") == [None])


def types_of(node: dict[str, Any]) -> set[str]:
    """The JSON types a schema names in ``type`` (none when it names none)."""
    kind = node.get("type")
    if isinstance(kind, str):
        return {kind}
    return {k for k in kind if isinstance(k, str)} if isinstance(kind, list) else set()


def is_object_like(node: dict[str, Any]) -> bool:
    """Whether a (concrete) schema describes an object."""
    return "object" in types_of(node) or "properties" in node or "allOf" in node


def _cycle_message(chain: list[str]) -> str:
    names = " -> ".join(ref.split("#", 1)[-1] or ref for ref in chain)
    return f"$ref cycle: {names}"
