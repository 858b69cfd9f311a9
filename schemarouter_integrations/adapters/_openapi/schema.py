"""OpenAPI 3.0/3.1 schemas as plain JSON Schema: ``$ref`` resolution, nullable, records.

References are resolved with ``referencing`` against the document's own URL. A ``$ref``
that leads back to itself (directly or through other references) is a cycle: resolving it
raises :class:`SchemaCycleError` (a ``RegistrationError``) instead of recursing forever.
Inlined schemas are bounded in size too, so a document cannot blow up registration.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from referencing import Registry, Resource
from referencing.exceptions import Unresolvable

from ...errors import RegistrationError

MAX_INLINED_NODES = 20_000
_DATA_KEYWORDS = frozenset({"example", "examples", "default", "enum", "const"})
_OPENAPI_ONLY = frozenset({"nullable", "discriminator", "xml", "externalDocs", "example"})


class SchemaCycleError(RegistrationError):
    """A ``$ref`` cycle: the schema refers back to itself."""


@dataclass(frozen=True, slots=True)
class Records:
    """Where a response keeps its records and the schema of one record."""

    path: tuple[str, ...] | None
    record: dict[str, Any] | None


class SchemaResolver:
    """Resolves references of one OpenAPI document (``version`` ``"3.0"`` or ``"3.1"``)."""

    def __init__(self, document: dict[str, Any], url: str, version: str) -> None:
        self.url = url
        self.version = version
        registry: Registry[Any] = Registry().with_resource(url, Resource.opaque(document))
        self._resolver = registry.resolver(base_uri=url)
        self._budget = 0

    # -- references ------------------------------------------------------------------
    def lookup(self, ref: str) -> Any:
        """The node a ``$ref`` points at (one step, no further resolution)."""
        try:
            return self._resolver.lookup(ref).contents
        except Unresolvable:
            where = "another document" if not ref.startswith("#") else "this document"
            raise RegistrationError(
                f"cannot resolve $ref {ref!r}: it points at nothing in {where} "
                "(only references inside the document are followed)"
            ) from None

    def deref(self, node: Any, seen: tuple[str, ...] = ()) -> Any:
        """Follow a chain of ``$ref`` until a node that is not a reference."""
        chain = list(seen)
        while _is_ref(node):
            key = urljoin(self.url, node["$ref"])
            if key in chain:
                raise SchemaCycleError(_cycle_message([*chain, key]))
            chain.append(key)
            node = self.lookup(node["$ref"])
        return node

    # -- schemas ---------------------------------------------------------------------
    def inline(self, schema: Any) -> dict[str, Any]:
        """A self-contained JSON Schema (2020-12): references inlined, OpenAPI-isms removed.

        Raises :class:`SchemaCycleError` for recursive schemas and ``RegistrationError``
        for schemas too large to inline.
        """
        self._budget = MAX_INLINED_NODES
        try:
            result = self._inline(schema, ())
        except RecursionError:
            raise RegistrationError("a schema is nested too deeply to inline") from None
        return result if isinstance(result, dict) else {}

    def _inline(self, node: Any, stack: tuple[str, ...]) -> Any:
        self._budget -= 1
        if self._budget < 0:
            raise RegistrationError(f"a schema is too large to inline (more than {MAX_INLINED_NODES} nodes)")
        if isinstance(node, list):
            return [self._inline(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        if _is_ref(node):
            key = urljoin(self.url, node["$ref"])
            if key in stack:
                raise SchemaCycleError(_cycle_message([*stack, key]))
            target = self._inline(self.lookup(node["$ref"]), (*stack, key))
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if self.version == "3.0" or not siblings or not isinstance(target, dict):
                return target
            return {**target, **{k: self._inline(v, stack) for k, v in siblings.items()}}
        out = {
            key: value if key in _DATA_KEYWORDS else self._inline(value, stack) for key, value in node.items()
        }
        return normalise_schema(out, self.version)

    # -- responses -------------------------------------------------------------------
    def records(self, schema: Any) -> Records:
        """Where the records sit in a response of this *schema*.

        An array of objects holds records at the root; an object with exactly one
        array-of-objects property holds them there; any other object is one record.
        """
        node = self.concrete(schema)
        items = self._array_items(node)
        if items is not None:
            return Records(None, items)
        if not _object_like(node):
            return Records(None, None)
        holders = [
            (name, items)
            for name, prop in self.properties(node).items()
            if (items := self._array_items(self.concrete(prop))) is not None
        ]
        if len(holders) == 1:
            return Records((holders[0][0],), holders[0][1])
        return Records(None, node)

    def properties(self, schema: Any) -> dict[str, Any]:
        """The properties of an object schema, ``allOf`` parts merged, refs followed once."""
        node = self.concrete(schema)
        merged: dict[str, Any] = {}
        for part in self._all_of(node):
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

    def _array_items(self, node: dict[str, Any]) -> dict[str, Any] | None:
        if "array" not in _types(node) and "items" not in node:
            return None
        items = self.concrete(node.get("items", {}))
        return items if _object_like(items) else None

    def _all_of(self, node: dict[str, Any], depth: int = 0) -> Iterator[dict[str, Any]]:
        yield node
        parts = node.get("allOf")
        if isinstance(parts, list) and depth < 16:
            for part in parts:
                yield from self._all_of(self.concrete(part), depth + 1)


def normalise_schema(schema: dict[str, Any], version: str) -> dict[str, Any]:
    """Turn one OpenAPI schema object into JSON Schema 2020-12 (children already done).

    3.0: ``nullable: true`` becomes a ``"null"`` type (or an ``anyOf`` with null), and the
    boolean ``exclusiveMinimum``/``exclusiveMaximum`` become numbers. OpenAPI-only keywords
    (``discriminator``, ``xml``, ...) are dropped.
    """
    out = {k: v for k, v in schema.items() if k not in _OPENAPI_ONLY}
    if version != "3.0":
        return out
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = out.get(exclusive)
        if isinstance(flag, bool):
            del out[exclusive]
            if flag and bound in out:
                out[exclusive] = out.pop(bound)
    if schema.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
            if isinstance(out.get("enum"), list) and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        elif kind is None:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def _is_ref(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("$ref"), str)


def _is_null(node: Any) -> bool:
    return isinstance(node, dict) and (node.get("type") == "null" or node.get("enum") == [None])


def _types(node: dict[str, Any]) -> set[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return {kind}
    return {k for k in kind if isinstance(k, str)} if isinstance(kind, list) else set()


def _object_like(node: dict[str, Any]) -> bool:
    return "object" in _types(node) or "properties" in node or "allOf" in node


def _cycle_message(chain: list[str]) -> str:
    names = " -> ".join(ref.split("#", 1)[-1] or ref for ref in chain)
    return f"$ref cycle: {names}"
