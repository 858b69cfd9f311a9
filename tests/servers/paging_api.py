"""A loopback listing API that answers one page at a time, the ways real APIs page.

* ``GET /materials/`` (``search_materials``): MP style, ``_skip`` and ``_limit`` (default 10,
  at most 100), ``meta.total_doc`` counts the matches (250 materials);
* ``GET /elements/`` (``list_elements``): a page number ``page`` (from 1), pages of 10 the
  server decides, ``total`` beside the ``items`` (57 elements);
* ``GET /stuck/`` (``list_stuck``): takes ``offset`` but always answers the first page, with a
  count of 100 (a server whose paging is broken).

``requests`` records each request's query, in order.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from pydantic import BaseModel

from tests.servers.uvicorn_thread import UvicornThread

MATERIALS = [{"material_id": f"mp-{i}", "band_gap": round(i / 100, 2)} for i in range(250)]
ELEMENTS = [{"symbol": f"E{i}", "atomic_number": i + 1} for i in range(57)]


class Material(BaseModel):
    material_id: str
    band_gap: float | None = None


class Meta(BaseModel):
    total_doc: int


class Materials(BaseModel):
    data: list[Material]
    meta: Meta


class Element(BaseModel):
    symbol: str
    atomic_number: int


class Elements(BaseModel):
    items: list[Element]
    total: int


def paging_app(requests: list[dict[str, str]]) -> FastAPI:
    app = FastAPI(title="Paging listings API", version="1")

    @app.middleware("http")
    async def record(request: Request, call_next: Any) -> Any:
        if request.url.path != "/openapi.json":
            requests.append({"path": request.url.path, **dict(request.query_params)})
        return await call_next(request)

    @app.get("/materials/", operation_id="search_materials", response_model=Materials)
    def search_materials(
        skip: Annotated[int, Query(alias="_skip", ge=0, description="Materials to skip")] = 0,
        limit: Annotated[int, Query(alias="_limit", ge=1, le=100, description="Materials to return")] = 10,
    ) -> dict[str, Any]:
        """Band gaps of materials."""
        return {"data": MATERIALS[skip : skip + limit], "meta": {"total_doc": len(MATERIALS)}}

    @app.get("/elements/", operation_id="list_elements", response_model=Elements)
    def list_elements(page: Annotated[int, Query(ge=1, description="Page number")] = 1) -> dict[str, Any]:
        """Atomic numbers of the elements."""
        start = (page - 1) * 10
        return {"items": ELEMENTS[start : start + 10], "total": len(ELEMENTS)}

    @app.get("/stuck/", operation_id="list_stuck", response_model=Elements)
    def list_stuck(offset: Annotated[int, Query(ge=0, description="Skip")] = 0) -> dict[str, Any]:
        """Stuck elements listing."""
        return {"items": ELEMENTS[:10], "total": 100}

    return app


@contextmanager
def paging_api() -> Iterator[tuple[UvicornThread, list[dict[str, str]]]]:
    requests: list[dict[str, str]] = []
    server = UvicornThread(paging_app(requests)).start()
    try:
        yield server, requests
    finally:
        server.stop()
