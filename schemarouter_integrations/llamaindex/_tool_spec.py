"""``SchemaRouterToolSpec``: the router as one LlamaIndex tool, instrumented."""

from __future__ import annotations

import contextvars
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

# llama_index.core re-exports these without __all__; the ignores only silence that.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.dispatcher import Dispatcher  # type: ignore[attr-defined]
from llama_index.core.tools import FunctionTool, ToolMetadata, ToolOutput
from llama_index.core.tools.tool_spec.base import SPEC_FUNCTION_TYPE, BaseToolSpec

from .._contracts import CachePolicy, HedgePolicy
from .._execution import RunBudget
from .._framework import (
    Mode,
    ModelArguments,
    ModelOutcome,
    ToolInvocation,
    ToolOptions,
    ToolSurface,
    run_for_model,
)
from .._planning.models import FallbackScope
from .._router import SchemaRouter
from .._sync import run_sync
from ..events import RouterEvent
from ._events import dispatch_router_event, package_dispatcher
from ._function_tool import RoutedFunctionTool
from ._listeners import listening, observed, tracing_spans
from ._output import tool_output
from ._workflow import CONTEXT_PARAMETER, with_context_parameter, write_to_stream

__all__ = ["SchemaRouterToolSpec", "instrument_router", "listening", "observed", "tracing_spans"]

dispatcher: Dispatcher = get_dispatcher(__name__)
"""Dispatches the spans and events of routed calls (a child of the package's dispatcher)."""

MAX_DESCRIPTION_CHARS = 1024
"""LlamaIndex's ``to_openai_tool()`` refuses longer tool descriptions."""

# Set while a tool-spec call dispatches its own run's events, so that a sink installed by
# instrument_router() does not dispatch them a second time.
_in_tool_call: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "schemarouter_llamaindex_tool_call", default=False
)


