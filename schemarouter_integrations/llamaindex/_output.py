"""One ``ToolOutput`` per answer, built from what the router made without validating it again.

A ``ToolOutput`` built from text holds one ``TextBlock`` of that text, the tool name, the raw
input and output and the error flag; the exception is its private attribute. The router made
every one of those values itself (its own text, the model's arguments as a dict, its result),
so the fields are set as they are; the ``TextBlock`` is still built validated. Should
LlamaIndex's ``ToolOutput`` ever hold other fields, validators or private attributes, every
output is built through its constructor instead.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.base.llms.types import TextBlock
from llama_index.core.tools import ToolOutput

__all__ = ["tool_output"]

_FIELDS = ("blocks", "tool_name", "raw_input", "raw_output", "is_error")
_set = object.__setattr__


def _plain() -> bool:
    """Whether ``ToolOutput`` is the model described above (checked once, at import)."""
    decorators = ToolOutput.__pydantic_decorators__
    return (
        tuple(ToolOutput.model_fields) == _FIELDS
        and set(ToolOutput.__private_attributes__) == {"_exception"}
        and ToolOutput.model_config.get("extra") in (None, "ignore")
        and not (decorators.validators or decorators.field_validators or decorators.model_validators)
        and not (decorators.root_validators or decorators.field_serializers or decorators.model_serializers)
    )


_PLAIN = _plain()


def tool_output(
    *,
    tool_name: str,
    content: str,
    raw_input: dict[str, Any],
    raw_output: Any,
    is_error: bool,
    exception: Exception | None,
) -> ToolOutput:
    """``ToolOutput(tool_name=..., content=..., ...)``, the same object, built faster."""
    if not _PLAIN or not content:
        return ToolOutput(
            tool_name=tool_name,
            content=content,
            raw_input=raw_input,
            raw_output=raw_output,
            is_error=is_error,
            exception=exception,
        )
    built = ToolOutput.__new__(ToolOutput)
    _set(
        built,
        "__dict__",
        {
            "blocks": [TextBlock(text=content)],
            "tool_name": tool_name,
            "raw_input": raw_input,
            "raw_output": raw_output,
            "is_error": is_error,
        },
    )
    _set(built, "__pydantic_fields_set__", set(_FIELDS))
    _set(built, "__pydantic_extra__", None)
    _set(built, "__pydantic_private__", {"_exception": exception})
    return built
