"""Contracts as JSON data for their fingerprints, without serialising them first.

A fingerprint is sha256 over the canonical JSON of ``model_dump(mode="json")``. That dump copies
every schema and every nested contract into new dicts before the encoder walks them again, which
made fingerprinting the largest part of registering a big document. :func:`json_view` gives the
same data without the copy: a contract's validated values are JSON data already (schemas are
checked, numbers finite), so only nested contracts need turning into mappings, and interned
schemas are encoded where they are.

A tool's canonical JSON holds its endpoints' canonical JSON word for word (keys sorted, no
spaces): :func:`composed_fingerprint` hashes the tool's own fields around the texts its endpoints
were fingerprinted from, kept by each endpoint until a tool takes them (:func:`take_text`), so a
document's contract is encoded once, not once per endpoint and once more for the tool.
"""

from __future__ import annotations

import hashlib
import types
import typing
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from .fingerprint import canonical_json

__all__ = ["composed_fingerprint", "json_view", "text_fingerprint"]

_PLANS: dict[type[BaseModel], tuple[tuple[str, ...], tuple[str, ...]]] = {}
_SLOT = "\x00contract texts\x00"
"""Stands for the list of endpoint texts in the tool's own text (a key's value can never be
written as ``"endpoints":"\\u0000contract texts\\u0000"`` by anything else)."""


def json_view(value: BaseModel) -> dict[str, Any]:
    """*value* as the JSON data ``value.model_dump(mode="json")`` is (same keys, same values)."""
    names, nested = _plan(type(value))
    own = value.__dict__
    view = {name: own[name] for name in names}
    for name in nested:
        item = view[name]
        if isinstance(item, BaseModel):
            view[name] = json_view(item)
        elif isinstance(item, list | tuple):
            view[name] = [json_view(i) if isinstance(i, BaseModel) else i for i in item]
    return view


def text_fingerprint(text: str) -> str:
    """``sha256:<hex>`` of a canonical JSON text (what :func:`..fingerprint.fingerprint_of` gives)."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def composed_fingerprint(view: dict[str, Any], key: str, texts: Sequence[str]) -> str:
    """The fingerprint of *view* whose *key* holds the contracts written as *texts* (canonical JSON
    each): the same as fingerprinting the whole view, with each text encoded once only."""
    own = canonical_json({**view, key: _SLOT})
    before, after = own.split(canonical_json({key: _SLOT})[1:-1], 1)
    digest = hashlib.sha256()
    for part in (before, f'"{key}":[', ",".join(texts), "]", after):
        digest.update(part.encode("utf-8", errors="surrogatepass"))
    return "sha256:" + digest.hexdigest()


def _plan(cls: type[BaseModel]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The field names of *cls*, and those of them that may hold contracts."""
    plan = _PLANS.get(cls)
    if plan is None:
        fields = cls.model_fields
        nested = tuple(name for name, info in fields.items() if _holds_models(info.annotation))
        plan = _PLANS[cls] = (tuple(fields), nested)
    return plan


def _holds_models(annotation: Any) -> bool:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    origin = typing.get_origin(annotation)
    if origin is None and not isinstance(annotation, types.UnionType):
        return False
    return any(_holds_models(arg) for arg in typing.get_args(annotation))
