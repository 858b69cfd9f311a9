"""A loopback materials API that returns only ``material_id`` unless ``_fields`` asks for more.

It behaves like servers that project on request: a field not named in ``_fields`` is left
out of the answer (not sent as null), ``_all_fields=true`` sends every field, and
``elements`` is one string of comma-separated symbols that must all be present. Its
``/slow-openapi.json`` is the same document, sent after a pause (servers that build their
document on every request take seconds).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from tests.servers.uvicorn_thread import UvicornThread

DOCUMENT_PAUSE_SECONDS = 1.5

MATERIALS: list[dict[str, Any]] = [
    {
        "material_id": "mp-19770",
        "formula_pretty": "Fe2O3",
        "elements": ["Fe", "O"],
        "energy_above_hull": 0.0,
        "band_gap": 2.0,
        "is_stable": True,
    },
    {
        "material_id": "mp-2534",
        "formula_pretty": "GaAs",
        "elements": ["As", "Ga"],
        "energy_above_hull": 0.0,
        "band_gap": 0.19,
        "is_stable": True,
    },
    {
        "material_id": "mp-149",
        "formula_pretty": "Si",
        "elements": ["Si"],
        "energy_above_hull": 0.0,
        "band_gap": 0.61,
        "is_stable": None,  # a value the server holds as null
    },
]


class Material(BaseModel):
    material_id: str
    formula_pretty: str | None = None
    elements: list[str] | None = None
    energy_above_hull: float | None = None
    band_gap: float | None = None
    is_stable: bool | None = None


class Page(BaseModel):
    data: list[Material]


def projecting_app() -> FastAPI:
    app = FastAPI(title="Projecting materials API", version="1")

    @app.get("/materials/summary/", operation_id="summary_search", response_model=Page)
    def summary_search(
        formula: Annotated[str | None, Query(description="Reduced formula of the material")] = None,
        elements: Annotated[
            str | None,
            Query(description="Elements the material contains, as a comma-separated list", max_length=60),
        ] = None,
        fields: Annotated[
            str | None,
            Query(alias="_fields", description="Fields to return, comma separated"),
        ] = None,
        all_fields: Annotated[bool, Query(alias="_all_fields", description="Return every field")] = False,
    ) -> JSONResponse:
        wanted = {e for e in (elements or "").split(",") if e}
        hits = [
            m
            for m in MATERIALS
            if (formula is None or m["formula_pretty"] == formula) and wanted <= set(m["elements"])
        ]
        keep = {"material_id", *(f for f in (fields or "").split(",") if f)}
        data = [m if all_fields else {k: v for k, v in m.items() if k in keep} for m in hits]
        return JSONResponse({"data": data})

    @app.get("/slow-openapi.json", include_in_schema=False)
    async def slow_document() -> JSONResponse:
        await asyncio.sleep(DOCUMENT_PAUSE_SECONDS)
        return JSONResponse(app.openapi())

    return app


@contextmanager
def projecting_api() -> Iterator[UvicornThread]:
    server = UvicornThread(projecting_app()).start()
    try:
        yield server
    finally:
        server.stop()
