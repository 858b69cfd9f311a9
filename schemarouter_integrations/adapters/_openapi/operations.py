"""One walk over the operations of an OpenAPI document, yielding typed records.

:func:`walk_operations` visits every path item and method once, in document order, and
names each operation: an ``operationId`` that is a valid endpoint name stays as it is; any
other (``issues/list-for-repo``, or none) becomes a safe name (``issues_list_for_repo``)
that no valid operationId of the document takes, numbered when two would meet. What an
operation refers to (parameters merged from the path item and the operation, the request
body, the success response schema) is resolved on first use and kept, so nothing is
resolved twice and an operation that is never built is never resolved."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..._registry.words import text_words, word_forms
from ...errors import RegistrationError
from .._fields import is_valid_name, safe_name, unique_name
from .schema import SchemaResolver
from .written import read_flags

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_OBJECT_FLAGS = ("required", "explode", "allowEmptyValue", "allowReserved", "deprecated")


def openapi_version(document: Mapping[str, Any]) -> str:
    """``"3.0"`` or ``"3.1"``; anything else is refused."""
    declared = str(document.get("openapi", ""))
    for version in ("3.0", "3.1"):
        if declared == version or declared.startswith(version + "."):
            return version
    if "swagger" in document:
        raise RegistrationError("Swagger 2.0 documents are not supported; convert to OpenAPI 3")
    raise RegistrationError(f"unsupported OpenAPI version {declared or '(missing)'!r}; 3.0 and 3.1 are")


class DocumentTexts:
    """What a document says of its operations outside them: its tags' descriptions, and how
    many operations give each success-response description (counted on first use)."""

    def __init__(
        self,
        document: Mapping[str, Any],
        operations: tuple[tuple[str, dict[str, Any]], ...],
        resolver: SchemaResolver,
    ) -> None:
        tags = resolver.deref(document.get("tags"))
        self.tag_descriptions: dict[str, str] = {
            tag["name"]: tag["description"]
            for tag in (resolver.deref(t) for t in (tags if isinstance(tags, list) else ()))
            if isinstance(tag, dict)
            and isinstance(tag.get("name"), str)
            and isinstance(tag.get("description"), str)
        }
        self._operations = operations
        self._resolver = resolver

    @cached_property
    def head_words(self) -> frozenset[str]:
        """Every form of the words the operations name themselves by: operationIds, tags,
        literal path segments and summaries (a tag description's word among them says
        nothing of one operation in particular)."""
        found: set[str] = set()
        for path, operation in self._operations:
            texts = [operation.get("operationId"), operation.get("summary"), path]
            tags = operation.get("tags")
            texts.extend(tags if isinstance(tags, list) else ())
            for text in texts:
                if isinstance(text, str):
                    found.update(form for word in text_words(text) for form in word_forms(word))
        return frozenset(found)

    @cached_property
    def response_counts(self) -> dict[str, int]:
        """Success-response description -> how many operations of the document give it."""
        counts: dict[str, int] = {}
        for _, operation in self._operations:
            text = response_description(operation, self._resolver)
            if text:
                counts[text] = counts.get(text, 0) + 1
        return counts


def response_description(operation: Mapping[str, Any], resolver: SchemaResolver) -> str:
    """The description of *operation*'s success response ("" when none)."""
    response = success_response(operation, resolver)
    text = response.get("description") if response is not None else None
    return " ".join(text.split()) if isinstance(text, str) else ""


@dataclass(frozen=True)
class OperationRecord:
    """One operation: where it sits, its names, and what it refers to (resolved once)."""

    path: str
    method: str
    endpoint: str
    """The endpoint name: the operationId made safe and unique."""
    label: str
    """The operationId, or ``"<method> <path>"`` when there is none."""
    tags: tuple[str, ...]
    operation: dict[str, Any] = field(repr=False)
    item: dict[str, Any] = field(repr=False)
    resolver: SchemaResolver = field(repr=False, compare=False)
    texts: DocumentTexts | None = field(default=None, repr=False, compare=False)
    """What the document says of its operations outside them (``texts.py``)."""

    @property
    def names(self) -> tuple[str, str]:
        """Every name an option may use for this operation."""
        return self.endpoint, self.label

    @property
    def renamed(self) -> bool:
        """Whether the endpoint name differs from the operationId (or there is none)."""
        return self.endpoint != self.label

    @property
    def servers(self) -> Any:
        """The operation's or path item's ``servers`` (falsy: the document's apply)."""
        return self.operation.get("servers") or self.item.get("servers")

    @cached_property
    def parameters(self) -> tuple[dict[str, Any], ...]:
        """Path-item and operation parameters, resolved; the operation's win per (name, in)."""
        merged: dict[tuple[str, str], dict[str, Any]] = {}
        for listed in (self.item.get("parameters"), self.operation.get("parameters")):
            source = self.resolver.deref(listed)
            for raw in source if isinstance(source, list) else ():
                param = self.resolver.deref(raw)
                if isinstance(param, dict) and isinstance(param.get("name"), str):
                    merged[parameter_key(param)] = flags_as_written(param)
        return tuple(merged.values())

    @cached_property
    def query_parameters(self) -> frozenset[str]:
        """The names of the query parameters."""
        return frozenset(
            wire for wire, location in map(parameter_key, self.parameters) if location == "query"
        )

    @cached_property
    def request_body(self) -> tuple[dict[str, Any], Any] | None:
        """The request body object and the schema of its JSON media type, if any."""
        body = self.resolver.deref(self.operation.get("requestBody"))
        schema = json_schema_of(body, self.resolver) if isinstance(body, dict) else None
        body = flags_as_written(body) if isinstance(body, dict) else body
        return None if schema is None else (body, schema)

    @cached_property
    def response_schema(self) -> Any:
        """The JSON schema of the success response (200, else the first 2xx, else 2XX), if any."""
        response = success_response(self.operation, self.resolver)
        return json_schema_of(response, self.resolver) if response is not None else None


