"""A loopback server for real OpenAPI documents and a few canned answers of the APIs they describe.

* ``GET /documents/<file>``: a file of the documents directory (``github.json``,
  ``stripe.yaml``, ...), as JSON or YAML.
* ``GET /repos/{owner}/{repo}/issues``: two GitHub-like issues of that repository.
* ``GET /v1/customers``: a Stripe-like list envelope (``{"object": "list", "data": [...]}``).
* ``GET /pets``: a Petstore list (a bare array).

Every API request is recorded in ``requests`` (method, path, query string).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from tests.servers.uvicorn_thread import UvicornThread

PETS = [{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom", "tag": "cat"}]
CUSTOMERS = [{"id": "cus_1", "object": "customer", "email": "ada@example.org", "name": "Ada"}]


def issues_of(owner: str, repo: str) -> list[dict[str, Any]]:
    """The issues the server answers for *owner*/*repo*."""
    return [
        {
            "id": 11,
            "number": 1,
            "title": f"Crash on start in {repo}",
            "state": "open",
            "user": {"login": owner},
        },
        {"id": 12, "number": 2, "title": "Typo in README", "state": "closed", "user": {"login": "bob"}},
    ]


class DocumentsApiServer:
    """Serves the files of *directory* and the canned answers, on a loopback port."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.requests: list[tuple[str, str, str]] = []
        self._thread = UvicornThread(self._app())
        self.url = ""

    def document_url(self, name: str) -> str:
        return f"{self.url}/documents/{name}"

    def start(self) -> DocumentsApiServer:
        self._thread.start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        self._thread.stop()

    def _app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/documents/{name}", self._document),
                Route("/repos/{owner}/{repo}/issues", self._issues),
                Route("/v1/customers", self._customers),
                Route("/pets", self._pets),
            ]
        )

    def _record(self, request: Request) -> None:
        self.requests.append((request.method, request.url.path, request.url.query))

    async def _document(self, request: Request) -> Response:
        path = self.directory / request.path_params["name"]
        if path.parent != self.directory or not path.is_file():
            return JSONResponse({"detail": "no such document"}, status_code=404)
        media = "application/json" if path.suffix == ".json" else "application/yaml"
        return FileResponse(path, media_type=media)

    async def _issues(self, request: Request) -> Response:
        self._record(request)
        return JSONResponse(issues_of(request.path_params["owner"], request.path_params["repo"]))

    async def _customers(self, request: Request) -> Response:
        self._record(request)
        return JSONResponse({"object": "list", "data": CUSTOMERS, "has_more": False, "url": "/v1/customers"})

    async def _pets(self, request: Request) -> Response:
        self._record(request)
        return JSONResponse(PETS)
