"""The contract of an OPTIMADE tool: one read-only search endpoint per entry type."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._contracts import EndpointSpec, FieldSpec, ServerProjectionSpec
from ..._contracts.schemas import ARGUMENT_ROLE, FILTER_NAMES
from .._fields import complete_projection, short_description
from .._options import OptimadeOptions
from .._route import RouteBuilder
from .canonical import CANONICAL_ALIASES, canonical_table, lookup
from .filter import SUBJECT_ARGUMENTS
from .sorting import SORT_SCHEMA

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
    canonical = route_table(route)
    fields = route.fields(
        entry_fields(properties, prefix, canonical),
        names,
        applies=entry == "structures",
        what=f"endpoint {endpoint!r}",
    )
    bounds = range_bounds(fields, canonical)
    return route.endpoint(
        endpoint,
        names,
        invalid=f"endpoint {endpoint!r} is not valid",
        fields=fields,
        projection=complete_projection(ServerProjectionSpec(parameter="response_fields"), fields),
        description=f"Search OPTIMADE {entry} (filter, projection through response_fields)",
        input_schema=input_schema(entry, properties, bounds),
        read_only=True,
        records_path=["data"],
    )


def entry_fields(
    properties: Mapping[str, Any],
    prefix: str | None,
    canonical: Mapping[str, Sequence[str]] | None = None,
) -> list[FieldSpec]:
    """Fields of one entry type: standard names kept, ``_<prefix>_<name>`` shortened to ``<name>``.

    With a *canonical* table (canonical name -> wire names, see :mod:`.canonical`), a listed
    property that the table names becomes the canonical field instead (``_gnome_bandgap`` ->
    ``band_gap``), keeping its short name and wire name as aliases.
    """
    standard = {wire for wire in properties if not wire.startswith("_")}
    marker = f"_{prefix}_" if prefix else None
    mapped = lookup(canonical, properties) if canonical else {}
    taken: set[str] = set()
    fields: list[FieldSpec] = []
    for wire in sorted(properties, key=lambda w: (w not in standard, w)):
        meta = properties[wire] if isinstance(properties[wire], dict) else {}
        name = wire
        short = (
            wire[len(marker) :] if marker and wire.startswith(marker) and len(wire) > len(marker) else None
        )
        if short is not None and short not in standard and short not in taken:
            name = short
        description = short_description(meta.get("description"))
        if isinstance(meta.get("unit"), str) and meta["unit"]:
            description = f"{description} (unit: {meta['unit']})".strip()
        served = [c for c in mapped.get(wire, ()) if c.name not in standard and c.name not in taken]
        whole = next((c for c in served if len(c.path) == 1), None)
        for nested in (c for c in served if len(c.path) > 1):
            taken.add(nested.name)
            fields.append(_canonical_field(nested.name, list(nested.path), (), description))
        if whole is not None:
            taken.add(whole.name)
            fields.append(_canonical_field(whole.name, [wire], (wire, short or wire), description))
            continue
        taken.add(name)
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


def _canonical_field(name: str, path: list[str], names: Sequence[str], description: str) -> FieldSpec:
    """A canonical field read from a provider property (its own names kept as aliases)."""
    aliases = dict.fromkeys(a for a in (*names, *CANONICAL_ALIASES.get(name, ())) if a != name)
    return FieldSpec(name=name, semantic_id=name, path=path, aliases=list(aliases), description=description)


def route_table(route: RouteBuilder[OptimadeOptions]) -> dict[str, tuple[str, ...]]:
    """The equivalence table of a route: ``canonical_fields=`` (default the shared table)
    extended by ``field_aliases=``."""
    return canonical_table(route.options.get("field_aliases"), route.options.get("canonical_fields"))


def range_bounds(
    fields: Sequence[FieldSpec], table: Mapping[str, Sequence[str]]
) -> dict[str, tuple[str, str]]:
    """``<field>_min``/``<field>_max`` -> (property, ``>=``/``<=``) for each canonical field the
    route reads from a whole property (``band_gap_min`` -> ``_oqmd_band_gap>=``), as the
    Materials Project's REST API names its range filters; a key inside an object cannot be
    filtered on."""
    out: dict[str, tuple[str, str]] = {}
    for field in fields:
        path = field.wire_path
        if field.name in table and len(path) == 1:
            out[f"{field.name}_min"] = (path[0], ">=")
            out[f"{field.name}_max"] = (path[0], "<=")
    return out


def input_schema(
    entry: str, properties: Mapping[str, Any], bounds: Mapping[str, tuple[str, str]] | None = None
) -> dict[str, Any]:
    """Canonical arguments of one entry listing (*bounds*: its range filters)."""
    schema: dict[str, Any] = {}
    if entry == "structures" or "chemical_formula_reduced" in properties:
        schema["formula"] = {
            "anyOf": [_STRING, {"type": "array", "items": _STRING, "minItems": 1}],
            "description": "Reduced chemical formula, e.g. Si or GaAs; several: a list or 'Si,GaAs'",
        }
    for argument in sorted(a for a, p in SUBJECT_ARGUMENTS.items() if p == "id"):
        schema[argument] = {
            "anyOf": [_STRING, {"type": "array", "items": _STRING, "minItems": 1}],
            "description": "Entry ids (the database's own), one or a list",
        }
    if entry == "structures" or "elements" in properties:
        schema["elements"] = {
            "anyOf": [{"type": "array", "items": _STRING, "minItems": 1}, _STRING],
            "description": "Elements that must all be present: a list or 'Ga,As'",
        }
    for argument, (wire, operator) in (bounds or {}).items():
        which = "Least" if operator == ">=" else "Greatest"
        field = argument.rsplit("_", 1)[0]
        schema[argument] = {"type": "number", "description": f"{which} {field} (sent as {wire}{operator})"}
    schema["filter"] = {
        "type": "string",
        "description": "Raw OPTIMADE filter, AND-ed with the rest",
        FILTER_NAMES: True,  # its property names are the entry's fields (_planning/filter_names.py)
    }
    schema["sort"] = SORT_SCHEMA
    schema["page_limit"] = {
        "type": "integer",
        "minimum": 1,
        "description": "Entries per page",
        ARGUMENT_ROLE: "pagination",  # the application's (add_url(page_limit=...)), not the model's
    }
    return {"type": "object", "properties": schema, "additionalProperties": False}
