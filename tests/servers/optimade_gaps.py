"""The OPTIMADE reference server behind a loopback proxy that hides some ``/v1/info/<entry>``.

``EntryInfoGapProxy(upstream_url, missing=("references",)).start()`` forwards every GET to the
reference server unchanged, except ``/v1/info/<entry>`` for an entry in ``missing``, which
answers 404 with an OPTIMADE error document (as a database that lists an entry type but does
not describe it does).
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cookbook.services.uvicorn_thread import UvicornThread


class EntryInfoGapProxy:
    def __init__(self, upstream: str, *, missing: Sequence[str] = ("references",)) -> None:
        self.upstream = upstream.rstrip("/")
        self.missing = {f"/v1/info/{entry}" for entry in missing}
        self._thread: UvicornThread | None = None
        self.url = ""

    def app(self) -> Starlette:
        async def forward(request: Request) -> Response:
            path = request.url.path.rstrip("/")
            if path in self.missing:
                error = {
                    "errors": [{"status": "404", "title": "Not Found", "detail": f"{path} is not served"}]
                }
                return JSONResponse(error, status_code=404)
            async with httpx.AsyncClient() as client:
                answer = await client.get(f"{self.upstream}{request.url.path}", params=request.query_params)
            kind = answer.headers.get("content-type", "application/json")
            return Response(answer.content, status_code=answer.status_code, media_type=kind)

        return Starlette(routes=[Route("/{path:path}", forward)])

    def start(self) -> EntryInfoGapProxy:
        self._thread = UvicornThread(self.app()).start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.stop()
