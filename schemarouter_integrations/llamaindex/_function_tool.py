"""The ``FunctionTool`` that :meth:`SchemaRouterToolSpec.to_tool_list` hands out.

It is a LlamaIndex ``FunctionTool`` in every respect (agents check ``isinstance`` and pass
their ``Context`` to it), with one difference in ``acall``: when nothing could observe the
call - no real event or span handler on LlamaIndex's tool dispatcher or this package's, up to
the root, and no workflow ``Context`` - the spans LlamaIndex would open reach nobody, so the
call is answered by the tool spec directly and one ``ToolOutput`` is built. Otherwise the call
goes through ``FunctionTool.acall`` unchanged: the same spans, events and callback as always.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from typing import Any

# llama_index.core re-exports these without __all__; the ignores only silence that.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.dispatcher import Dispatcher  # type: ignore[attr-defined]
from llama_index.core.tools import FunctionTool, ToolOutput

from ._listeners import observed_by_any
from ._workflow import CONTEXT_PARAMETER

__all__ = ["RoutedFunctionTool"]

Answer = Callable[[tuple[Any, ...], dict[str, Any]], Awaitable[ToolOutput]]
"""Answers one unobserved call: positional arguments, keyword arguments (the context included)."""

tool_dispatcher: Dispatcher = get_dispatcher(FunctionTool.__module__)
"""The dispatcher of ``FunctionTool.acall``'s span."""

_FUNCTION_TOOL_ACALL = vars(FunctionTool)["acall"]
"""``FunctionTool.acall`` as LlamaIndex defines it: while something else stands in its place
(an instrumentation library or a test wrapping the method), every call goes through it."""


class RoutedFunctionTool(FunctionTool):
    """A ``FunctionTool`` whose unobserved async calls skip the spans nobody reads.

    Named ``FunctionTool`` (spans are named after the instance's class, and stay
    ``FunctionTool.acall-...``); *quiet* answers a call when nothing observes it, and
    *dispatchers* are the ones whose handlers count besides LlamaIndex's tool dispatcher.
    Without *quiet* every call goes through ``FunctionTool.acall``.
    """

    def __init__(self, *, quiet: Answer | None, dispatchers: tuple[Dispatcher, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._quiet = quiet
        self._watched = (tool_dispatcher, *dispatchers)

    def __deepcopy__(self, memo: dict[int, Any]) -> RoutedFunctionTool:
        """A deep copy answers through the same tool spec (and router) and watches the same
        dispatchers, as a copied ``FunctionTool`` shares the functions it calls."""
        memo[id(self._quiet)] = self._quiet
        memo[id(self._watched)] = self._watched
        cls = type(self)
        copied = cls.__new__(cls)
        memo[id(self)] = copied
        for name, value in self.__dict__.items():
            setattr(copied, name, copy.deepcopy(value, memo))
        return copied


async def _acall(self: RoutedFunctionTool, *args: Any, **kwargs: Any) -> ToolOutput:
    """``FunctionTool.acall``, or the tool spec's own answer when nothing observes the call."""
    quiet = self._quiet
    if quiet is not None and vars(FunctionTool).get("acall") is _FUNCTION_TOOL_ACALL:
        given = {**self.partial_params, **kwargs}
        if (
            CONTEXT_PARAMETER in given
            and given[CONTEXT_PARAMETER] is None
            and not observed_by_any(self._watched)
        ):
            return await quiet(args, given)
    return await FunctionTool.acall(self, *args, **kwargs)


_acall.__qualname__ = "RoutedFunctionTool.acall"
# Assigned after the class statement: LlamaIndex's span mixin wraps the methods a subclass
# defines in a span of their own, which is what an unobserved call is spared; an observed call
# still gets every span, from FunctionTool.acall.
RoutedFunctionTool.acall = _acall  # type: ignore[method-assign, assignment]
RoutedFunctionTool.__name__ = "FunctionTool"