def success_response(operation: Mapping[str, Any], resolver: SchemaResolver) -> dict[str, Any] | None:
    """The success response object of *operation* (200, else the first 2xx, else 2XX), if any."""
    responses = resolver.deref(operation.get("responses"))
    responses = {str(k): v for k, v in responses.items()} if isinstance(responses, dict) else {}
    codes = ["200", *sorted(c for c in responses if c.startswith("2") and c != "200"), "2XX"]
    chosen = next((responses[c] for c in codes if c in responses), None)
    response = resolver.deref(chosen)
    return response if isinstance(response, dict) else None


def walk_operations(document: Mapping[str, Any], resolver: SchemaResolver) -> Iterator[OperationRecord]:
    """Every operation of *document*, in order, each named once."""
    found: list[tuple[str, str, dict[str, Any], dict[str, Any], str]] = []
    paths = resolver.deref(document.get("paths"))  # a whole-object $ref too
    for path, raw_item in paths.items() if isinstance(paths, dict) else ():
        item = resolver.deref(raw_item)
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            operation = resolver.deref(item.get(method))
            if isinstance(operation, dict):
                original = operation.get("operationId")
                label = original if isinstance(original, str) and original else f"{method} {path}"
                found.append((str(path), method, operation, item, label))
    texts = DocumentTexts(document, tuple((path, operation) for path, _, operation, _, _ in found), resolver)
    taken = {label for *_, label in found if is_valid_name(label)}
    kept: set[str] = set()
    for path, method, operation, item, label in found:
        if is_valid_name(label) and label not in kept:
            endpoint = label
            kept.add(label)
        else:
            endpoint = unique_name(safe_name(label), taken)
        raw_tags = operation.get("tags")
        tags = tuple(t for t in raw_tags if isinstance(t, str)) if isinstance(raw_tags, list) else ()
        yield OperationRecord(path, method, endpoint, label, tags, operation, item, resolver, texts)


def flags_as_written(node: dict[str, Any]) -> dict[str, Any]:
    """A parameter or request body with ``required``/``explode``/... written as strings
    (``required: "true"``) read as booleans; a flag that is neither is left out."""
    if not any(isinstance(node.get(k), str) for k in _OBJECT_FLAGS):
        return node
    out = dict(node)
    read_flags(out, _OBJECT_FLAGS)
    return out


def parameter_key(param: Mapping[str, Any]) -> tuple[str, str]:
    """``(name, in)``: what identifies a parameter."""
    return str(param.get("name")), str(param.get("in"))


def parameter_schema(param: Mapping[str, Any]) -> Any:
    """A parameter's schema: ``schema``, else that of its first ``content`` media type."""
    if "schema" in param:
        return param["schema"]
    content = param.get("content")
    if isinstance(content, dict) and content:
        media = next(iter(content.values()))
        if isinstance(media, dict):
            return media.get("schema", {})
    return {}


def json_schema_of(container: Mapping[str, Any], resolver: SchemaResolver | None = None) -> Any:
    """The schema of the JSON media type of a response or request body, if any (the
    ``content`` and media objects may be whole-object ``$ref``s when *resolver* is given)."""
    deref: Callable[[Any], Any] = resolver.deref if resolver is not None else _as_it_is
    content = deref(container.get("content"))
    if not isinstance(content, dict):
        return None
    media = content.get("application/json")
    if media is None:
        media = next((v for k, v in content.items() if "json" in str(k).lower()), None)
    media = deref(media)
    if not isinstance(media, dict) or "schema" not in media:
        return None
    return media["schema"]


def _as_it_is(node: Any) -> Any:
    return node
