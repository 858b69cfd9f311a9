"""A loopback GraphQL-like API: one ``POST /graphql`` endpoint, an introspection and two queries.

* a query naming ``__schema`` answers the introspection: the ``Query`` type's fields
  ``materials(formula: String, limit: Int): [Material]`` and ``element(symbol: String!):
  Element``, with the fields of ``Material`` and ``Element``, shaped as GraphQL's own
  introspection answer (``__schema.queryType``, ``__schema.types[].fields[].args/type``);
* ``{ materials(...) { ... } }`` and ``{ element(...) { ... } }`` answer the fields
  selected, the arguments read from ``variables``;
* a failure is answered as GraphQL answers it, a 200 with ``errors`` (an unknown field or
  symbol: ``BAD_USER_INPUT``; the symbol ``"Og"``: ``SERVICE_UNAVAILABLE``).

The query text is read with two regular expressions, not parsed: this is a test double of
a GraphQL server, enough for the selection a client sends. ``requests`` records each body.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI, Request

from cookbook.services.uvicorn_thread import UvicornThread

MATERIALS: list[dict[str, Any]] = [
    {"material_id": "mp-804", "formula": "GaN", "band_gap": 1.73},
    {"material_id": "mp-2534", "formula": "GaAs", "band_gap": 0.19},
    {"material_id": "mp-149", "formula": "Si", "band_gap": 0.61},
]
ELEMENTS: dict[str, dict[str, Any]] = {
    "Ga": {"symbol": "Ga", "atomic_number": 31},
    "N": {"symbol": "N", "atomic_number": 7},
}


def _scalar(name: str) -> dict[str, Any]:
    return {"kind": "SCALAR", "name": name, "ofType": None}


def _field(name: str, type_: dict[str, Any], description: str = "", args: list[Any] | None = None) -> Any:
    return {"name": name, "description": description, "args": args or [], "type": type_}


def _arg(name: str, type_: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "description": "", "type": type_}


SCHEMA: dict[str, Any] = {
    "queryType": {"name": "Query"},
    "types": [
        {
            "kind": "OBJECT",
            "name": "Query",
            "fields": [
                _field(
                    "materials",
                    {"kind": "LIST", "name": None, "ofType": {"kind": "OBJECT", "name": "Material"}},
                    "Band gaps of materials by formula",
                    [_arg("formula", _scalar("String")), _arg("limit", _scalar("Int"))],
                ),
                _field(
                    "element",
                    {"kind": "OBJECT", "name": "Element", "ofType": None},
                    "Atomic number of an element",
                    [_arg("symbol", {"kind": "NON_NULL", "name": None, "ofType": _scalar("String")})],
                ),
            ],
        },
        {
            "kind": "OBJECT",
            "name": "Material",
            "fields": [
                _field("material_id", _scalar("ID"), "The material's id"),
                _field("formula", _scalar("String"), "Chemical formula"),
                _field("band_gap", _scalar("Float"), "Band gap in eV"),
            ],
        },
        {
            "kind": "OBJECT",
            "name": "Element",
            "fields": [
                _field("symbol", _scalar("String"), "Chemical symbol"),
                _field("atomic_number", _scalar("Int"), "Atomic number"),
            ],
        },
        _scalar("String") | {"fields": None},
    ],
}
_ROOT = re.compile(r"\{\s*(\w+)")
_SELECTION = re.compile(r"\{([^{}]*)\}\s*\}\s*$")


def _error(message: str, code: str) -> dict[str, Any]:
    return {"data": None, "errors": [{"message": message, "extensions": {"code": code}}]}


def answer(query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """What the server answers to *query* with *variables*."""
    if "__schema" in query:
        return {"data": {"__schema": SCHEMA}}
    root, selection = _ROOT.search(query), _SELECTION.search(query)
    if root is None or selection is None:
        return _error("Syntax Error: expected a selection", "GRAPHQL_PARSE_FAILED")
    fields = selection.group(1).split()
    unknown = [f for f in fields if f not in SCHEMA_FIELDS]
    if unknown:
        return _error(f"Cannot query field {unknown[0]!r}", "GRAPHQL_VALIDATION_FAILED")

    def pick(row: dict[str, Any]) -> dict[str, Any]:
        return {f: row[f] for f in fields if f in row}

    if root.group(1) == "materials":
        rows = [m for m in MATERIALS if variables.get("formula") in (None, m["formula"])]
        return {"data": {"materials": [pick(r) for r in rows[: variables.get("limit") or len(rows)]]}}
    if root.group(1) == "element":
        symbol = variables.get("symbol")
        if symbol == "Og":
            return _error("the element service is down", "SERVICE_UNAVAILABLE")
        if symbol not in ELEMENTS:
            return _error(f"no element {symbol!r}", "BAD_USER_INPUT")
        return {"data": {"element": pick(ELEMENTS[symbol])}}
    return _error(f"Cannot query field {root.group(1)!r} on type 'Query'", "GRAPHQL_VALIDATION_FAILED")


SCHEMA_FIELDS = {f["name"] for t in SCHEMA["types"] for f in (t.get("fields") or [])}


def graphql_app(requests: list[dict[str, Any]]) -> FastAPI:
    app = FastAPI(title="GraphQL-like API")

    @app.post("/graphql")
    async def graphql(request: Request) -> dict[str, Any]:
        body = await request.json()
        requests.append(body)
        return answer(str(body.get("query", "")), dict(body.get("variables") or {}))

    return app


@contextmanager
def graphql_api() -> Iterator[tuple[UvicornThread, list[dict[str, Any]]]]:
    requests: list[dict[str, Any]] = []
    server = UvicornThread(graphql_app(requests)).start()
    try:
        yield server, requests
    finally:
        server.stop()