class SchemaRouterToolSpec(BaseToolSpec):
    """The router as one LlamaIndex tool: the model asks, the application decides how.

    ``to_tool_list()`` gives one ``FunctionTool`` (sync and async) named *name*, whose
    ``fn_schema`` is ``query`` plus the canonical arguments of the routes the router could
    pick under these settings (read-only endpoints, and the preferred tools too when
    fallback is disabled) and whose description is generated from the same routes unless
    *description* is given (either is cut to 1024 characters, the limit of OpenAI tool
    descriptions).
    Scope, fallbacks, preferred tools, budget and fields are the application's settings;
    the model can neither see nor change them.

    Each call returns a ``ToolOutput`` whose ``raw_output`` is the :class:`ToolResult` (with
    ``mode="gather"``: the ``GatherResult``, every compatible route at once).
    Routing failures the model can act on (no route, every route unavailable, budget,
    invalid arguments) come back as ``is_error=True`` outputs with a readable message;
    programming and configuration errors propagate. Every router event of the call is
    dispatched as an instrumentation event inside a span around the call and, inside an
    agent workflow (which hands the tool its ``Context``), written to the workflow's event
    stream as a ``RouterStreamEvent`` too.
    """

    def __init__(
        self,
        router: SchemaRouter,
        *,
        name: str = "schemarouter",
        description: str | None = None,
        fallback_scope: FallbackScope = "disabled",
        max_fallbacks: int = 3,
        preferred_tools: Sequence[str] = (),
        budget: RunBudget | None = None,
        fields: Sequence[str] | None = None,
        max_records: int = 20,
        mode: Mode = "fallback",
        hedge: HedgePolicy | None = None,
        cache: CachePolicy | None = None,
    ) -> None:
        self.router = router
        self.name = name
        self.spec_functions: list[SPEC_FUNCTION_TYPE] = [("call", "acall")]
        self.options = ToolOptions.among(locals())
        self.options.request("")  # reject invalid settings now, not on the model's first call
        self.max_records = max_records
        self._surface = ToolSurface(router, options=self.options, description=description)
        self._issued: list[weakref.ref[ToolMetadata]] = []
        self._last_invocation: ToolInvocation | None = None

    # -- what the model sees ---------------------------------------------------------
    @property
    def arguments(self) -> ModelArguments:
        """The current model-facing arguments (refreshed from the registry)."""
        self.refresh()
        return self._surface.arguments

    @property
    def metadata(self) -> ToolMetadata:
        """Name, generated description and ``fn_schema`` of the tool, as of now."""
        self.refresh()
        return ToolMetadata(
            name=self.name,
            description=fit_description(self._surface.description),
            fn_schema=self._surface.arguments.model,
        )

    def refresh(self) -> bool:
        """Rebuild description and argument schema if the registry or :attr:`options` changed;
        True if rebuilt.

        Tools made by :meth:`to_tool_list` are updated in place.
        """
        if not self._surface.refresh(self.options):
            return False
        alive = [(ref, meta) for ref in self._issued if (meta := ref()) is not None]
        for _, meta in alive:
            meta.description = fit_description(self._surface.description)
            meta.fn_schema = self._surface.arguments.model
        self._issued = [ref for ref, _ in alive]
        return True

    def to_tool_list(
        self,
        spec_functions: list[SPEC_FUNCTION_TYPE] | None = None,
        func_to_metadata_mapping: dict[str, ToolMetadata] | None = None,
    ) -> list[FunctionTool]:
        """One ``FunctionTool`` over :meth:`call` / :meth:`acall`; the arguments are ignored.

        The functions ask an agent workflow for its ``Context`` (outside one it is ``None``).
        """
        metadata = self.metadata
        self._issued.append(weakref.ref(metadata))
        fn, async_fn = with_context_parameter(self.call, self.acall)
        # an unobserved call is answered as acall answers it, unless a subclass or the instance changed acall
        quiet = (
            partial(self._answer, events=False)
            if getattr(self.acall, "__func__", None) is SchemaRouterToolSpec.acall
            else None
        )
        return [
            RoutedFunctionTool(
                quiet=quiet,
                dispatchers=(dispatcher,),
                fn=fn,
                async_fn=async_fn,
                metadata=metadata,
                callback=_as_output,
                async_callback=_as_output_async,
                partial_params={CONTEXT_PARAMETER: None},
            )
        ]

    # -- running ---------------------------------------------------------------------
    def call(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Answer the model's ``query`` (plus canonical arguments) through the router.

        A lone positional argument is the query (``tool("band gap of Si")``).
        """
        return run_sync(lambda: self.acall(*args, **kwargs))

    async def acall(self, *args: Any, **kwargs: Any) -> ToolOutput:
        """Async :meth:`call`. Runs inside a span; every router event is dispatched in it
        (and written to the workflow stream when a workflow ``Context`` is passed).

        When no instrumentation handler listens (no event or span handler on this
        dispatcher or its parents) and no workflow asks, there is no span and the run is
        not streamed: the router's plain ``invoke`` answers.
        """
        if observed(dispatcher):
            return await self._spanned_acall(*args, **kwargs)
        return await self._answer(args, kwargs, events=False)

    async def _acall_in_span(self, *args: Any, **kwargs: Any) -> ToolOutput:
        return await self._answer(args, kwargs, events=listening(dispatcher))

    _acall_in_span.__name__ = "acall"  # the span is named after it: SchemaRouterToolSpec.acall
    _acall_in_span.__qualname__ = "SchemaRouterToolSpec.acall"
    _spanned_acall = dispatcher.span(_acall_in_span)

    async def _answer(self, args: tuple[Any, ...], kwargs: dict[str, Any], *, events: bool) -> ToolOutput:
        """One model call; *events*: dispatch every router event as an instrumentation event."""
        workflow = kwargs.pop(CONTEXT_PARAMETER, None)
        kwargs = _by_name(args, kwargs)
        self.refresh()
        on_event: Callable[[RouterEvent], object] | None = None
        if events:  # no handler anywhere: no instrumentation event is built
            on_event = partial(dispatch_router_event, dispatcher=dispatcher)
        if workflow is not None:
            on_event = partial(_both, on_event, workflow)
        token = _in_tool_call.set(True)
        try:
            outcome = await run_for_model(
                self.router,
                kwargs,
                arguments=self._surface.arguments,
                options=self.options,
                on_event=on_event,
                max_records=self.max_records,
                invocation=self._invocation(),
            )
        finally:
            _in_tool_call.reset(token)
        return self._output(kwargs, outcome)

    def _invocation(self) -> ToolInvocation:
        """The tool invocation of a call (made once per :attr:`name`)."""
        invocation = self._last_invocation
        if invocation is None or invocation.name != self.name:
            invocation = self._last_invocation = ToolInvocation(self.name, None, "llamaindex")
        return invocation

    def _output(self, kwargs: dict[str, Any], outcome: ModelOutcome) -> ToolOutput:
        """*outcome* as a ``ToolOutput``: the result as raw output, or an ``is_error`` output."""
        return tool_output(
            tool_name=self.name,
            content=outcome.content,
            raw_input=_raw_input(kwargs),
            raw_output=outcome.content if outcome.result is None else outcome.artifact,
            is_error=outcome.is_error,
            exception=outcome.exception,
        )


def instrument_router(router: SchemaRouter, dispatcher: Dispatcher | None = None) -> Callable[[], None]:
    """Dispatch the router's other events (health probes, cooldown marks, direct ``invoke``
    runs) as instrumentation events too; returns a function that stops it.

    Events of :class:`SchemaRouterToolSpec` calls are left out here: the tool spec
    dispatches those itself, inside its span.
    """
    target = dispatcher or package_dispatcher

    def sink(event: RouterEvent) -> None:
        if not _in_tool_call.get():
            dispatch_router_event(event, target)

    return router.subscribe(sink)


def _both(dispatch: Callable[[RouterEvent], object] | None, workflow: Any, event: RouterEvent) -> None:
    if dispatch is not None:
        dispatch(event)
    write_to_stream(workflow, event)


def fit_description(text: str, limit: int = MAX_DESCRIPTION_CHARS) -> str:
    """*text* cut at a line or word boundary to fit *limit* characters (OpenAI's tool limit)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 4]
    cut = max(head.rfind("\n"), head.rfind(" "))
    return (head[:cut] if cut > limit // 2 else head).rstrip() + " ..."


def _by_name(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The arguments by name: a lone positional argument is the query; more fail validation."""
    if not args:
        return kwargs
    if len(args) == 1 and "query" not in kwargs:
        return {"query": args[0], **kwargs}
    return {**kwargs, "positional arguments": list(args)}


def _raw_input(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {"args": (), "kwargs": dict(kwargs)}


def _as_output(raw: Any) -> ToolOutput | None:
    """FunctionTool callback: :meth:`SchemaRouterToolSpec.acall` already built the output."""
    return raw if isinstance(raw, ToolOutput) else None


async def _as_output_async(raw: Any) -> ToolOutput | None:
    return _as_output(raw)
