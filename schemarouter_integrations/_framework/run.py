"""One model call through the router, framework-neutral.

:func:`run_for_model` validates the model's arguments, streams the routed run (handing each
event to the face's hook as it happens; without a hook nobody listens, and the router's
plain ``invoke`` answers) and maps how it ended to a :class:`ModelOutcome`:
the records as text, or a message the model can act on. Errors the model cannot act on
(programming and configuration errors) propagate. A framework face only translates the
outcome into its own types (a LangChain ``ToolException``, a LlamaIndex ``ToolOutput``, an
MCP ``isError`` result).
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from .._execution import RunBudget
from .._execution.executor import RUN_EVENTS_ATTRIBUTE
from .._planning import PlanRequest
from ..errors import ConfigurationError, SchemaRouterError
from ..events import GatherResult, RouterEvent, RunEndEvent, RunErrorEvent, ToolResult
from .arguments import ModelArguments
from .gathering import gather_content
from .invocation import ToolInvocation, invoking
from .messages import model_error_message, result_content, validation_message
from .options import ToolOptions

__all__ = ["EventHook", "ModelOutcome", "StreamsRuns", "run_for_model"]

EventHook = Callable[[RouterEvent], object]
"""Sees each router event of the run as it happens; may be sync or return an awaitable."""


class StreamsRuns(Protocol):
    """Anything that streams a routed run's events (a ``SchemaRouter``, say)."""

    def stream(
        self, request: PlanRequest, /, *, budget: RunBudget | None = None
    ) -> AsyncGenerator[RouterEvent, None]: ...


@dataclass(frozen=True, slots=True)
class ModelOutcome:
    """How one model call ended.

    Either ``result`` is set (the run answered; ``content`` is the records as compact text)
    or ``exception`` is (the arguments were invalid, or the router failed in a way the model
    can act on; ``content`` is the message for the model). ``events`` are the run's events in
    order, ``run.end`` / ``run.error`` last (none when the arguments were rejected, and none
    for an answer nobody listened to: its events are ``result.events``).
    """

    content: str
    result: ToolResult | None = None
    exception: Exception | None = None
    events: tuple[RouterEvent, ...] = ()
    gathered: GatherResult | None = None
    """``mode="gather"``: what the gather collected (``result`` is then its first answer)."""

    @property
    def is_error(self) -> bool:
        """True when the model reads an error message rather than records."""
        return self.result is None

    @property
    def records(self) -> list[dict[str, Any]]:
        """The records of the answer (empty on error); a gather's records are tagged."""
        if self.gathered is not None:
            return self.gathered.records
        return list(self.result.records) if self.result is not None else []

    @property
    def artifact(self) -> ToolResult | GatherResult | None:
        """What a face hands the application: the :class:`GatherResult`, else the result."""
        return self.gathered if self.gathered is not None else self.result


async def run_for_model(
    router: StreamsRuns,
    values: Mapping[str, Any],
    *,
    arguments: ModelArguments,
    options: ToolOptions,
    on_event: EventHook | None = None,
    max_records: int = 20,
    validated: bool = False,
    invocation: ToolInvocation | None = None,
) -> ModelOutcome:
    """Answer the model's *values* (``query`` plus canonical arguments) through *router*.

    *values* are checked against ``arguments.model`` unless *validated* (the framework did
    it already). The run follows *options* (the application's settings); *on_event* sees
    every event before the next one is produced (a face passes none when nobody downstream
    listens: then the run is not streamed, the router's ``invoke`` answers). Raises the
    run's error when the model cannot act on it, and :class:`SchemaRouterError` when the
    run ended without either.
    *invocation* (the face's tool name and call id) is current while the run streams.
    """
    try:
        checked = values if validated else arguments.checked(values)
        request = options.request(
            checked.get("query") or "", arguments.to_canonical(checked), fields=checked.get("fields")
        )
    except ValidationError as exc:
        return ModelOutcome(content=validation_message(exc), exception=exc)
    if options.mode == "gather":
        with invoking(invocation):
            return await _gather_for_model(router, request, options, on_event, max_records)
    events: list[RouterEvent] = []
    with invoking(invocation):
        invoke = getattr(router, "invoke", None) if on_event is None else None
        ended: ToolResult | BaseException | None
        if invoke is not None:  # nobody listens: no stream, no event handed on
            ended = await _invoke(invoke, request, options.budget, events)
        else:
            ended = await _stream(router, request, options.budget, on_event, events)
    if isinstance(ended, ToolResult):
        content = result_content(ended, max_records=max_records)
        return ModelOutcome(content=content, result=ended, events=tuple(events))
    if ended is None:
        raise SchemaRouterError("the router run ended without a result or an error")
    message = model_error_message(ended)
    if message is None or not isinstance(ended, Exception):
        raise ended
    return ModelOutcome(content=message, exception=ended, events=tuple(events))


async def _invoke(
    invoke: Callable[..., Awaitable[ToolResult]],
    request: PlanRequest,
    budget: RunBudget | None,
    events: list[RouterEvent],
) -> ToolResult | BaseException:
    """Nobody listens: the router's plain ``invoke``; the result, or the error it raised with
    that run's events (``run.error`` last) put into *events*."""
    try:
        return await invoke(request, budget=budget)
    except Exception as exc:
        recorded = getattr(exc, RUN_EVENTS_ATTRIBUTE, ())
        if recorded and isinstance(recorded[-1], RunErrorEvent) and recorded[-1].exception is exc:
            events.extend(recorded)
        return exc


async def _stream(
    router: StreamsRuns,
    request: PlanRequest,
    budget: RunBudget | None,
    on_event: EventHook | None,
    events: list[RouterEvent],
) -> ToolResult | BaseException | None:
    """Stream one run into *events* through *on_event*; the result or the error it ended with."""
    ended: ToolResult | BaseException | None = None
    # closed here even when cancelled while a hook handles an event, not later by the GC
    async with aclosing(router.stream(request, budget=budget)) as stream:
        async for event in stream:
            events.append(event)
            if on_event is not None:
                handled = on_event(event)
                if inspect.isawaitable(handled):
                    await handled
            if isinstance(event, RunEndEvent) and isinstance(event.result, ToolResult):
                ended = event.result
            elif isinstance(event, RunErrorEvent):
                ended = event.exception
    return ended


async def _gather_for_model(
    router: object, request: PlanRequest, options: ToolOptions, on_event: EventHook | None, max_records: int
) -> ModelOutcome:
    """``mode="gather"``: every compatible route at once, answers side by side."""
    gather = getattr(router, "gather", None)
    if gather is None:
        raise ConfigurationError("mode='gather' needs a router with gather() (a SchemaRouter)")
    events: list[RouterEvent] = []

    async def hook(event: RouterEvent) -> None:
        events.append(event)
        handled = on_event(event) if on_event is not None else None
        if inspect.isawaitable(handled):
            await handled

    try:
        gathered: GatherResult = await gather(request, budget=options.budget, on_event=hook)
    except Exception as exc:
        message = model_error_message(exc)
        if message is None:
            raise
        return ModelOutcome(content=message, exception=exc, events=tuple(events))
    content = gather_content(gathered, max_records=max_records)
    return ModelOutcome(content=content, result=gathered.results[0], events=tuple(events), gathered=gathered)
