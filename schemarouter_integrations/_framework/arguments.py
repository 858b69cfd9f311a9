"""The model-facing arguments: ``query`` plus the canonical arguments of the routes it may reach.

Each canonical argument is typed from the JSON Schema of the endpoints that accept it; names
are shown as :func:`.names.model_facing_names` says (``_limit`` -> ``limit``), in every face
alike, and are mapped back to the wire names before a run. Arguments the adapters
mark as the router's business (:data:`~.._contracts.schemas.ARGUMENT_ROLE`: pagination,
projection, formatting, licence) are never shown; the others compete for a bounded schema
by the rule of :mod:`.ranking`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    create_model,
    field_validator,
    model_validator,
)

from .._planning.json_data import plain_data
from .canonical import (
    MAX_MODEL_ARGUMENTS,
    MAX_MODEL_SCHEMA_BYTES,
    RESERVED_ARGUMENTS,
    CanonicalArgument,
    canonical_arguments,
    shown_arguments,
)
from .filters import FILTERS_ARGUMENT, FilterTable
from .names import FACE_RESERVED_NAMES
from .options import RegistrySource, ToolOptions
from .plain_types import plain_types
from .schema_types import python_type
from .spelling import spelling_reader

__all__ = [
    "MAX_MODEL_ARGUMENTS",
    "MAX_MODEL_SCHEMA_BYTES",
    "QUERY_DESCRIPTION",
    "RESERVED_ARGUMENTS",
    "CanonicalArgument",
    "ModelArguments",
    "arguments_model",
    "canonical_arguments",
    "python_type",
    "shown_arguments",
]

MAX_SELECTABLE_FIELDS = 200
"""Up to this many field names are listed as the ``fields`` argument's ``enum``."""
FIELDS_DESCRIPTION = (
    "Canonical names of the fields you need (optional; instead of, or beside, naming them in `query`)."
)
QUERY_DESCRIPTION = (
    "The data question in plain words, naming the property you need (for example 'band gap of Si')."
)


