""" "Did you mean": the keys a landscape table accepts, found by walking the config models
along a validation error's location, and the closest ones to a misspelt key (difflib)."""

from __future__ import annotations

import difflib
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from ..adapters._entries import RouteEntry
from ..adapters._kinds import kinds

__all__ = ["did_you_mean", "known_keys"]


def _members(annotation: Any) -> list[Any]:
    """*annotation* without ``Annotated`` and ``None``, a union as its members; a route entry
    is the union of every kind's entry model (the table of kinds)."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if annotation is RouteEntry:
        return [kind.entry for kind in kinds()]
    if get_origin(annotation) in (Union, types.UnionType):
        found: list[Any] = []
        for member in get_args(annotation):
            if member is not type(None):
                found += _members(member)
        return found
    return [annotation]


def _tags(model: type[BaseModel]) -> tuple[Any, ...]:
    kind = model.model_fields.get("kind")
    if kind is None or get_origin(kind.annotation) is not Literal:
        return ()
    return get_args(kind.annotation)


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _step(annotation: Any, step: str | int) -> Any:
    """The annotation one location step further (None: lost). In a union the step is a
    member's label: its discriminator tag or its model name."""
    members = _members(annotation)
    if len(members) > 1:
        labelled = [m for m in members if _is_model(m) and (step == m.__name__ or step in _tags(m))]
        return labelled[0] if labelled else None
    (single,) = members
    if _is_model(single):
        field = single.model_fields.get(str(step))
        return field.annotation if field is not None else None
    origin = get_origin(single)
    if origin is dict:
        return get_args(single)[1]
    if origin in (list, tuple) and get_args(single):
        return get_args(single)[0]
    return None


def known_keys(root: type[BaseModel], loc: tuple[str | int, ...]) -> list[str]:
    """The keys accepted where the last step of *loc* (a pydantic error location) sits."""
    annotation: Any = root
    for step in loc[:-1]:
        annotation = _step(annotation, step)
        if annotation is None:
            return []
    members = [m for m in _members(annotation) if _is_model(m)]
    if len(members) != 1:
        return []
    return list(members[0].model_fields)


def did_you_mean(key: str, keys: list[str]) -> str | None:
    """The accepted key closest to a misspelt *key* (None: none is close)."""
    close = difflib.get_close_matches(key, keys, n=1, cutoff=0.6)
    return close[0] if close else None
