"""The LangChain tool called as a plain function, the way other frameworks' bridges call it.

Bridges read a LangChain tool's callables rather than its ``run``: google-adk's
``LangchainTool`` wraps ``tool._run`` and passes it only the parameters its signature names;
crewai's ``Tool.from_langchain`` calls ``tool.func(**arguments)``. A :class:`NamedCall`
is such a callable whose signature names ``query`` and every model-facing argument
(keyword, default None), so the arguments the model gave reach the router.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .._framework import ModelArguments

__all__ = ["NamedCall", "named_signature"]

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


class NamedCall:
    """*call*, with *signature* as what ``inspect.signature`` reads."""

    def __init__(self, call: Callable[..., Any], signature: inspect.Signature, name: str, doc: str) -> None:
        self._call = call
        self.__signature__ = signature
        self.__name__ = name
        self.__doc__ = doc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.__name__}{self.__signature__}>"
