"""LangChain integration: the router as one ``BaseTool``, with its events as custom events.

``SchemaRouterTool`` exposes ``query`` plus the canonical arguments of the registered
read-only endpoints to the model; scope, budget, preferred tools and health stay with the
application. Every router event of a run is dispatched as a LangChain custom event named by
its type (``"tool.fallback"``, ...), recorded on the LangSmith tool run, and every attempted
route becomes a child run. ``SchemaRouterCallbackHandler`` collects those events.

Needs the ``langchain`` extra: ``pip install "schemarouter-integrations[langchain]"``.
Like ``langchain_core.tools``, the module loads its classes on first use: importing it costs
the core and ``langchain_core``; ``SchemaRouterTool`` brings ``BaseTool`` (and the runnables
and tracers LangChain imports with it) when it is first named.
"""

from __future__ import annotations

from .._lazy import extra_needed as _extra_needed

with _extra_needed("langchain", "schemarouter_integrations.langchain needs langchain-core"):
    import langchain_core  # noqa: F401

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._callbacks import SchemaRouterCallbackHandler as SchemaRouterCallbackHandler
    from ._tool import SchemaRouterTool as SchemaRouterTool


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(), {"._callbacks": ("SchemaRouterCallbackHandler",), "._tool": ("SchemaRouterTool",)}
)
