"""A router event kind declared only here (``route.slow``), and a router whose runs send it.

No face has a rule for ``route.slow``: a face that carries it carries any kind declared as
one :class:`RouterEvent` subclass.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, ClassVar, Literal

import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.events import LogLevel, RouterEvent, ToolStartEvent


class RouteSlowEvent(RouterEvent):
    """A route has not answered after ``waited_seconds`` (for the tests only)."""

    log_level: ClassVar[LogLevel] = "warning"

    type: Literal["route.slow"] = "route.slow"
    tool: str
    endpoint: str
    waited_seconds: float

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


def slow_after_each_start(router: SchemaRouter, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make *router*'s streamed runs send a ``route.slow`` after each ``tool.start``, to its
    sinks and its stream alike (as the router sends its own events)."""
    real = router.stream

    async def stream(request: Any, **kwargs: Any) -> AsyncGenerator[RouterEvent, None]:
        async for event in real(request, **kwargs):
            yield event
            if isinstance(event, ToolStartEvent):
                slow = RouteSlowEvent(
                    run_id=event.run_id,
                    seq=event.seq,
                    tool=event.tool,
                    endpoint=event.endpoint,
                    waited_seconds=2.5,
                )
                await router.events.publish(slow)
                yield slow

    monkeypatch.setattr(router, "stream", stream)
