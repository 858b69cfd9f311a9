"""The base of every router event, and the table of event types derived from its subclasses.

An event kind is declared once, as a subclass of :class:`RouterEvent` whose own ``type``
field is a ``Literal`` with that type as its default. Declaring the class registers it in
:data:`EVENT_TYPES`; everything that tells events apart by type (JSON round trips, the
faces, :data:`AnyRouterEvent`) reads that table, so no other list names the kinds.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, SerializeAsAny

__all__ = ["EVENT_TYPES", "AnyRouterEvent", "LogLevel", "RouterEvent", "event_class"]

LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical"]
"""A log level in the names of RFC 5424 (those MCP log messages use)."""

EVENT_TYPES: dict[str, type[RouterEvent]] = {}
"""Event type -> its class: every concrete event class, in the order they were declared."""


class RouterEvent(BaseModel):
    """Base of every router event: ``type``, ``run_id`` (None outside runs), ``seq``, ``timestamp``.

    A subclass that declares its own ``type: Literal["kind.name"] = "kind.name"`` is a new
    event kind: it is registered in :data:`EVENT_TYPES` as it is declared. ``log_level`` is
    the level a face that logs events (MCP) sends it at.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    log_level: ClassVar[LogLevel] = "info"

    type: str
    run_id: str | None = None
    seq: int = 0
    timestamp: float = Field(default_factory=time.time)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "type" not in inspect.get_annotations(cls):
            return  # a base of several kinds, or a subclass of a kind: no kind of its own
        event_type = cls.model_fields["type"].default
        if not isinstance(event_type, str) or not event_type:
            raise TypeError(f"{cls.__name__}.type needs its event type as its default")
        known = EVENT_TYPES.get(event_type)
        if known is not None and _name(known) != _name(cls):
            raise TypeError(f"event type {event_type!r} is declared by {known.__name__} already")
        EVENT_TYPES[event_type] = cls  # a module imported again replaces its own classes

    def payload(self) -> dict[str, Any]:
        """The event's own fields, JSON-ready, without the envelope."""
        return self.model_dump(mode="json", exclude={"type", "run_id", "seq", "timestamp"})


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def event_class(event_type: object) -> type[RouterEvent] | None:
    """The class of events of type *event_type*, or None when no class declares it."""
    return EVENT_TYPES.get(event_type) if isinstance(event_type, str) else None


def _typed_event(value: Any) -> RouterEvent:
    if isinstance(value, RouterEvent):
        return value
    cls = event_class(value.get("type")) if isinstance(value, Mapping) else None
    if cls is None:
        raise ValueError(f"not a router event of a known type: {str(value)[:200]}")
    return cls.model_validate(value)


AnyRouterEvent = Annotated[
    SerializeAsAny[RouterEvent], PlainValidator(_typed_event, json_schema_input_type=dict[str, Any])
]
"""Any concrete router event, told apart by ``type`` (so event lists round-trip through JSON);
validated by the class :data:`EVENT_TYPES` holds for its type, serialised as that class."""
