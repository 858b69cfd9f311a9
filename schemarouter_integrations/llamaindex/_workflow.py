"""Router events in a LlamaIndex workflow's event stream (``handler.stream_events()``).

Agent workflows (``FunctionAgent``, ``AgentWorkflow``) hand their ``Context`` to a tool
function that declares a parameter annotated ``Context``; the tool spec's functions declare
one (:data:`CONTEXT_PARAMETER`), so inside a workflow each router event is also written to
the stream as a :class:`RouterStreamEvent`. Outside a workflow the parameter is ``None``.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from llama_index.core.workflow import Context, Event
from pydantic import Field

from .._framework import trace_payload
from ..events import RouterEvent

CONTEXT_PARAMETER = "schemarouter_workflow_context"
"""The name under which a workflow passes its ``Context`` to the tool's functions."""


class RouterStreamEvent(Event):
    """A router event in a workflow's event stream: its type, run id, sequence and payload."""

    router_event_type: str
    run_id: str | None = None
    seq: int = 0
    data: dict[str, Any] = Field(default_factory=dict)


def stream_event(event: RouterEvent) -> RouterStreamEvent:
    """*event* as a workflow stream event (the trace payload: no records, a result summary)."""
    return RouterStreamEvent(
        router_event_type=event.type, run_id=event.run_id, seq=event.seq, data=trace_payload(event)
    )


def write_to_stream(ctx: Any, event: RouterEvent) -> None:
    """Write *event* to the workflow stream of *ctx* (a workflow ``Context``)."""
    if isinstance(ctx, Context):
        ctx.write_event_to_stream(stream_event(event))


def with_context_parameter(
    call: Callable[..., Any], acall: Callable[..., Awaitable[Any]]
) -> tuple[Callable[..., Any], Callable[..., Awaitable[Any]]]:
    """Wrappers of *call* / *acall* whose signature asks a workflow for its ``Context``."""

    def sync_fn(*args: Any, **kwargs: Any) -> Any:
        return call(*args, **kwargs)

    async def async_fn(*args: Any, **kwargs: Any) -> Any:
        return await acall(*args, **kwargs)

    signature = inspect.Signature(
        [
            inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
            inspect.Parameter(
                CONTEXT_PARAMETER, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Context
            ),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
        ]
    )
    for fn in (sync_fn, async_fn):
        setattr(fn, "__signature__", signature)  # noqa: B010 - read by inspect.signature
    return sync_fn, async_fn
