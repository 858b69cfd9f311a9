"""``SchemaRouterTool``: one LangChain tool over every registered access path."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import aclosing
from typing import Any, Literal

import anyio
from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.tools import BaseTool, ToolException
from pydantic import ConfigDict, Field, PrivateAttr, ValidationError

from .._execution import RouterEvent, RunBudget, ToolResult
from .._framework import (
    ModelArguments,
    ToolOptions,
    ToolSurface,
    model_error_message,
    result_content,
)
from .._planning.models import FallbackScope
from .._router import SchemaRouter
from .._sync import run_sync
from ..errors import SchemaRouterError
from ..events import RunEndEvent, RunErrorEvent
from ._schema import ARGS_MODEL_NAME, validation_message
from ._tracing import RunTracing

Emit = Callable[[RouterEvent], Awaitable[None]]


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
    max_records: int = Field(default=20, ge=1)
    """Records shown to the model in the content (all of them stay in the artifact)."""

    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"

    _surface: ToolSurface = PrivateAttr()

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
        **kwargs: Any,
    ) -> None:
        options = ToolOptions(
            fallback_scope=fallback_scope,
            max_fallbacks=max_fallbacks,
            preferred_tools=tuple(preferred_tools),
            budget=budget,
            fields=tuple(fields) if fields is not None else None,
        )
        surface = ToolSurface(router, options=options, model_name=ARGS_MODEL_NAME, description=description)
        kwargs.setdefault("handle_tool_error", True)
        kwargs.setdefault("handle_validation_error", validation_message)
        super().__init__(
            router=router,
            name=name,
            description=surface.description,
            args_schema=surface.arguments.model,
            fallback_scope=options.fallback_scope,
            max_fallbacks=options.max_fallbacks,
            preferred_tools=options.preferred_tools,
            budget=options.budget,
            fields=options.fields,
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
        """The application's routing settings, as the framework-neutral options."""
        return ToolOptions(
            fallback_scope=self.fallback_scope,
            max_fallbacks=self.max_fallbacks,
            preferred_tools=self.preferred_tools,
            budget=self.budget,
            fields=self.fields,
        )

    @property
    def tool_call_schema(self) -> Any:
        self.refresh()
        return super().tool_call_schema

    @property
    def args(self) -> dict[str, Any]:
        self.refresh()
        return super().args

    def get_input_schema(self, config: Any = None) -> Any:
        self.refresh()
        return super().get_input_schema(config)

    def _parse_input(
        self, tool_input: str | dict[str, Any], tool_call_id: str | None
    ) -> str | dict[str, Any]:
        self.refresh()
        return super()._parse_input(tool_input, tool_call_id)

    # -- running ---------------------------------------------------------------------
    def _run(
        self,
        query: str,
        run_manager: CallbackManagerForToolRun | None = None,
        **arguments: Any,
    ) -> tuple[str, ToolResult]:
        tracing = RunTracing(run_manager)

        async def emit(event: RouterEvent) -> None:
            tracing.emit(event)

        try:
            result = run_sync(lambda: self._execute(query, arguments, emit))
        finally:
            tracing.close()
        tracing.finish(result)
        return self._content(result), result

    async def _arun(
        self,
        query: str,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **arguments: Any,
    ) -> tuple[str, ToolResult]:
        tracing = RunTracing(run_manager)
        try:
            result = await self._execute(query, arguments, tracing.aemit)
        finally:
            with anyio.CancelScope(shield=True):
                await tracing.aclose()
        tracing.finish(result)
        return self._content(result), result

    async def _execute(self, query: str, arguments: dict[str, Any], emit: Emit) -> ToolResult:
        """Stream one routed run, mirroring each event; raise what the model should read."""
        try:
            request = self.options.request(query, self._surface.arguments.to_canonical(arguments))
        except ValidationError as exc:
            raise ToolException(validation_message(exc)) from exc
        outcome: ToolResult | BaseException | None = None
        # closed here even when cancelled while a callback handles an event, not later by the GC
        async with aclosing(self.router.stream(request, budget=self.budget)) as events:
            async for event in events:
                await emit(event)
                if isinstance(event, RunEndEvent) and isinstance(event.result, ToolResult):
                    outcome = event.result
                elif isinstance(event, RunErrorEvent):
                    outcome = event.exception
        if isinstance(outcome, ToolResult):
            return outcome
        if outcome is None:
            raise SchemaRouterError("the router run ended without a result or an error")
        message = model_error_message(outcome)
        if message is None:
            raise outcome
        raise ToolException(message) from outcome

    def _content(self, result: ToolResult) -> str:
        return result_content(result, max_records=self.max_records)
