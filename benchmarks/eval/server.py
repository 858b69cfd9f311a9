"""One loopback server for every corpus document: the document itself and its operations.

* ``GET /documents/<doc>``: the document as vendored (JSON or YAML).
* ``<METHOD> /apis/<doc>/<path>``: the operation of *doc* whose path template matches (the
  fewest path parameters first) answers the vendored answer of ``corpus/<doc>/data/`` for that
  operation when there is one, else a body built from its success response schema (the
  publisher's examples where the document gives them; :func:`tests.servers.schema_api.answer_of`).
  An unknown path is a 404.

Every API request is recorded in ``requests`` (doc, method, path, query string).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from benchmarks.eval.corpus import Answer, document_path, load_answers, load_document, operation_labels
from cookbook.services.uvicorn_thread import UvicornThread
from tests.servers.schema_api import answer_of

SERVED_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class _Template:
    parameters: int
    pattern: re.Pattern[str]
    loose: re.Pattern[str]
    """The same template whose parameters may hold ``/`` (DOIs in paths, as DataCite takes them)."""
    method: str
    label: str
    operation: dict[str, Any]


class _Served:
    """One document: its operations matched by path template, and its vendored answers."""

    def __init__(self, doc: str, corpus: Path) -> None:
        self.path = document_path(doc, corpus)
        self.document = load_document(self.path)
        self.answers: dict[str, Answer] = load_answers(doc, corpus)
        templates = []
        for method, path, label in operation_labels(self.document):
            parts = [p for p in re.split(r"(\{[^}]+\})", path.rstrip("/") or "/") if p]
            strict = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
            loose = "".join(".+" if p.startswith("{") else re.escape(p) for p in parts)
            operation = self.document["paths"][path][method]
            templates.append(
                _Template(
                    path.count("{"),
                    re.compile(strict + "/?"),
                    re.compile(loose + "/?"),
                    method,
                    label,
                    operation,
                )
            )
        self.templates = sorted(templates, key=lambda t: t.parameters)
        unknown = set(self.answers) - {t.label for t in self.templates}
        if unknown:
            raise ValueError(f"{doc}: answers for operations the document does not have: {sorted(unknown)}")

    def answer(self, method: str, path: str) -> Any | None:
        for loose in (False, True):  # a path that fits a template as it is first
            for template in self.templates:
                pattern = template.loose if loose else template.pattern
                if template.method == method and pattern.fullmatch(path):
                    vendored = self.answers.get(template.label)
                    if vendored is not None:
                        return vendored.body
                    return answer_of(self.document, template.operation)
        return None


class CorpusServer:
    """Serves the documents *docs* of *corpus* and answers their operations, on a loopback port."""

    def __init__(self, docs: list[str], corpus: Path) -> None:
        self._served = {doc: _Served(doc, corpus) for doc in docs}
        self.requests: list[tuple[str, str, str, str]] = []
        self._thread = UvicornThread(self._app())
        self.url = ""

    def document_url(self, doc: str) -> str:
        return f"{self.url}/documents/{doc}"

    def base_url(self, doc: str) -> str:
        return f"{self.url}/apis/{doc}"

    def document(self, doc: str) -> dict[str, Any]:
        return self._served[doc].document

    def start(self) -> CorpusServer:
        self._thread.start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        self._thread.stop()

    def __enter__(self) -> CorpusServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/documents/{doc}", self._document),
                Route("/apis/{doc}/{rest:path}", self._operation, methods=list(SERVED_METHODS)),
            ]
        )

    async def _document(self, request: Request) -> Response:
        served = self._served.get(request.path_params["doc"])
        if served is None:
            return JSONResponse({"detail": "no such document"}, status_code=404)
        media = "application/json" if served.path.suffix == ".json" else "application/yaml"
        return FileResponse(served.path, media_type=media)

    async def _operation(self, request: Request) -> Response:
        doc = request.path_params["doc"]
        served = self._served.get(doc)
        if served is None:
            return JSONResponse({"detail": "no such document"}, status_code=404)
        path = "/" + request.path_params["rest"]
        self.requests.append((doc, request.method, path, request.url.query))
        body = served.answer(request.method.lower(), path)
        if body is None:
            return JSONResponse({"detail": f"no operation for {request.method} {path}"}, status_code=404)
        # YAML documents give dates in their examples: written as ISO text, as JSON would carry them
        return Response(json.dumps(body, default=str), media_type="application/json")
