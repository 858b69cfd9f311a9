"""The contract of an OPTIMADE tool: one read-only search endpoint per entry type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._contracts import EndpointSpec, FieldSpec, ServerProjectionSpec
from .._fields import complete_projection, short_description
from .._options import OptimadeOptions
from .._route import RouteBuilder

_STRING = {"type": "string", "minLength": 1}
IDENTITY_PROPERTIES = frozenset({"id", "chemical_formula_reduced"})
"""Standard properties marked ``identity=True``: the entry id and the reduced formula (what the
``formula`` argument filters on). ``elements`` is a filter too but is not marked: the formula
already tells records apart, and a list per record would only add bulk."""


def entry_endpoint(
    endpoint: str,
    entry: str,
    properties: Mapping[str, Any],
    prefix: str | None,
    route: RouteBuilder[OptimadeOptions],
) -> EndpointSpec:
    """The search endpoint of one entry type; ``fields=`` as a list applies to structures."""
    names = (endpoint, entry)
    fields = route.fields(
        entry_fields(properties, prefix), names, applies=entry == "structures", what=f"endpoint {endpoint!r}"
    )
    return route.endpoint(
        endpoint,
        names,
        invalid=f"endpoint {endpoint!r} is not valid",
        fields=fields,
        projection=complete_projection(ServerProjectionSpec(parameter="response_fields"), fields),
        description=f"Search OPTIMADE {entry} (filter, projection through response_fields)",
        input_schema=input_schema(entry, properties),
        read_only=True,
        records_path=["data"],
    )


def entry_fields(properties: Mapping[str, Any], prefix: str | None) -> list[FieldSpec]:
    """Fields of one entry type: standard names kept, ``_<prefix>_<name>`` shortened to ``<name>``."""
    standard = {wire for wire in properties if not wire.startswith("_")}
    marker = f"_{prefix}_" if prefix else None
    taken: set[str] = set()
    fields: list[FieldSpec] = []
    for wire in sorted(properties, key=lambda w: (w not in standard, w)):
        meta = properties[wire] if isinstance(properties[wire], dict) else {}
        name = wire
        if marker and wire.startswith(marker) and len(wire) > len(marker):
            short = wire[len(marker) :]
            if short not in standard and short not in taken:
                name = short
        taken.add(name)
        description = short_description(meta.get("description"))
        if isinstance(meta.get("unit"), str) and meta["unit"]:
            description = f"{description} (unit: {meta['unit']})".strip()
        fields.append(
            FieldSpec(
                name=name,
                path=[wire],
                aliases=[wire] if name != wire else [],
                description=description,
                identity=wire in IDENTITY_PROPERTIES,
            )
        )
    return fields


def input_schema(entry: str, properties: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical arguments of one entry listing."""
    schema: dict[str, Any] = {}
    if entry == "structures" or "chemical_formula_reduced" in properties:
        schema["formula"] = {**_STRING, "description": "Reduced chemical formula, e.g. Si or GaAs"}
    if entry == "structures" or "elements" in properties:
        schema["elements"] = {
            "anyOf": [{"type": "array", "items": _STRING, "minItems": 1}, _STRING],
            "description": "Elements that must all be present: a list or 'Ga,As'",
        }
    schema["filter"] = {"type": "string", "description": "Raw OPTIMADE filter, AND-ed with the rest"}
    schema["page_limit"] = {"type": "integer", "minimum": 1, "description": "Entries per page"}
    return {"type": "object", "properties": schema, "additionalProperties": False}
