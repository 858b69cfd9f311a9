"""A routing failure as LangChain sees it: a ``ToolException`` carrying the failure summary,
answered as an error ``ToolMessage`` for a tool call."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from langchain_core.messages import ToolMessage
from langchain_core.tools import ToolException

__all__ = ["RouterToolException", "tool_call_id", "tool_error_output"]

tool_call_id: ContextVar[str | None] = ContextVar("schemarouter_langchaintool_call_id", default=None)
"""The model's tool-call id of the tool run in progress (LangChain hands it to ``run`` only)."""


class RouterToolException(ToolException):
    """A routing failure the model can act on; ``artifact`` is the failure summary (JSON-able)."""

    def __init__(self, message: str, *, artifact: dict[str, Any], tool_name: str) -> None:
        super().__init__(message)
        self.artifact = artifact
        self.tool_name = tool_name
        self.tool_call_id = tool_call_id.get()


def tool_error_output(exc: ToolException) -> Any:
    """The default ``handle_tool_error``: for a tool call, an error ``ToolMessage`` whose
    artifact is the failure summary; otherwise the message text."""
    content = str(exc.args[0]) if exc.args else "Tool execution error"
    if isinstance(exc, RouterToolException) and exc.tool_call_id is not None:
        return ToolMessage(
            content,
            artifact=exc.artifact,
            tool_call_id=exc.tool_call_id,
            name=exc.tool_name,
            status="error",
        )
    return content
