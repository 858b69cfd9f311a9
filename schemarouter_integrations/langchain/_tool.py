"""``SchemaRouterTool``: one LangChain tool over every registered access path."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import anyio
from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.tools import BaseTool, ToolException
from pydantic import ConfigDict, Field, PrivateAttr

from .._contracts import CachePolicy, HedgePolicy
from .._execution import RunBudget
from .._framework import (
    EventHook,
    Mode,
    ModelArguments,
    ToolInvocation,
    ToolOptions,
    ToolSurface,
    failure_summary,
    route_spans_drawn,
    run_for_model,
    validation_message,
)
from .._framework.plain_types import plain_property
from .._planning.models import FallbackScope
from .._router import SchemaRouter
from .._sync import run_sync
from ..events import GatherResult, ToolResult
from ._bridging import BridgeOutput, bridge_output, named_call, named_signature
from ._tool_errors import RouterToolException, tool_call_id, tool_error_output
from ._tracing import RunTracing, listened

Artifact = ToolResult | GatherResult | dict[str, Any]
"""The artifact of a run: its ``ToolResult`` (``GatherResult`` when gathering) or, when it
failed, the failure summary."""


class SchemaRouterTool(BaseTool):
    """The router as one LangChain tool: the model asks, the application decides how.

    The model sees ``query`` plus the canonical arguments of the routes the router could
    pick under this tool's settings (read-only endpoints, and the preferred tools too when
    fallback is disabled; rebuilt when the registry or the settings change) and a generated
    description of the same routes; scope,
    budget, preferred tools, fields and health are the application's settings. Output is
    ``(content, artifact)``: compact text for the model and the :class:`ToolResult`.
    Routing errors the model can act on come back as tool error messages; programming
    errors propagate. Router events are dispatched as custom events named by their type.
    A failed tool call's ``ToolMessage`` (``status="error"``) carries the failure summary
    (error, routes tried, each attempt's reason) as its artifact. Called as a plain function
    by another framework's bridge (``_run``/``_arun`` without a callback manager, ``func``),
    it returns only what the model reads: the text, or ``{"error": text}`` (``func``: the text).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = "data_lookup"
    description: str = ""
    router: SchemaRouter = Field(exclude=True)
    fallback_scope: FallbackScope = "disabled"
    max_fallbacks: int = Field(default=3, ge=0, le=8)
    preferred_tools: tuple[str, ...] = ()
    budget: RunBudget | None = None
    fields: tuple[str, ...] | None = None
    mode: Mode = "fallback"
    """``"gather"``: every compatible route at once, values side by side; artifact a ``GatherResult``."""
    hedge: HedgePolicy | None = None
    cache: CachePolicy | None = None
    """Start the next read-only route as well when the current one is slow (``HedgePolicy``)."""
    max_records: int = Field(default=20, ge=1)
    """Records shown to the model in the content (all of them stay in the artifact)."""

    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    _surface: ToolSurface = PrivateAttr()
    _options: ToolOptions | None = PrivateAttr(default=None)
    _signatures: dict[str, tuple[ModelArguments, inspect.Signature]] = PrivateAttr(default_factory=dict)

    def __init__(
        self,
        *,
        router: SchemaRouter,
        name: str = "data_lookup",
        description: str | None = None,
        fallback_scope: FallbackScope = "disabled",
        max_fallbacks: int = 3,
        preferred_tools: Sequence[str] = (),
        budget: RunBudget | None = None,
        fields: Sequence[str] | None = None,
        mode: Mode = "fallback",
        hedge: HedgePolicy | None = None,
        cache: CachePolicy | None = None,
        **kwargs: Any,
    ) -> None:
        options = ToolOptions.among(locals())
        surface = ToolSurface(router, options=options, description=description)
        kwargs.setdefault("handle_tool_error", tool_error_output)
        kwargs.setdefault("handle_validation_error", validation_message)
        super().__init__(
            router=router,
            name=name,
            description=surface.description,
            args_schema=surface.arguments.model,
            **options.settings(),
            **kwargs,
        )
        self._surface = surface

    # -- what the model sees ---------------------------------------------------------
    def refresh(self) -> bool:
        """Rebuild description and argument schema if the registry or the settings changed;
        True if rebuilt."""
        if not self._surface.refresh(self.options):
            return False
        self.args_schema = self._surface.arguments.model
        self.description = self._surface.description
        return True

    @property
    def arguments(self) -> ModelArguments:
        """The current model-facing arguments (refreshed from the registry)."""
        self.refresh()
        return self._surface.arguments

    @property
    def options(self) -> ToolOptions:
        """The application's routing settings, as the framework-neutral options (the same
        object while the settings are equal: assigned, edited in place or changed by
        ``model_copy``, they are read again on every use)."""
        options = ToolOptions.among(self.__dict__)  # the fields that are routing settings
        known = self._options
        if known is not None and known == options:
            return known
        self._options = options
        return options

    @property
    def tool_call_schema(self) -> Any:
        self.refresh()
        return super().tool_call_schema

    @property
    def args(self) -> dict[str, Any]:
        """The argument properties, each with a plain ``type`` (no bare ``anyOf``)."""
        self.refresh()
        # copies: bridges edit what they get (smolagents blanks each description)
        return {name: plain_property(copy.deepcopy(node)) for name, node in super().args.items()}

    def get_input_schema(self, config: Any = None) -> Any:
        self.refresh()
        return super().get_input_schema(config)

    def _parse_input(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> str | dict[str, Any]:
        self.refresh()
        return super()._parse_input(tool_input, tool_call_id)

    # -- running ---------------------------------------------------------------------
    def run(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        token = tool_call_id.set(kwargs.get("tool_call_id"))
        try:
            return super().run(tool_input, *args, **kwargs)
        finally:
            tool_call_id.reset(token)

    async def arun(self, tool_input: str | dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        token = tool_call_id.set(kwargs.get("tool_call_id"))
        try:
            return await super().arun(tool_input, *args, **kwargs)
        finally:
            tool_call_id.reset(token)

    # ``_run``/``_arun``/``func`` name the model-facing arguments in their signatures: the
    # bridges of other frameworks pass only the parameters named there (see ``_bridging``).
    @property
    def _run(self) -> Callable[..., tuple[str, Artifact] | BridgeOutput]:
        return self._named("_run", self._run_routed, "Run the tool (sync).", run_manager=True)

    @property
    def _arun(self) -> Callable[..., Awaitable[tuple[str, Artifact] | BridgeOutput]]:  # type: ignore[override]
        return self._named("_arun", self._arun_routed, "Run the tool.", run_manager=True)

    @property
    def func(self) -> Callable[..., str]:
        """The tool as a plain function of ``query`` and the model-facing arguments: the
        text the model reads, a routing failure's message included (for bridges that call a
        LangChain tool's ``func``, such as crewai's ``Tool.from_langchain``)."""
        return self._named("func", self._text, self.description, run_manager=False)

    def _named(
        self, name: str, call: Callable[..., Any], doc: str, *, run_manager: bool
    ) -> Callable[..., Any]:
        arguments = self.arguments
        known = self._signatures.get(name)
        if known is None or known[0] is not arguments:
            known = (arguments, named_signature(arguments, run_manager=run_manager))
            self._signatures[name] = known
        return named_call(call, known[1], name, doc)

    def _text(self, query: str, **arguments: Any) -> str:
        return run_sync(lambda: self._execute(query, arguments, None, None, bridged=True))[0]

    def _run_routed(
        self,
        query: str,
        run_manager: CallbackManagerForToolRun | None = None,
        **arguments: Any,
    ) -> tuple[str, Artifact] | BridgeOutput:
        if run_manager is None:  # called as a plain function (a bridge): no callbacks, unchecked arguments
            return bridge_output(run_sync(lambda: self._execute(query, arguments, None, None, bridged=True)))
        if not listened(run_manager):  # nobody to tell: the router's plain invoke answers
            return run_sync(lambda: self._execute(query, arguments, None, None))
        tracing = RunTracing(run_manager, routes_drawn=route_spans_drawn(self.router))
        try:
            return run_sync(lambda: self._execute(query, arguments, tracing, tracing.emit))
        finally:
            tracing.close()

    async def _arun_routed(
        self,
        query: str,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **arguments: Any,
    ) -> tuple[str, Artifact] | BridgeOutput:
        if run_manager is None:  # called as a plain function (a bridge): no callbacks, unchecked arguments
            return bridge_output(await self._execute(query, arguments, None, None, bridged=True))
        if not listened(run_manager):  # nobody to tell: the router's plain invoke answers
            return await self._execute(query, arguments, None, None)
        tracing = RunTracing(run_manager, routes_drawn=route_spans_drawn(self.router))
        try:
            return await self._execute(query, arguments, tracing, tracing.aemit)
        finally:
            with anyio.CancelScope(shield=True):
                await tracing.aclose()

    async def _execute(
        self,
        query: str,
        arguments: dict[str, Any],
        tracing: RunTracing | None,
        emit: EventHook | None,
        *,
        bridged: bool = False,
    ) -> tuple[str, Artifact]:
        """One routed run, each event mirrored by *emit*; a ``ToolException`` for the model.

        Without *tracing* nobody listens (no callback handler, no graph stream): the run is
        not streamed and nothing is mirrored. *bridged* (called as a plain function, not
        through ``run``): the arguments are validated here, and a routing failure is
        answered as ``(message, failure summary)`` instead of raised, since no
        ``handle_tool_error`` stands between the bridge and the exception.
        """
        outcome = await run_for_model(
            self.router,
            {**arguments, "query": query},
            arguments=self._surface.arguments,
            options=self.options,
            on_event=emit,
            max_records=self.max_records,
            validated=not bridged,  # LangChain's run checked them against ``args_schema``
            invocation=ToolInvocation(self.name, tool_call_id.get(), "langchain"),
        )
        if outcome.result is None:
            summary = failure_summary(outcome.exception or ToolException(outcome.content), outcome.events)
            if tracing is not None:
                tracing.fail(summary)
            if bridged:
                return outcome.content, summary
            raise RouterToolException(outcome.content, artifact=summary, tool_name=self.name) from (
                outcome.exception
            )
        if tracing is not None:
            tracing.finish(outcome.result, max_records=self.max_records)
        artifact = outcome.artifact  # the GatherResult with mode="gather"
        return outcome.content, artifact if artifact is not None else outcome.result