@dataclass(frozen=True, slots=True)
class ModelArguments:
    """The model-facing argument schema: a pydantic model and how to read it back."""

    model: type[BaseModel]
    arguments: tuple[CanonicalArgument, ...]
    hidden: tuple[str, ...] = ()
    """Canonical arguments left out to keep the schema bounded (see :func:`shown_arguments`)."""
    owned: tuple[str, ...] = ()
    """Canonical arguments that are the router's business (pagination, projection, ...): the
    application may pass them, the model is never shown them."""
    selection: bool = False
    """The model also takes ``fields`` (canonical field names that define the need) and
    ``query`` is optional (the MCP face)."""
    filters: FilterTable | None = None
    """What the ``filters`` object takes (every filter a model-facing route accepts), or
    ``None`` when no route takes a filter (the model is then not shown ``filters``)."""
    _renamed: dict[str, str] = dataclass_field(init=False, repr=False, compare=False)
    """Model-facing name -> canonical name, for the arguments shown by another name."""

    def __post_init__(self) -> None:
        renamed = {a.python_name: a.name for a in self.arguments if a.python_name != a.name}
        object.__setattr__(self, "_renamed", renamed)

    def json_schema(self) -> dict[str, Any]:
        return self.model.model_json_schema()

    def checked(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """*values* validated against :attr:`model` and dumped: ``model.model_validate(values)
        .model_dump()``, which raises its ``ValidationError`` for bad values. Values that are
        plain JSON data dump as themselves, so they are copied instead of serialised."""
        validated = self.model.model_validate(values)
        plain = plain_data(validated.__dict__)
        return plain if plain is not None else validated.model_dump()

    def to_canonical(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Map validated model values (model-facing or canonical names) to canonical arguments.

        ``query`` (and ``fields`` with :attr:`selection`) and ``None`` values are dropped;
        the entries of ``filters`` join the others by canonical name (a top-level key wins);
        unknown keys are kept as given.
        """
        renamed = self._renamed
        selection = self.selection
        out: dict[str, Any] = {}
        extra: Mapping[str, Any] | None = None
        for key, value in values.items():
            if value is None or key == "query" or (selection and key == "fields"):
                continue
            if key == FILTERS_ARGUMENT and self.filters is not None and isinstance(value, Mapping):
                extra = value
                continue
            out[renamed.get(key, key) if renamed else key] = value
        if extra and self.filters is not None:
            for name, value in (self.filters.check(extra) or {}).items():
                out.setdefault(name, value)
        return out


def arguments_model(
    router: RegistrySource,
    *,
    options: ToolOptions | None = None,
    model_name: str = "SchemaRouterArguments",
    query_description: str = QUERY_DESCRIPTION,
    selectable_fields: Sequence[str] | None = None,
) -> ModelArguments:
    """Build the pydantic model ``query: str`` + optional canonical arguments (default None).

    The arguments are those of the routes the planner could pick under *options* (see
    :func:`model_routes`), bounded by :func:`shown_arguments`. Extra keys are forbidden, so a
    model cannot smuggle in settings such as scope or budget, nor the router's own arguments
    (pagination, projection, ...). A renamed argument is shown by its model-facing name
    (``limit`` for ``_limit``), in the pydantic model and its JSON Schema alike; its canonical
    name is accepted too. Every other argument a route accepts (those not shown, and the
    shown ones by either name) is taken through the optional object ``filters``, checked as
    :class:`~.filters.FilterTable` says. The whole schema stays within
    :data:`MAX_MODEL_SCHEMA_BYTES`.

    With *selectable_fields* (the MCP face), ``query`` is optional and an optional
    ``fields`` argument takes a list of those canonical field names, which then define
    the need (``query`` may still narrow it down).
    """
    every = canonical_arguments(router, options=options)
    arguments, hidden = shown_arguments(every)
    owned = tuple(a.name for a in every if a.role is not None)
    table = _filter_table(every, shown=arguments)
    definitions: dict[str, Any] = {"query": (str, Field(description=query_description))}
    if selectable_fields is not None:
        definitions["query"] = (str | None, Field(default=None, description=query_description))
        names = tuple(dict.fromkeys(selectable_fields))
        item: Any = Literal[names] if 0 < len(names) <= MAX_SELECTABLE_FIELDS else str
        definitions["fields"] = (
            list[item] | None,
            Field(default=None, description=FIELDS_DESCRIPTION, min_length=1),
        )
    model = _model(model_name, definitions, arguments, table)
    schema = model.model_json_schema()
    excess = len(json.dumps(schema)) - MAX_MODEL_SCHEMA_BYTES
    if excess > 0:  # the estimate of shown_arguments missed: the lowest-ranked move to ``filters``
        sizes = {a.name: len(json.dumps(schema["properties"].get(a.python_name, {}))) for a in arguments}
        kept = sorted(arguments, key=CanonicalArgument.rank)
        while kept and excess > 0:
            excess -= sizes[kept.pop().name]
        arguments = tuple(sorted(kept, key=lambda a: a.name))
        hidden = tuple(sorted({*hidden, *(a.name for a in every if a.role is None)} - {a.name for a in kept}))
        table = _filter_table(every, shown=arguments)
        model = _model(model_name, definitions, arguments, table)
    return ModelArguments(
        model=model,
        arguments=arguments,
        hidden=hidden,
        owned=owned,
        selection=selectable_fields is not None,
        filters=table,
    )


def _model(
    name: str,
    definitions: Mapping[str, Any],
    arguments: Sequence[CanonicalArgument],
    table: FilterTable | None,
) -> type[BaseModel]:
    """The pydantic model of ``query`` (and ``fields``), the shown *arguments* and ``filters``."""
    fields = dict(definitions)
    schemas: dict[str, dict[str, Any]] = {}
    for argument in arguments:
        shown, python_name = argument.name, argument.python_name
        alias = shown != python_name and shown not in FACE_RESERVED_NAMES  # never the face's own key
        fields[python_name] = (
            python_type(argument.json_schema) | None,
            Field(
                default=None,
                description=argument.description + _sent_as(shown, python_name),
                validation_alias=AliasChoices(python_name, shown) if alias else None,
            ),
        )
        schemas.update(dict.fromkeys((python_name, shown) if alias else (python_name,), argument.json_schema))
    read = spelling_reader({*fields, FILTERS_ARGUMENT, *schemas}, schemas)

    def read_spelling(cls: type[BaseModel], data: Any) -> Any:
        return read(data)

    validators: dict[str, Any] = {"read_spelling": model_validator(mode="before")(read_spelling)}
    if table is not None:
        fields[FILTERS_ARGUMENT] = table.field()

        def check_filters(cls: type[BaseModel], value: dict[str, Any] | None) -> dict[str, Any] | None:
            return table.check(value)

        validators["check_filters"] = field_validator(FILTERS_ARGUMENT)(check_filters)
    return create_model(
        name,
        __config__=ConfigDict(
            extra="forbid", populate_by_name=True, protected_namespaces=(), json_schema_extra=plain_types
        ),
        __validators__=validators,
        **fields,
    )


def _sent_as(name: str, python_name: str) -> str:
    if name in FACE_RESERVED_NAMES:
        return f" The data source's own `{name}` parameter (not the tool's `{name}`), sent to it as `{name}`."
    return f" Sent to the sources as `{name}`." if name != python_name else ""


def _filter_table(
    every: Sequence[CanonicalArgument], *, shown: Sequence[CanonicalArgument]
) -> FilterTable | None:
    """What ``filters`` takes: every argument that is not the router's own; those not shown are
    named in its description, highest-ranked first."""
    filters = [a for a in every if a.role is None]
    if not filters:
        return None
    shown_names = {a.name for a in shown}
    listed = [a.python_name for a in sorted(filters, key=CanonicalArgument.rank) if a.name not in shown_names]
    return FilterTable(
        {a.python_name: (a.name, a.json_schema) for a in filters},
        owned=(name for a in every if a.role is not None for name in (a.name, a.python_name)),
        listed=listed,
    )
