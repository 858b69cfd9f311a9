"""Field contracts: what a route exposes and how it is named on the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator, model_validator

from .base import NOT_GIVEN, Contract, with_first
from .interning import FrozenList, interned_schema, shared_schema, shared_strings
from .schemas import check_schema

if TYPE_CHECKING:
    from typing import Unpack


class FieldSpecOptions(TypedDict, total=False):
    """The keyword arguments of :class:`FieldSpec` after ``name``."""

    semantic_id: str | None
    aliases: Sequence[str]
    path: Sequence[str] | None
    result_path: Sequence[str] | None
    description: str
    json_schema: Mapping[str, Any] | None
    identity: bool
    label: bool


class FieldSpec(Contract):
    """One field a route exposes: ``FieldSpec(name, ...)``.

    ``name`` is the canonical local name; ``path`` is where the value sits in one raw
    record (list of keys, default ``[name]``); ``result_path`` is where it is written in the
    result (default ``[name]``); ``semantic_id`` (default ``name``) is what planning matches
    needs against, together with ``aliases`` (free text in any language). ``identity=True``
    marks a field that identifies a record (an id, a formula): it is selected, projected
    upstream and returned with the needed fields of every call, so records can be told apart.
    ``label=True`` marks a field that names the subject for people (a formula, a name, a
    title): it is returned beside the needed fields the same way, so an answer says what
    each record is about.
    """

    name: str = Field(min_length=1)
    semantic_id: str | None = None
    aliases: list[str] = Field(default_factory=list)
    path: list[str] | None = None
    result_path: list[str] | None = None
    description: str = ""
    json_schema: dict[str, Any] | None = None
    identity: bool = False
    label: bool = False

    if TYPE_CHECKING:

        def __init__(self, name: str, **options: Unpack[FieldSpecOptions]) -> None: ...

    else:

        def __init__(self, name: str = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("name", name, options))

    @field_validator("json_schema", mode="wrap")
    @classmethod
    def _interned(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """An interned schema (a copy of a field's) is taken as it is: checked, read-only."""
        return value if interned_schema(value) else handler(value)

    @model_validator(mode="after")
    def _fill_defaults(self) -> FieldSpec:
        if type(self.aliases) is FrozenList:  # a built field, passed whole to another contract
            return self
        for attr, value in (  # lists shared with equal ones, read-only (see .interning)
            ("semantic_id", self.semantic_id or self.name),
            ("aliases", shared_strings(self.aliases)),
            ("path", shared_strings(self.path or [self.name])),
            ("result_path", shared_strings(self.result_path or [self.name])),
        ):
            object.__setattr__(self, attr, value)
        if self.json_schema is not None:
            key = check_schema(self.json_schema, what=f"json_schema of field {self.name!r}")
            object.__setattr__(self, "json_schema", shared_schema(self.json_schema, key))
        return self

    @property
    def sid(self) -> str:
        """The semantic id, never ``None`` after construction."""
        return self.semantic_id or self.name

    @property
    def wire_path(self) -> list[str]:
        return self.path or [self.name]

    @property
    def result_location(self) -> list[str]:
        return self.result_path or [self.name]


class ServerProjectionSpecOptions(TypedDict, total=False):
    """The keyword arguments of :class:`ServerProjectionSpec` after ``parameter``."""

    field_map: Mapping[str, str]
    separator: str
    always: Sequence[str]


class ServerProjectionSpec(Contract):
    """The request parameter that asks the server for selected fields only:
    ``ServerProjectionSpec(parameter, ...)``.

    ``field_map`` maps canonical field name -> wire name; unmapped fields are sent by their
    canonical name; ``always`` names wire fields requested on every call.
    """

    parameter: str = Field(min_length=1)
    field_map: dict[str, str] = Field(default_factory=dict)
    separator: str = ","
    always: list[str] = Field(default_factory=list)

    if TYPE_CHECKING:

        def __init__(self, parameter: str, **options: Unpack[ServerProjectionSpecOptions]) -> None: ...

    else:

        def __init__(self, parameter: str = NOT_GIVEN, **options: Any) -> None:
            super().__init__(**with_first("parameter", parameter, options))

    @field_validator("separator")
    @classmethod
    def _separator_not_empty(cls, value: str) -> str:
        if not value:
            raise ValueError("separator must not be empty")
        return value

    def parameters_for(self, canonical_fields: Sequence[str]) -> dict[str, str]:
        """The request parameters that push *canonical_fields* upstream."""
        wire: list[str] = []
        for name in (*self.always, *(self.field_map.get(f, f) for f in canonical_fields)):
            if name not in wire:
                wire.append(name)
        return {self.parameter: self.separator.join(wire)} if wire else {}
