"""The LangChain tool called as a plain function, the way other frameworks' bridges call it.

Bridges read a LangChain tool's callables rather than its ``run``: google-adk's
``LangchainTool`` wraps ``tool._run`` and passes it only the parameters its signature names;
crewai's ``Tool.from_langchain`` calls ``tool.func(**arguments)``. A :func:`named_call`
is such a callable whose signature names ``query`` and every model-facing argument
(keyword, default None), so the arguments the model gave reach the router.

Whatever such a callable returns goes to the model as it is (google-adk sends the whole
return value as the function response), so a plain call answers with the model's text only
(:func:`bridge_output`), never the ``(content, artifact)`` pair LangChain's own ``run`` splits.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .._framework import ModelArguments

__all__ = ["BridgeOutput", "bridge_output", "named_call", "named_signature"]

BridgeOutput = str | dict[str, str]
"""What a plain call returns: the model's text, or ``{"error": text}`` when the run failed."""

_KEYWORD = inspect.Parameter.KEYWORD_ONLY


def named_signature(arguments: ModelArguments, *, run_manager: bool) -> inspect.Signature:
    """``(query: str, *, <argument>=None, ..., [run_manager=None,] **arguments)``."""
    fields = arguments.model.model_fields
    query = fields.get("query")
    required = query is not None and query.is_required()
    parameters = [
        inspect.Parameter(
            "query",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=inspect.Parameter.empty if required else None,
            annotation=str if required else str | None,
        )
    ]
    parameters += [inspect.Parameter(name, _KEYWORD, default=None) for name in fields if name != "query"]
    if run_manager:
        parameters.append(inspect.Parameter("run_manager", _KEYWORD, default=None))
    parameters.append(inspect.Parameter("arguments", inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(parameters)


def named_call(
    call: Callable[..., Any], signature: inspect.Signature, name: str, doc: str
) -> Callable[..., Any]:
    """A plain function calling *call*, whose ``inspect.signature`` is *signature* (a function,
    not a callable object: LangGraph's ``ToolNode`` reads ``tool.func`` with ``get_type_hints``)."""

    def named(*args: Any, **kwargs: Any) -> Any:
        return call(*args, **kwargs)

    named.__signature__ = signature  # type: ignore[attr-defined]
    named.__name__ = named.__qualname__ = name
    named.__doc__ = doc
    return named


def bridge_output(output: tuple[str, object]) -> BridgeOutput:
    """The model's part of a run's ``(content, artifact)``: the text of an answer, and
    ``{"error": text}`` for a failure (its artifact is the failure summary, a dict), the
    form google-adk's function tools use for an error the model should read and act on."""
    content, artifact = output
    return {"error": content} if isinstance(artifact, dict) else content
