"""A pydantic field built on first access: the model holds a builder until someone reads it.

Used by :class:`~schemarouter_integrations.events.ToolResult`, whose ``events`` a run that
nobody listened to leaves unbuilt (``_execution/context.py``). Until then the field is
missing from the model's ``__dict__`` and its builder sits in ``__pydantic_private__``
under :data:`LAZY`; attribute access, comparison, iteration, repr, pickling, copying and
serialisation all settle it first, so a reader never sees the difference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

LAZY = "_lazy_field"
"""Key in ``__pydantic_private__``: ``(field name, zero-argument builder)``."""
SETTLING = ("__iter__", "__repr_args__", "__getstate__", "__copy__", "__deepcopy__")
"""The ``BaseModel`` methods that read ``__dict__`` directly (each settles first)."""

__all__ = ["LAZY", "SETTLING", "leave_for_later", "settled", "settling"]


def leave_for_later(model: BaseModel, name: str, build: Callable[[], Any]) -> None:
    """Drop field *name* of a freshly built *model* (no private attributes): *build* makes it
    on first access."""
    del model.__dict__[name]
    object.__setattr__(model, "__pydantic_private__", {LAZY: (name, build)})


def settled(model: BaseModel) -> dict[str, Any]:
    """*model*'s ``__dict__``, its lazy field built first when there is one."""
    fields: dict[str, Any] = model.__dict__
    private = model.__pydantic_private__
    if private and LAZY in private:
        name, build = private[LAZY]
        fields.setdefault(name, build())  # two threads settling at once keep one value
        object.__setattr__(model, "__pydantic_private__", None)
    return fields


def settling(name: str) -> Callable[..., Any]:
    """``BaseModel.<name>``, settling the lazy field first."""
    inner = getattr(BaseModel, name)

    def method(self: BaseModel, *args: Any) -> Any:
        settled(self)
        return inner(self, *args)

    return method
