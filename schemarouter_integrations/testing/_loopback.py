"""A loopback HTTP server on a daemon thread (standard library only), the base of the kit's twins.

Subclasses answer :meth:`LoopbackServer.answer`; the server binds ``127.0.0.1`` on a free port,
serves every request on its own thread (so a hanging answer blocks nobody else) and records
each request.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

__all__ = ["LoopbackServer", "Reply", "Request"]

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class Request:
    """One request the server received."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]


@dataclass(frozen=True)
class Reply:
    """What the server sends back: a status, headers and a JSON body (``None``: no body)."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> bytes:
        return b"" if self.body is None else json.dumps(self.body).encode()


class LoopbackServer:
    """Serves :meth:`answer` on ``http://127.0.0.1:<free port>`` while started.

    Use it as a context manager (``with Server() as server: server.url``) or call
    :meth:`start` and :meth:`stop`.
    """

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._requests: list[Request] = []

    # ------------------------------------------------------------------ to override

    def answer(self, request: Request) -> Reply:
        """The reply to *request* (called on the request's own thread)."""
        return Reply(404, {"detail": "not found"})

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        """The server's base URL, ``http://127.0.0.1:<port>`` (no trailing slash)."""
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        return f"http://{LOOPBACK}:{self._server.server_address[1]}"

    @property
    def requests(self) -> list[Request]:
        """Every request received so far, in order."""
        with self._lock:
            return list(self._requests)

    def start(self) -> Self:
        """Bind a free loopback port and serve on a daemon thread."""
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = ThreadingHTTPServer((LOOPBACK, 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name=type(self).__name__, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port; waits that :meth:`sleep` started end at once."""
        self._stopping.set()
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def sleep(self, seconds: float) -> bool:
        """Wait *seconds* on a request thread; False when the server stopped meanwhile."""
        return not self._stopping.wait(seconds)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _record(self, request: Request) -> None:
        with self._lock:
            self._requests.append(request)


def _handler_for(owner: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self._serve("GET")

        def do_HEAD(self) -> None:
            self._serve("HEAD")

        def do_POST(self) -> None:
            self._serve("POST")

        def _serve(self, method: str) -> None:
            parts = urlsplit(self.path)
            query = {key: values[-1] for key, values in parse_qs(parts.query, keep_blank_values=True).items()}
            request = Request(method, parts.path, query, {k.lower(): v for k, v in self.headers.items()})
            owner._record(request)
            try:
                reply = owner.answer(request)
            except Exception as exc:  # a bug in a twin is a 500, never a dropped connection
                reply = Reply(500, {"detail": f"{type(exc).__name__}: {exc}"})
            body = reply.encoded()
            try:
                self.send_response(reply.status)
                headers = {"content-type": "application/json", **reply.headers}
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("content-length", str(len(body)))
                self.send_header("connection", "close")
                self.end_headers()
                if method != "HEAD":
                    self.wfile.write(body)
            except OSError:  # the client gave up (a timeout): nothing to tell it
                pass
            self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

    return Handler
