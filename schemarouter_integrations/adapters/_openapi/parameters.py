"""What an OpenAPI parameter's schema carries besides its own: its description, its example
values, and the path segment before it.

Planning reads them as evidence of the kind of subject a parameter's value names
(``_planning/subject.py``): several operations of a document often take the same name
(``id``), and ``/bioentity/disease/{id}/phenotypes`` with "CURIE identifier of disease, e.g.
OMIM:605543, DOID:678" says that its ``id`` names a disease.

- ``description``: the parameter's, when its schema has none (first paragraph, one line).
- ``examples`` (JSON Schema's): the parameter's ``example`` and ``examples`` values, the
  schema's ``example``, and the compact identifiers (CURIEs such as ``DOID:678``) its
  description gives, for a parameter taking text; at most :data:`MAX_EXAMPLES`, each short.
  A schema that already has ``examples`` keeps them.
- :data:`~..._contracts.schemas.PATH_SEGMENT`: the literal segment before a path parameter
  (``disease`` in ``/bioentity/disease/{id}/phenotypes``).
- :data:`~..._contracts.schemas.PATH_TAIL`: for the last path parameter, the literal segments
  after it (``phenotypes``): what the operation returns of the subject the value names.
- ``type``: a path parameter declared as a number that another operation of the document
  declares as text under the same name (CORE's ``/articles/search/{query}`` types its search
  text as an integer; ``/search/{query}`` as a string) takes text as well: the document
  contradicts itself, a path carries text, and the server's own check decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ..._contracts.schemas import PATH_SEGMENT, PATH_TAIL
from .._fields import short_description
from .operations import OperationRecord, parameter_schema

_NUMBERS = ("integer", "number")
MAX_EXAMPLES = 8
"""At most this many example values are kept per parameter."""
MAX_EXAMPLE_CHARS = 100
"""A longer example value is left out."""
_CURIE = re.compile(r"(?<![\w:/.-])[A-Za-z][A-Za-z0-9_.-]{0,30}:[A-Za-z0-9][A-Za-z0-9_.-]{0,60}(?![\w:/])")
"""A compact identifier written in a description ("DOID:678", "REACT:R-HSA-5387390"): a
prefix, a colon, a local part; never a URL ("https://...") or a time ("10:30")."""


def parameter_notes(
    schema: dict[str, Any], param: Mapping[str, Any], path: str, text_names: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """*schema* (a parameter's, inlined) with its description, examples and path segment;
    *text_names* are the path parameters some operation declares as text."""
    out = dict(schema)
    described = param.get("description")
    if "description" not in out and isinstance(described, str):
        out["description"] = short_description(described)
    if "examples" not in out:
        found = list(dict.fromkeys(_examples(param, schema)))[:MAX_EXAMPLES]
        if found:
            out["examples"] = found
    if param.get("in") == "path":
        segment = segment_before(path, str(param.get("name")))
        if segment:
            out[PATH_SEGMENT] = segment
        tail = tail_after(path, str(param.get("name")))
        if tail:
            out[PATH_TAIL] = tail
        if param.get("name") in text_names and out.get("type") in _NUMBERS:
            out["type"] = [out["type"], "string"]
    return out


def text_path_names(
    records: Iterable[OperationRecord], concrete: Callable[[Any], dict[str, Any]]
) -> frozenset[str]:
    """The names of the path parameters some operation of *records* declares as text."""
    return frozenset(
        str(param.get("name"))
        for record in records
        for param in record.parameters
        if param.get("in") == "path" and concrete(parameter_schema(param)).get("type") == "string"
    )


def segment_before(path: str, name: str) -> str | None:
    """The literal segment right before ``{name}`` in *path* (None: a parameter or nothing)."""
    parts = [p for p in path.split("/") if p]
    for at, part in enumerate(parts):
        if part == "{" + name + "}" and at > 0:
            before = parts[at - 1]
            return None if "{" in before else before
    return None


def tail_after(path: str, name: str) -> str | None:
    """The literal segments after ``{name}`` in *path*, joined by "/", when no parameter
    follows it (None: another parameter follows, or nothing does)."""
    parts = [p for p in path.split("/") if p]
    marker = "{" + name + "}"
    if marker not in parts:
        return None
    rest = parts[parts.index(marker) + 1 :]
    if not rest or any("{" in part for part in rest):
        return None
    return "/".join(rest)


def _examples(param: Mapping[str, Any], schema: Mapping[str, Any]) -> Iterator[Any]:
    """Every short scalar example of *param* (see the module docstring), in document order."""
    yield from _scalars(param.get("example"))
    examples = param.get("examples")
    if isinstance(examples, Mapping):
        for example in examples.values():
            if isinstance(example, Mapping):
                yield from _scalars(example.get("value"))
    yield from _scalars(schema.get("example"))
    description = param.get("description")
    if isinstance(description, str) and _takes_text(schema):
        for match in _CURIE.finditer(description[:2000]):
            yield match.group(0).rstrip(".")


def _scalars(value: Any) -> Iterator[Any]:
    """*value*'s short strings and numbers (a list's items)."""
    items = value if isinstance(value, list) else [value]
    for item in items[:MAX_EXAMPLES]:
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, (int, float)) or (isinstance(item, str) and 0 < len(item) <= MAX_EXAMPLE_CHARS):
            yield item


def _takes_text(schema: Mapping[str, Any]) -> bool:
    """True when *schema* takes a string, or a list of strings (or says no type)."""
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return isinstance(items, Mapping) and items.get("type") in (None, "string")
    return kind in (None, "string") or (isinstance(kind, list) and "string" in kind)
