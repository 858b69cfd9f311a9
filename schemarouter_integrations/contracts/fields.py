"""Field contracts: what a route exposes and how it is named on the wire."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator, model_validator

from .base import Contract
from .schemas import check_schema


class FieldSpec(Contract):
    """One field a route exposes.

    ``name`` is the canonical local name; ``path`` is where the value sits in one raw
    record (default ``[name]``); ``result_path`` is where it is written in the result
    (default ``[name]``); ``semantic_id`` (default ``name``) is what planning matches needs
    against, together with ``aliases`` (free text in any language).
    """

    name: str = Field(min_length=1)
    semantic_id: str | None = None
    aliases: tuple[str, ...] = ()
    path: tuple[str, ...] | None = None
    result_path: tuple[str, ...] | None = None
    description: str = ""
    json_schema: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _fill_defaults(self) -> FieldSpec:
        for attr, value in (
            ("semantic_id", self.semantic_id or self.name),
            ("path", self.path or (self.name,)),
            ("result_path", self.result_path or (self.name,)),
        ):
            object.__setattr__(self, attr, value)
        if self.json_schema is not None:
            check_schema(self.json_schema, what=f"json_schema of field {self.name!r}")
        return self

    @property
    def sid(self) -> str:
        """The semantic id, never ``None`` after construction."""
        return self.semantic_id or self.name

    @property
    def wire_path(self) -> tuple[str, ...]:
        return self.path or (self.name,)

    @property
    def result_location(self) -> tuple[str, ...]:
        return self.result_path or (self.name,)


class ServerProjectionSpec(Contract):
    """The request parameter that asks the server for selected fields only.

    ``field_map`` maps canonical field name -> wire name; unmapped fields are sent by their
    canonical name; ``always`` names wire fields requested on every call.
    """

    parameter: str = Field(min_length=1)
    field_map: dict[str, str] = Field(default_factory=dict)
    separator: str = ","
    always: tuple[str, ...] = ()

    @field_validator("separator")
    @classmethod
    def _separator_not_empty(cls, value: str) -> str:
        if not value:
            raise ValueError("separator must not be empty")
        return value

    def parameters_for(self, canonical_fields: tuple[str, ...]) -> dict[str, str]:
        """The request parameters that push *canonical_fields* upstream."""
        wire: list[str] = []
        for name in (*self.always, *(self.field_map.get(f, f) for f in canonical_fields)):
            if name not in wire:
                wire.append(name)
        return {self.parameter: self.separator.join(wire)} if wire else {}
