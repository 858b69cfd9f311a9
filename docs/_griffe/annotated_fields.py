"""Griffe extension for the reference: only annotated class attributes are pydantic fields.

``griffe-pydantic`` labels every attribute of a model class a field, including validators
assigned as attributes (``check = field_validator("x")(_check)``) and ``__hash__ = ...``;
pydantic itself makes fields only of annotated attributes. This drops the label where there
is no annotation, so the fields table renders (and lists real fields only).
"""

from __future__ import annotations

from typing import Any

import griffe


class AnnotatedFieldsOnly(griffe.Extension):
    """Remove the ``pydantic-field`` label from attributes without an annotation."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg, set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        for member in obj.members.values():
            if member.is_alias:
                continue
            if member.is_attribute and "pydantic-field" in member.labels and member.annotation is None:
                member.labels.discard("pydantic-field")
            if member.is_module or member.is_class:
                self._walk(member, seen)  # type: ignore[arg-type]
