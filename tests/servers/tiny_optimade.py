"""A tiny OPTIMADE federation on one loopback app: a providers list, an index per provider and
databases with just enough of ``/info`` to register. Each request's headers are recorded, so
tests can see where credentials went. Bad links and URLs are the test's to put in; ``{base}``
in a listed URL stands for the app's own address (as the request named it), ``{port}`` for its port."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

META = {"api_version": "1.2.0"}


def _info(prefix: str, *, database: bool) -> dict[str, Any]:
    entries = ["structures"] if database else ["links"]
    return {
        "meta": {
            **META,
            "provider": {"prefix": prefix, "name": prefix, "description": f"{prefix} test double"},
        },
        "data": {
            "type": "info",
            "id": "/",
            "attributes": {
                "api_version": "1.2.0",
                "available_api_versions": [{"url": "/v1", "version": "1.2.0"}],
                "formats": ["json"],
                "entry_types_by_format": {"json": entries},
                "available_endpoints": ["info", *entries],
                "is_index": not database,
            },
        },
    }


def tiny_federation(
    providers: list[dict[str, Any]],
    links: dict[str, list[dict[str, Any]]],
    databases: dict[str, str],
    received: list[tuple[str, dict[str, str]]],
) -> FastAPI:
    """*providers*: the providers list's entries; *links*: index name -> its child links;
    *databases*: database path name -> the prefix its ``/info`` claims."""
    app = FastAPI()

    @app.middleware("http")
    async def record(request: Request, call_next: Any) -> Any:
        received.append((request.url.path, dict(request.headers)))
        return await call_next(request)

    def here(value: Any, request: Request) -> Any:
        base = str(request.base_url).rstrip("/")
        if isinstance(value, str):
            return value.replace("{base}", base).replace("{port}", str(request.url.port))
        if isinstance(value, dict):
            return {k: here(v, request) for k, v in value.items()}
        if isinstance(value, list):
            return [here(v, request) for v in value]
        return value

    @app.get("/providers.json")
    async def providers_list(request: Request) -> dict[str, Any]:
        return {"meta": META, "data": here(providers, request)}

    @app.get("/{index}/v1/info")
    async def info(index: str) -> Any:
        if index in databases:
            return _info(databases[index], database=True)
        if index in links:
            return _info(index, database=False)
        return JSONResponse({"errors": [{"title": "not found"}]}, status_code=404)

    @app.get("/{index}/v1/links")
    async def index_links(index: str, request: Request) -> dict[str, Any]:
        return {"meta": META, "data": here(links.get(index, []), request)}

    @app.get("/{database}/v1/info/structures")
    async def structures_info(database: str) -> dict[str, Any]:
        properties = {"id": {"type": "string"}, "chemical_formula_reduced": {"type": "string"}}
        return {
            "meta": META,
            "data": {"formats": ["json"], "output_fields_by_format": {}, "properties": properties},
        }

    @app.get("/{database}/v1/structures")
    async def structures(database: str) -> dict[str, Any]:
        record = {"id": "1", "type": "structures", "attributes": {"chemical_formula_reduced": "Si"}}
        return {"meta": {**META, "more_data_available": False}, "data": [record]}

    return app


def provider(name: str, base_url: Any) -> dict[str, Any]:
    return {
        "type": "links",
        "id": name,
        "attributes": {"name": name, "base_url": base_url, "link_type": "external"},
    }


def child(database: str, base_url: Any) -> dict[str, Any]:
    return {
        "type": "links",
        "id": database,
        "attributes": {"name": database, "base_url": base_url, "link_type": "child", "aggregate": "ok"},
    }
