"""A loopback OpenAPI service whose document a test can withhold, revalidate or make echo a header.

::

    source = DocumentSource().start()
    source.document_url           # http://127.0.0.1:PORT/openapi.json (operation "search")
    source.status = 503           # the document now answers 503 (404, 401 ...); 200 again later
    source.stop(); source.start() # down (connection refused), then back on the same port
    source.document_requests      # the headers of every document request, names lower-cased

The document carries ``ETag`` and ``Last-Modified``; a request whose ``If-None-Match``
matches gets a 304. ``echo_header`` names a request header whose value the document then
repeats in its description (a server that echoes credentials). The API answers
``GET /api/materials`` with one record.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.servers.fault_server import json_body, openapi_document
from tests.servers.uvicorn_thread import UvicornThread

LAST_MODIFIED = "Wed, 01 May 2024 12:00:00 GMT"


class DocumentSource:
    def __init__(self) -> None:
        self.status = 200
        self.etag = '"v1"'
        self.echo_header: str | None = None
        self.document_requests: list[dict[str, str]] = []
        self.not_modified = 0
        app = Starlette(
            routes=[Route("/openapi.json", self._document), Route("/api/materials", self._materials)]
        )
        self.server = UvicornThread(app)

    @property
    def document_url(self) -> str:
        return f"{self.server.url}/openapi.json"

    def start(self) -> DocumentSource:
        self.server.start()  # the same port again after a stop
        return self

    def stop(self) -> None:
        self.server.stop()

    def __enter__(self) -> DocumentSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def _document(self, request: Request) -> Response:
        headers = {k.lower(): v for k, v in request.headers.items()}
        self.document_requests.append(headers)
        if self.status != 200:
            return Response(json.dumps({"detail": f"fault {self.status}"}), self.status)
        validators = {"etag": self.etag, "last-modified": LAST_MODIFIED}
        if headers.get("if-none-match") == self.etag:
            self.not_modified += 1
            return Response(status_code=304, headers=validators)
        document: dict[str, Any] = openapi_document("/api")
        if self.echo_header is not None:
            document["info"]["description"] = f"called with {headers.get(self.echo_header, '')}"
        return Response(json.dumps(document), 200, headers=validators, media_type="application/json")

    async def _materials(self, request: Request) -> Response:
        return Response(json_body(), 200, media_type="application/json")
