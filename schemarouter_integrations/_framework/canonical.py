"""The canonical arguments of the routes a model may reach, and which of them it is shown.

Each canonical argument is typed from the JSON Schema of the endpoints that accept it and says
whether it is the router's business (:data:`~.._contracts.schemas.ARGUMENT_ROLE`) and what it
filters; the others compete for a bounded schema by the rule of :mod:`.ranking`
(:func:`shown_arguments`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._contracts.schemas import ARGUMENT_ROLE
from .merging import argument_description, merge_schemas
from .names import model_facing_names
from .options import RegistrySource, ToolOptions, model_routes
from .ranking import KIND_RANK, FieldIndex, FilterKind, read_filter

__all__ = [
    "MAX_MODEL_ARGUMENTS",
    "MAX_MODEL_SCHEMA_BYTES",
    "RESERVED_ARGUMENTS",
    "CanonicalArgument",
    "canonical_arguments",
    "shown_arguments",
]

RESERVED_ARGUMENTS = frozenset({"run_manager", "callbacks", "config"})
"""Argument names never exposed to the model: they collide with framework keywords. (A
source's own ``query``, ``fields`` or ``filters`` is shown by another name, ``query_2``.)"""
MAX_MODEL_ARGUMENTS = 32
"""At most this many canonical arguments are shown to the model (ranked as :mod:`.ranking` says)."""
MAX_MODEL_SCHEMA_BYTES = 12_000
"""The whole model-facing JSON Schema (``query``, ``fields``, ``filters`` and the shown
arguments) stays within this many bytes; the lowest-ranked shown arguments move into
``filters`` until it does."""


@dataclass(frozen=True, slots=True)
class CanonicalArgument:
    """One canonical argument as the model sees it.

    ``name`` is the canonical (wire-level) argument name; ``python_name`` the field name in
    the generated pydantic model (equal to ``name`` unless ``name`` is not a safe identifier);
    ``json_schema`` the merged schema of every endpoint that accepts it; ``accepted_by`` the
    access paths that accept it; ``universal`` whether every model-facing route accepts it.
    ``role`` is set when every route accepting it marks it as the router's business
    (``"pagination"``, ...): such an argument is never shown. ``required`` says that some
    route requires it; ``kind``, ``field`` and ``served_by`` what it filters (see
    :mod:`.ranking`).
    """

    name: str
    python_name: str
    json_schema: dict[str, Any]
    description: str
    accepted_by: tuple[str, ...]
    universal: bool
    role: str | None = None
    required: bool = False
    kind: FilterKind = "other"
    field: str | None = None
    served_by: int = 0

    @property
    def weight(self) -> int:
        """How many routes accept it, plus how many serve the field it filters."""
        return len(self.accepted_by) + (self.served_by if self.kind != "other" else 0)

    def rank(self) -> tuple[int, int, int, str, str]:
        """Its place among the arguments competing for the model's schema, first first."""
        return (
            0 if self.required else 1,
            -self.weight,
            KIND_RANK[self.kind],
            self.field or self.name,
            self.name,
        )


def canonical_arguments(
    router: RegistrySource, *, options: ToolOptions | None = None
) -> list[CanonicalArgument]:
    """The union of the input-schema properties of :func:`model_routes`, sorted by name.

    Names in :data:`RESERVED_ARGUMENTS` are left out. When endpoints disagree on an
    argument's schema, the model sees ``anyOf`` of the distinct schemas. Each argument says
    whether it is the router's business (``role``) and what it filters (see
    :mod:`.ranking`).
    """
    routes = model_routes(router, options=options)
    schemas: dict[str, list[dict[str, Any]]] = {}
    accepted: dict[str, list[str]] = {}
    required: set[str] = set()
    for route in routes:
        input_schema = route.endpoint.input_schema
        properties = input_schema.get("properties")
        if not isinstance(properties, dict):
            continue
        needed = input_schema.get("required")
        for name, schema in properties.items():
            if not isinstance(name, str) or not name or name in RESERVED_ARGUMENTS:
                continue
            schemas.setdefault(name, []).append(schema if isinstance(schema, dict) else {})
            accepted.setdefault(name, []).append(route.path)
            if isinstance(needed, list) and name in needed:
                required.add(name)
    index = FieldIndex(routes)
    shown = model_facing_names(schemas)
    out: list[CanonicalArgument] = []
    for name in sorted(schemas):
        roles = {s.get(ARGUMENT_ROLE) for s in schemas[name]}
        role = next(iter(roles)) if len(roles) == 1 else None
        merged = merge_schemas(schemas[name])
        description = argument_description(schemas[name], len(accepted[name]), len(routes))
        python_name = shown[name]
        reading = read_filter(name, accepted[name], index)
        out.append(
            CanonicalArgument(
                name=name,
                python_name=python_name,
                json_schema=merged,
                description=description,
                accepted_by=tuple(accepted[name]),
                universal=len(accepted[name]) == len(routes),
                role=role if isinstance(role, str) else None,
                required=name in required,
                kind=reading.kind,
                field=reading.field,
                served_by=reading.served_by,
            )
        )
    return out


def shown_arguments(
    arguments: Sequence[CanonicalArgument],
    *,
    max_arguments: int = MAX_MODEL_ARGUMENTS,
    max_bytes: int = MAX_MODEL_SCHEMA_BYTES,
) -> tuple[tuple[CanonicalArgument, ...], tuple[str, ...]]:
    """The arguments the model is shown, and the names of those left out.

    However many routes are registered (a 1,000-operation document has hundreds of
    arguments), the model sees at most *max_arguments*, whose schemas and descriptions take
    at most *max_bytes* of JSON, shown in name order. The router's own arguments (``role``
    set) are never shown nor counted as left out. The others are taken in the order of
    :meth:`CanonicalArgument.rank` (see :mod:`.ranking`): required ones first, then filters
    on the fields the most routes accept and serve, range filters before exact ones, while
    they fit. Applications narrow what is left out with ``operations=``/``tags=`` at
    registration or ``preferred_tools``; an argument left out can still be passed by the
    application in ``PlanRequest.arguments``.
    """
    ranked = sorted((a for a in arguments if a.role is None), key=CanonicalArgument.rank)
    shown: list[CanonicalArgument] = []
    used = 0
    for argument in ranked:
        size = (
            len(json.dumps(argument.json_schema, default=str))
            + len(argument.description)
            + len(argument.name)
        )
        if len(shown) >= max_arguments or used + size > max_bytes:
            continue
        shown.append(argument)
        used += size
    kept = {a.name for a in shown}
    hidden = tuple(sorted(a.name for a in ranked if a.name not in kept))
    return tuple(sorted(shown, key=lambda a: a.name)), hidden
