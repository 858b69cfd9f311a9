"""Locating records in a raw response and projecting them to canonical fields."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._bounded import BoundedCache
from .._contracts import EndpointSpec, FieldSpec
from .._contracts.schemas import response_errors
from .._nodes import MISSING, follow
from .._planning import ToolCall
from ..errors import SchemaValidationError


def records_of(call: ToolCall, endpoint: EndpointSpec, raw: Any) -> list[dict[str, Any]]:
    """Validate *raw* against the output schema, locate its records, project them."""
    if endpoint.output_schema is not None:
        errors = response_errors(endpoint.output_schema, raw, key=f"out:{call.endpoint_fingerprint}")
        if errors:
            raise SchemaValidationError(
                f"response of {call.access_path} breaks its output schema: {'; '.join(errors)}",
                errors=errors,
                subject="response",
            )
    records = locate_records(raw, endpoint.records_path, undeclared=not endpoint.fields)
    return project_records(records, endpoint, call.selected_fields)


VALUE_KEY = "value"
"""The key a plain value is kept under as a record, where the contract declares no records."""


def locate_records(
    raw: Any, records_path: Sequence[str] | None, *, undeclared: bool = False
) -> list[dict[str, Any]]:
    """The list of record objects at *records_path* (a lone object is one record).

    *undeclared*: the contract says nothing of the records (no fields), so plain values
    there are data as the source sent them: each one a record ``{"value": ...}`` (a body
    that is one string, a list of numbers), not a response breaking its contract."""
    node = raw
    for key in records_path or ():
        if not isinstance(node, dict) or key not in node:
            where = "/".join(records_path or ())
            raise SchemaValidationError(f"response has no records at {where!r}", subject="response")
        node = node[key]
    if node is None:
        return []
    if isinstance(node, dict):
        return [node]
    if isinstance(node, list) and all(isinstance(item, dict) for item in node):
        return node
    if undeclared:
        items = node if isinstance(node, list) else [node]
        return [item if isinstance(item, dict) else {VALUE_KEY: item} for item in items]
    raise SchemaValidationError(
        f"records must be an object or a list of objects, got {type(node).__name__}", subject="response"
    )


COUNT_KEYS = ("total_doc", "data_returned", "total", "total_count", "totalCount", "total_results",
              "totalResults", "count")  # fmt: skip
"""Where answers report how many records match: in their ``meta`` object or beside the records
(MP's ``meta.total_doc``, OPTIMADE's ``meta.data_returned``, ``total``, ``totalCount``, ...)."""


def listing_count(raw: Any, records_path: Sequence[str] | None) -> tuple[int | None, bool]:
    """``(total, more)`` of a listing: the count of matching records the answer reports, if
    any (read only where the records sit inside a wrapper), and whether it says more exist
    (OPTIMADE's ``meta.more_data_available``, or ``truncated: true`` beside the records, as
    another router's MCP answer says it)."""
    if not records_path or not isinstance(raw, dict):
        return None, False
    meta = raw.get("meta")
    places = (meta, raw) if isinstance(meta, dict) else (raw,)
    total = next(
        (
            value
            for place in places
            for key in COUNT_KEYS
            if type(value := place.get(key)) is int and value >= 0
        ),
        None,
    )
    more = (isinstance(meta, dict) and meta.get("more_data_available") is True) or raw.get(
        "truncated"
    ) is True
    return total, more


read_path = follow
"""The value of *record* at a field's wire path (:data:`MISSING` where there is none)."""


def write_path(target: dict[str, Any], path: Sequence[str], value: Any) -> None:
    node = target
    for key in path[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    node[path[-1]] = value


def project_records(
    records: list[dict[str, Any]], endpoint: EndpointSpec, selected: Sequence[str]
) -> list[dict[str, Any]]:
    """Read each selected field from its wire ``path``; write it at ``result_path``.

    Everything not selected is dropped, so results carry canonical names only. A field
    absent from a record is absent from its projection (the source did not return it); a
    ``null`` the source returned stays ``None``. An endpoint that declares no fields has no
    canonical names to project to: its records pass through unchanged. Records that cannot
    be written as JSON are a ``SchemaValidationError`` (see :func:`checked_records`).
    """
    if not endpoint.fields:
        return checked_records([dict(record) for record in records])
    fields, flat = _projection(endpoint, selected)
    if flat is not None:  # every field one key read and one key written: the common case
        return checked_records([{out: rec[key] for key, out in flat if key in rec} for rec in records])
    projected: list[dict[str, Any]] = []
    for record in records:
        out: dict[str, Any] = {}
        for spec in fields:
            value = read_path(record, spec.wire_path)
            if value is not MISSING:
                write_path(out, spec.result_location, value)
        projected.append(out)
    return checked_records(projected)


_Projection = tuple[tuple[FieldSpec, ...], tuple[tuple[str, str], ...] | None]
_PROJECTIONS: BoundedCache[tuple[int, tuple[str, ...]], tuple[EndpointSpec, _Projection]] = BoundedCache(256)


def _projection(endpoint: EndpointSpec, selected: Sequence[str]) -> _Projection:
    """The endpoint's selected fields, and their ``(wire key, result key)`` pairs when each
    field reads one key and writes one key (else None); remembered per endpoint object
    (contracts are immutable) and selection."""
    key = (id(endpoint), tuple(selected))
    known = _PROJECTIONS.get(key)
    if known is not None and known[0] is endpoint:
        return known[1]
    fields = tuple(f for name in selected if (f := endpoint.field(name)) is not None)
    paths = [(f.wire_path, f.result_location) for f in fields]
    flat = tuple((w[0], r[0]) for w, r in paths) if all(len(w) == len(r) == 1 for w, r in paths) else None
    return _PROJECTIONS.put(key, (endpoint, (fields, flat)))[1]


def checked_records(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*records*, once sure that they are JSON data as results and events carry them: objects
    with string keys, arrays (lists), strings, finite numbers, booleans and null. Anything
    else (NaN or infinity, sets, tuples, bytes, objects) is the response breaking its
    contract: a ``SchemaValidationError`` about the response."""
    for index, record in enumerate(records):
        if _flat_and_plain(record):
            continue
        problem = _json_problem(record)
        if problem is not None:
            raise SchemaValidationError(
                f"record {index} cannot be written as JSON: {problem}", subject="response"
            )
    return records


_PLAIN = frozenset({str, int, bool, type(None)})


def _flat_and_plain(record: dict[str, Any]) -> bool:
    """True for a record of string keys and plain values (strings, numbers, booleans, null),
    the common case, checked without the walk of :func:`_json_problem` (False: walk it)."""
    for key, value in record.items():
        kind = type(value)
        if type(key) is not str or (kind not in _PLAIN and not (kind is float and math.isfinite(value))):
            return False
    return True


def _json_problem(value: Any) -> str | None:
    """What keeps *value* from being plain JSON data, or None (iterative: deep data is fine)."""
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        node, where = pending.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                if not isinstance(key, str):
                    return f"a key that is not a string at {where or '/'}: {key!r}"
                pending.append((item, f"{where}/{key}"))
        elif isinstance(node, list):
            pending.extend((item, f"{where}/{i}") for i, item in enumerate(node))
        elif isinstance(node, float):
            if not math.isfinite(node):
                return f"{node!r} at {where or '/'} is not a JSON number"
        elif node is not None and not isinstance(node, str | int):
            return f"a {type(node).__name__} at {where or '/'} is not JSON data"
    return None
