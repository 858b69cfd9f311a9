"""The input side of an OpenAPI operation's contract: its parameters and request body as one
JSON Schema over canonical argument names, and the parameters its invoker sends.

**Alternatives.** A document may mark several parameters required while saying that any of
them will do: Spotify's ``/recommendations`` requires ``seed_artists``, ``seed_genres`` and
``seed_tracks``, each described "Up to 5 seed values may be provided in any combination of
``seed_artists``, ``seed_tracks`` and ``seed_genres``". Required parameters whose descriptions
name each other after a phrase that offers a choice (:data:`CHOICE`: "any combination of",
"at least one of", "one of", "either") form a group: the input schema requires at least one
of them (``anyOf``) rather than all.
"""

from __future__ import annotations

import re
from typing import Any, Literal, Protocol

from ..._contracts import ServerProjectionSpec
from ..._contracts.schemas import ARGUMENT_ROLE, PAGING
from .._fields import safe_name, unique_name
from .._roles import argument_role, paging_kind
from .invoker import Location, Parameter
from .operations import OperationRecord, parameter_key, parameter_schema
from .parameters import parameter_notes
from .patterns import without_unusable_patterns
from .schema import SchemaResolver
from .shaping import list_schema, list_separator, one_or_many_schema


class ContractBuilder(Protocol):
    """What reading an operation's inputs takes of the contract builder (``contract.py``)."""

    resolver: SchemaResolver
    secret_headers: set[str]

    @property
    def _text_path_names(self) -> frozenset[str]: ...

    @property
    def _list_separators(self) -> dict[str, str]: ...

    def _inline(self, schema: Any, where: str) -> dict[str, Any]: ...


Body = Literal["none", "properties", "whole"]
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
CHOICE = re.compile(r"\b(?:any combination of|at least one of|one of|either)\b", re.IGNORECASE)
"""The phrases by which a description offers its parameter and the ones it names as a choice."""


def operation_inputs(
    builder: ContractBuilder, record: OperationRecord, projection: ServerProjectionSpec | None, where: str
) -> tuple[dict[str, Any], list[Parameter], Body]:
    """The input schema of *record*, the parameters its invoker sends, and how its body goes."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    parameters: list[Parameter] = []
    for param, schema, is_required in _parameters(builder, record, projection, where):
        canonical = param.canonical
        if canonical in properties:
            canonical = unique_name(safe_name(f"{param.wire}_{param.location}"), set(properties))
            param = Parameter(canonical, param.wire, param.location, param.explode, param.separator)
        properties[canonical] = schema
        parameters.append(param)
        if is_required:
            required.append(canonical)
    body_mode = _body(builder, record, properties, required, parameters, where)
    input_schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    input_schema["additionalProperties"] = False
    alternatives = alternative_group(properties, required)
    if alternatives:
        kept = [name for name in required if name not in alternatives]
        if kept:
            input_schema["required"] = kept
        else:
            input_schema.pop("required", None)
        input_schema["anyOf"] = [{"required": [name]} for name in alternatives]
    return without_unusable_patterns(input_schema), parameters, body_mode


def alternative_group(properties: dict[str, Any], required: list[str]) -> list[str]:
    """The required parameters offered as alternatives (see the module docstring), in order;
    [] when there are fewer than two."""
    group: set[str] = set()
    for name in required:
        description = properties.get(name, {}).get("description")
        if not isinstance(description, str):
            continue
        for choice in CHOICE.finditer(description):
            sentence = re.split(r"[.!?](?:\s|$)", description[choice.end() :], maxsplit=1)[0]
            named = {other for other in required if other != name and _names(sentence, other)}
            if named:
                group |= named | {name}
    return [name for name in required if name in group] if len(group) > 1 else []


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text) is not None


def _parameters(
    builder: ContractBuilder, record: OperationRecord, projection: ServerProjectionSpec | None, where: str
) -> list[tuple[Parameter, dict[str, Any], bool]]:
    out: list[tuple[Parameter, dict[str, Any], bool]] = []
    for param in record.parameters:
        wire, location = parameter_key(param)
        if location not in ("query", "path", "header"):
            continue
        if location == "header" and wire.lower() in _IGNORED_HEADERS | builder.secret_headers:
            continue
        if location == "query" and projection is not None and wire == projection.parameter:
            continue
        raw_schema = parameter_schema(param)
        schema = builder._inline(raw_schema, f"{where}, parameter {wire!r}")
        schema = parameter_notes(schema, param, record.path, builder._text_path_names)
        style = param.get("style", "form" if location == "query" else "simple")
        explode = bool(param.get("explode", style == "form"))
        separator = role = None
        is_required = location == "path" or param.get("required") is True
        if location == "query":
            concrete = builder.resolver.concrete(raw_schema)
            separator = list_separator(param, concrete, builder._list_separators)
            role = argument_role(wire, concrete, required=is_required)
        if separator is not None:
            explode = False
            schema = list_schema(schema, separator)
        elif location == "query" and role is None:
            schema = one_or_many_schema(schema)
        if role is not None:  # the router's business: never shown to a model
            schema = {**schema, ARGUMENT_ROLE: role}
        kind = paging_kind(wire) if role == "pagination" else None
        if kind is not None:  # the router pages listings through it
            schema = {**schema, PAGING: kind}
        where_to: Location = location  # type: ignore[assignment]
        parameter = Parameter(wire, wire, where_to, explode, separator or ",")
        out.append((parameter, schema, is_required))
    return out


def _body(
    builder: ContractBuilder,
    record: OperationRecord,
    properties: dict[str, Any],
    required: list[str],
    parameters: list[Parameter],
    where: str,
) -> Body:
    if record.request_body is None:
        return "none"
    body, schema = record.request_body
    body_required = body.get("required") is True
    concrete = builder.resolver.concrete(schema)
    members = builder.resolver.properties(concrete)
    if members and not set(members) & set(properties):
        needed = set(concrete.get("required") or ())
        for wire, member in members.items():
            properties[wire] = builder._inline(member, f"{where}, body property {wire!r}")
            parameters.append(Parameter(wire, wire, "body"))
            if body_required and wire in needed:
                required.append(wire)
        return "properties"
    canonical = unique_name("body", set(properties))
    properties[canonical] = builder._inline(schema, f"{where}, request body")
    parameters.append(Parameter(canonical, canonical, "body"))
    if body_required:
        required.append(canonical)
    return "whole"
