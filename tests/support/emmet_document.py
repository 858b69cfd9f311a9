"""The Materials Project API's own OpenAPI document, part of it, for planning tests.

``tests/servers/data/emmet_api_0.87.3_materials.json`` is the ``/openapi.json`` that the
real MP API server (PyPI ``emmet-api`` 0.87.3, https://github.com/materialsproject/emmet,
licence BSD-3-Clause-LBNL) serves when started as the integration suite starts it
(``cookbook/services/materials_project/mp_server.py``), reduced to thirteen of its
operations (``/materials/{summary, electronic_structure, electronic_structure/dos, thermo,
magnetism, dielectric, elasticity, synthesis, robocrys, core, provenance, similarity,
xas}/``) and the component schemas they refer to; nothing else is changed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build

DOCUMENT = Path(__file__).resolve().parent.parent / "servers" / "data" / "emmet_api_0.87.3_materials.json"
SUMMARY = "search_materials_summary__get"
ELECTRONIC = "search_materials_electronic_structure__get"
THERMO = "search_materials_thermo__get"
LANDSCAPE = (SUMMARY, ELECTRONIC, THERMO)
"""The operations the integration suite's MP landscape registers."""


@cache
def emmet_document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DOCUMENT.read_text())
    return loaded


async def emmet_router(operations: Sequence[str] | None = None, **options: Any) -> SchemaRouter:
    """A router with the document registered as ``mp_api`` (provider materials_project)."""
    chosen = {"operations": list(operations)} if operations is not None else {}
    spec, invoker, _ = await build(
        {DOC_URL: emmet_document()}, provider="materials_project", **chosen, **options
    )
    router = SchemaRouter()
    router.register(spec, invoker)
    return router


def ask(query: str, **arguments: Any) -> PlanRequest:
    """The request an application sends: MP REST preferred, cross-provider fallback."""
    return PlanRequest(
        query=query, arguments=arguments, preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )
