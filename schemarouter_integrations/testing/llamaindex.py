"""A scripted function-calling LLM for LlamaIndex: an agent to test without a key or network.

Needs the ``[llamaindex]`` extra. Put a real function-calling LLM in its place for a live agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._lazy import extra_needed as _extra_needed

with _extra_needed("llamaindex", "schemarouter_integrations.testing.llamaindex needs LlamaIndex"):
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

__all__ = ["BAND_GAP_OF_SI", "scripted_llm"]

BAND_GAP_OF_SI: Mapping[str, Any] = {"query": "band gap of Si", "formula": "Si"}
"""The arguments :func:`scripted_llm` sends by default."""


def scripted_llm(
    tool_name: str,
    arguments: Mapping[str, Any] | None = None,
    *,
    answer_prefix: str = "Here is what I found:\n",
) -> MockFunctionCallingLLM:
    """An LLM that calls *tool_name* once with *arguments*, then answers with the tool's output."""

    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        results = [m for m in messages if m.role == MessageRole.TOOL]
        if results:
            return ChatMessage(role=MessageRole.ASSISTANT, content=f"{answer_prefix}{results[-1].content}")
        call = ToolCallBlock(
            tool_call_id="call-1", tool_name=tool_name, tool_kwargs=dict(arguments or BAND_GAP_OF_SI)
        )
        return ChatMessage(role=MessageRole.ASSISTANT, blocks=[call])

    return MockFunctionCallingLLM(response_generator=respond)
