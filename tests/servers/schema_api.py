"""A loopback server for real OpenAPI documents that answers every operation they describe.

* ``GET /documents/<file>``: one of the documents (JSON or YAML).
* ``GET /apis/<slug>/<path>``: the operation of document *slug* whose path template matches
  (templates with the fewest parameters first), answered with a small body built from its
  success response schema by :func:`answer_of` (the schema's examples where it gives them,
  else values generated from the types). An unknown path is a 404.

Every API request is recorded in ``requests`` (slug, path, query string). The bodies are
deterministic, so a test can build the same body and compare the records it got.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tests.servers.uvicorn_thread import UvicornThread

METHODS = ("get", "post", "put", "patch", "delete")
ITEMS = 2
"""Items generated for each array."""
DEPTH = 6
"""Object nesting generated below the response (deeper objects are empty)."""


def load_document(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def success_schema(document: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema of the operation's first 2xx (else default) response, if it has one."""
    responses = operation.get("responses") or {}
    codes = [*sorted(c for c in responses if str(c).startswith("2")), "default"]
    for code in codes:
        response = _resolve(document, responses.get(code) or {})
        content = response.get("content") or {}
        for media in sorted(content, key=lambda m: "json" not in m):
            schema = (content[media] or {}).get("schema")
            if isinstance(schema, dict):
                return schema
    return None


def answer_of(document: dict[str, Any], operation: dict[str, Any]) -> Any:
    """The body the server answers for *operation*: built from its success response schema."""
    schema = success_schema(document, operation)
    return {} if schema is None else _value(document, schema, "value", 0, 0, frozenset())


def _resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    seen: set[str] = set()
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and node["$ref"] not in seen:
        ref = node["$ref"]
        seen.add(ref)
        target: Any = document
        for part in ref.removeprefix("#/").split("/"):
            target = (
                target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
            )
        node = target if isinstance(target, dict) else {}
    return node


def _merged(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    schema = _resolve(document, schema)
    if "allOf" not in schema:
        return schema
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    properties: dict[str, Any] = dict(merged.get("properties") or {})
    for part in schema["allOf"]:
        part = _merged(document, part)
        properties |= part.get("properties") or {}
        for key, value in part.items():
            merged.setdefault(key, value)
    if properties:
        merged["properties"] = properties
    return merged


def _value(
    document: dict[str, Any], schema: Any, name: str, index: int, depth: int, refs: frozenset[str]
) -> Any:
    if not isinstance(schema, dict):
        return f"{name}-{index}"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if ref in refs:
            return None  # a cycle: stop here
        refs = refs | {ref}
    schema = _merged(document, schema)
    for key in ("example", "default"):
        if key in schema and schema[key] is not None and not isinstance(schema[key], dict | list):
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("oneOf", "anyOf"):
        options = [o for o in schema.get(key) or [] if _resolve(document, o).get("type") != "null"]
        if options:
            return _value(document, options[0], name, index, depth, refs)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "array" or "items" in schema:
        return [_value(document, schema.get("items") or {}, name, i, depth + 1, refs) for i in range(ITEMS)]
    if kind == "object" or "properties" in schema:
        if depth >= DEPTH:
            return {}
        properties = schema.get("properties") or {}
        return {key: _value(document, sub, key, index, depth + 1, refs) for key, sub in properties.items()}
    if kind == "integer":
        return index + 1
    if kind == "number":
        return index + 1.5
    if kind == "boolean":
        return index == 0
    if schema.get("format") == "date-time":
        return f"2024-01-0{index + 1}T00:00:00Z"
    if schema.get("format") == "date":
        return f"2024-01-0{index + 1}"
    return f"{name}-{index}"


class _Api:
    """The operations of one document, matched by path template."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        templates: list[tuple[int, re.Pattern[str], str, dict[str, Any]]] = []
        for path, item in (document.get("paths") or {}).items():
            for method, operation in (item or {}).items():
                if method in METHODS and isinstance(operation, dict):
                    pattern = "".join(
                        "[^/]+" if part.startswith("{") else re.escape(part)
                        for part in re.split(r"(\{[^}]+\})", path.rstrip("/") or "/")
                        if part
                    )
                    templates.append((path.count("{"), re.compile(pattern + "/?"), method, operation))
        self.templates = sorted(templates, key=lambda t: t[0])

    def operation(self, method: str, path: str) -> dict[str, Any] | None:
        for _, pattern, wanted, operation in self.templates:
            if wanted == method and pattern.fullmatch(path):
                return operation
        return None


class SchemaApiServer:
    """Serves *documents* (file name -> path) and answers their operations, on a loopback port."""

    def __init__(self, documents: dict[str, Path]) -> None:
        self.documents = documents
        self.requests: list[tuple[str, str, str]] = []
        self._apis: dict[str, _Api] = {}
        self._thread = UvicornThread(self._app())
        self.url = ""

    def document_url(self, name: str) -> str:
        return f"{self.url}/documents/{name}"

    def base_url(self, name: str) -> str:
        """The base URL under which the operations of document *name* are answered."""
        return f"{self.url}/apis/{name}"

    def document(self, name: str) -> dict[str, Any]:
        return self._api(name).document

    def answer(self, name: str, method: str, path: str) -> Any:
        """The body answered for *method* *path* (a concrete path, after the base URL)."""
        operation = self._api(name).operation(method.lower(), path)
        assert operation is not None, f"{name} has no operation for {method} {path}"
        return answer_of(self.document(name), operation)

    def start(self) -> SchemaApiServer:
        self._thread.start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        self._thread.stop()

    def _api(self, name: str) -> _Api:
        if name not in self._apis:
            self._apis[name] = _Api(load_document(self.documents[name]))
        return self._apis[name]

    def _app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/documents/{name}", self._document),
                Route(
                    "/apis/{name}/{rest:path}",
                    self._operation,
                    methods=[m.upper() for m in METHODS],
                ),
            ]
        )

    async def _document(self, request: Request) -> Response:
        path = self.documents.get(request.path_params["name"])
        if path is None:
            return JSONResponse({"detail": "no such document"}, status_code=404)
        media = "application/json" if path.suffix == ".json" else "application/yaml"
        return FileResponse(path, media_type=media)

    async def _operation(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.documents:
            return JSONResponse({"detail": "no such document"}, status_code=404)
        path = "/" + request.path_params["rest"]
        self.requests.append((name, path, request.url.query))
        operation = self._api(name).operation(request.method.lower(), path)
        if operation is None:
            return JSONResponse({"detail": f"no operation for {request.method} {path}"}, status_code=404)
        return JSONResponse(answer_of(self.document(name), operation))
