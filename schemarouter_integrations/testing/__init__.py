"""The public test kit: test an application's agent against outages, offline.

* **In-process routes with scripted faults.** :func:`faulty` puts a fault in front of any
  function, and the result plugs into ``router.add_callable(...)``: :class:`Down` (always
  unavailable), :class:`FailTimes` (fail *n* times, then answer), :class:`RetryAfter` (503 with
  ``Retry-After``), :class:`Hang` (never answers; the route's ``timeout_seconds`` ends the
  wait), :class:`Slow` (answers after *n* seconds).
* **A small materials landscape.** :data:`MATERIALS`, :func:`materials_search`,
  :func:`oqmd_search` and :func:`materials_router` (three band-gap routes, some down).
* **Loopback servers** (standard library only, ``127.0.0.1`` on a free port, on a daemon
  thread): :class:`MaterialsApi`, a Materials-Project-like OpenAPI service that takes the same
  faults; :class:`OptimadeFederation`, a providers list, index meta-databases and OPTIMADE
  databases; :class:`LoopbackServer` to build your own.
* Scripted models for agents without an LLM key: :mod:`schemarouter_integrations.testing.langchain`
  (``ScriptedChatModel``, extra ``[langchain]``) and
  :mod:`schemarouter_integrations.testing.llamaindex` (``scripted_llm``, extra ``[llamaindex]``).

Nothing in the router imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from ._faults import Down as Down
    from ._faults import FailTimes as FailTimes
    from ._faults import Fault as Fault
    from ._faults import FaultyFunction as FaultyFunction
    from ._faults import Hang as Hang
    from ._faults import RetryAfter as RetryAfter
    from ._faults import Slow as Slow
    from ._faults import faulty as faulty
    from ._loopback import LoopbackServer as LoopbackServer
    from ._loopback import Reply as Reply
    from ._loopback import Request as Request
    from ._materials import MATERIALS as MATERIALS
    from ._materials import Material as Material
    from ._materials import materials_router as materials_router
    from ._materials import materials_search as materials_search
    from ._materials import oqmd_search as oqmd_search
    from ._materials_api import MaterialsApi as MaterialsApi
    from ._optimade import PROVIDER_BAND_GAPS as PROVIDER_BAND_GAPS
    from ._optimade import OptimadeFederation as OptimadeFederation


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        "._faults": ("Down", "FailTimes", "Fault", "FaultyFunction", "Hang", "RetryAfter", "Slow", "faulty"),
        "._loopback": ("LoopbackServer", "Reply", "Request"),
        "._materials": ("MATERIALS", "Material", "materials_router", "materials_search", "oqmd_search"),
        "._materials_api": ("MaterialsApi",),
        "._optimade": ("PROVIDER_BAND_GAPS", "OptimadeFederation"),
    },
)
