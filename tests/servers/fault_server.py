"""A raw-socket HTTP/1.1 server that misbehaves on purpose, one route per fault.

ASGI servers cannot hang up without an answer, lie about ``Content-Length`` or dribble a body
forever, so this server writes its answers byte for byte. It runs on daemon threads (one per
connection), so it serves any event loop and outlives a single test.

::

    server = FaultServer().start()
    document_url = server.route("http-503", Status(503))
    # GET {document_url}               an honest OpenAPI document: operationId "search",
    #                                  GET /http-503/materials?formula=..., records under "data"
    # GET /http-503/materials          answered by the Status(503) fault
    server.received("http-503")        # the API requests that reached the fault, in order
    server.stop()

Faults (frozen dataclasses, so a test table can hold them): :class:`Reply` (any status,
headers, body; header values may be zero-argument callables, see :func:`http_date_in`),
:class:`Status` (a status with a JSON error document), :class:`Redirect`, :class:`Hang`,
:class:`CloseWithoutResponse`, :class:`Trickle`, :class:`Truncated`, :class:`Chunked`; and
two faults that are not served here at all but by where the route points: :class:`Refused`
(a bound, non-listening port: ``tests.servers.uvicorn_thread.RefusedPort``) and
:class:`NeverAccepted` (a listener whose accept queue is full: :class:`FullBacklogPort`).

Every answer carries ``connection: close``; each request gets a fresh connection.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import formatdate
from http import HTTPStatus
from time import time
from typing import Any, Protocol

from tests.servers.uvicorn_thread import LOOPBACK

HeaderValue = str | Callable[[], str]

RECORDS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "data": {
            "type": "array",
            "items": {"type": "object", "properties": {"band_gap": {"type": "number"}}},
        }
    },
}


def openapi_document(prefix: str) -> dict[str, Any]:
    """One read-only operation ``search`` at ``{prefix}/materials`` taking ``formula``."""
    return {
        "openapi": "3.0.3",
        "info": {"title": f"faulty {prefix}", "version": "1"},
        "servers": [{"url": prefix}],
        "paths": {
            "/materials": {
                "get": {
                    "operationId": "search",
                    "parameters": [{"name": "formula", "in": "query", "schema": {"type": "string"}}],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": RECORDS_SCHEMA}},
                        }
                    },
                }
            }
        },
    }


def json_body(size: int = 0) -> bytes:
    """A valid answer (one record), padded with JSON whitespace to at least *size* bytes."""
    head = b'{"data": [{"band_gap": 0.61}]'
    return head + b" " * max(0, size - len(head) - 1) + b"}"


def http_date_in(seconds: float) -> Callable[[], str]:
    """A header value: the HTTP-date *seconds* from the moment the answer is written."""
    return lambda: formatdate(time() + seconds, usegmt=True)


@dataclass(frozen=True)
class Received:
    """One request head as the server read it."""

    method: str
    path: str
    """The path without the query string."""
    target: str
    """The request target as sent (path and query)."""
    headers: dict[str, str]
    """Header names lower-cased."""


class Exchange:
    """One accepted connection whose request head has been read."""

    def __init__(self, conn: socket.socket, server: FaultServer) -> None:
        self.conn = conn
        self.server = server

    def send(self, data: bytes) -> bool:
        """Write *data*; False once the client has gone away."""
        try:
            self.conn.sendall(data)
        except OSError:
            return False
        return True

    def head(self, status: int, headers: Mapping[str, HeaderValue]) -> bytes:
        reason = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Unknown"
        lines = [f"HTTP/1.1 {status} {reason}", "connection: close"]
        lines += [f"{name}: {value() if callable(value) else value}" for name, value in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    def wait_for_hangup(self, seconds: float) -> bool:
        """Wait up to *seconds*; True when the client closed the connection (or the server stops)."""
        if self.server.stopping.is_set():
            return True
        try:
            readable, _, _ = select.select([self.conn], [], [], seconds)
            if readable and not self.conn.recv(4096):
                return True
        except OSError:
            return True
        return self.server.stopping.is_set()


class Fault(Protocol):
    def serve(self, exchange: Exchange) -> None: ...


@dataclass(frozen=True)
class Reply:
    """A complete, honest answer: *status*, *headers* and *body* with its true length."""

    status: int
    headers: Mapping[str, HeaderValue] = field(default_factory=dict)
    body: bytes = b""

    def serve(self, exchange: Exchange) -> None:
        headers = {"content-length": str(len(self.body)), **self.headers}
        exchange.send(exchange.head(self.status, headers) + self.body)


@dataclass(frozen=True)
class Status:
    """*status* with a small JSON error document (``{"detail": ...}``) and *headers*."""

    status: int
    headers: Mapping[str, HeaderValue] = field(default_factory=dict)

    def serve(self, exchange: Exchange) -> None:
        body = json.dumps({"detail": f"fault {self.status}"}).encode()
        Reply(self.status, {"content-type": "application/json", **self.headers}, body).serve(exchange)


@dataclass(frozen=True)
class Redirect:
    """*status* with ``location`` on another origin (``localhost`` instead of ``127.0.0.1``)."""

    status: int
    to_path: str = "/collect"

    def serve(self, exchange: Exchange) -> None:
        location = f"http://localhost:{exchange.server.port}{self.to_path}"
        exchange.send(exchange.head(self.status, {"location": location, "content-length": "0"}))


@dataclass(frozen=True)
class Hang:
    """Read the request and never answer, until the client gives up."""

    def serve(self, exchange: Exchange) -> None:
        while not exchange.wait_for_hangup(0.05):
            pass


@dataclass(frozen=True)
class CloseWithoutResponse:
    """Read the request and close the connection without a byte of answer."""

    def serve(self, exchange: Exchange) -> None:
        return None


@dataclass(frozen=True)
class Trickle:
    """A 200 whose body never ends in time: one byte every *interval* seconds of *declared*.

    *declared* stays small (below any ``max_response_bytes`` a test sets), so the only thing
    wrong is time: every read gets a byte well within any read timeout, and only a bound on
    the whole request can stop it (2048 bytes at 20 per second take over 100 s).
    """

    interval: float = 0.05
    declared: int = 2048

    def serve(self, exchange: Exchange) -> None:
        headers = {"content-type": "application/json", "content-length": str(self.declared)}
        if not exchange.send(exchange.head(200, headers) + b"{"):
            return
        while not exchange.wait_for_hangup(self.interval):
            if not exchange.send(b" "):
                return


@dataclass(frozen=True)
class Truncated:
    """A 200 that declares more bytes than it sends, then closes."""

    body: bytes = json_body(200)[:100]
    declared: int = 1000

    def serve(self, exchange: Exchange) -> None:
        headers = {"content-type": "application/json", "content-length": str(self.declared)}
        exchange.send(exchange.head(200, headers) + self.body)


@dataclass(frozen=True)
class Chunked:
    """A 200 sent with ``transfer-encoding: chunked`` (no length), in *chunk_size* pieces."""

    body: bytes
    chunk_size: int = 1024

    def serve(self, exchange: Exchange) -> None:
        headers = {"content-type": "application/json", "transfer-encoding": "chunked"}
        if not exchange.send(exchange.head(200, headers)):
            return
        for start in range(0, len(self.body), self.chunk_size):
            piece = self.body[start : start + self.chunk_size]
            if not exchange.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n"):
                return
        exchange.send(b"0\r\n\r\n")


@dataclass(frozen=True)
class Refused:
    """Not served here: the route's base URL is a port where connecting is refused."""

    def serve(self, exchange: Exchange) -> None:
        raise AssertionError("a refused connection never reaches the fault server")


@dataclass(frozen=True)
class NeverAccepted:
    """Not served here: the route's base URL is a listener that never completes a handshake."""

    def serve(self, exchange: Exchange) -> None:
        raise AssertionError("an unaccepted connection never reaches the fault server")


class FaultServer:
    """Serve faults on a free loopback port from daemon threads."""

    def __init__(self, *, host: str = LOOPBACK) -> None:
        self.host = host
        self.port = 0
        self.url = ""
        self.stopping = threading.Event()
        self._faults: dict[str, Fault] = {}
        self._received: list[Received] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._threads: list[threading.Thread] = []
        self._conns: set[socket.socket] = set()

    def start(self) -> FaultServer:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind((self.host, 0))
        listener.listen(64)
        listener.settimeout(0.1)
        self._listener = listener
        self.port = listener.getsockname()[1]
        self.url = f"http://{self.host}:{self.port}"
        self._spawn(self._accept_loop, "fault-server-accept")
        return self

    def route(self, name: str, fault: Fault) -> str:
        """Serve *fault* under ``/<name>/``; returns the URL of that route's OpenAPI document."""
        with self._lock:
            if name in self._faults:
                raise ValueError(f"route {name!r} is served already")
            self._faults[name] = fault
        return f"{self.url}/{name}/openapi.json"

    def received(self, name: str) -> list[Received]:
        """The API requests (not the document) that reached route *name*."""
        prefix = f"/{name}/"
        with self._lock:
            api = [r for r in self._received if r.path.startswith(prefix)]
        return [r for r in api if not r.path.endswith("/openapi.json")]

    def received_at(self, path: str) -> list[Received]:
        """Every request for exactly *path*, whichever host name it was sent to."""
        with self._lock:
            return [r for r in self._received if r.path == path]

    def stop(self) -> None:
        self.stopping.set()
        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.close()
        with self._lock:
            conns = list(self._conns)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        for thread in self._threads:
            thread.join(5)
        alive = [t.name for t in self._threads if t.is_alive()]
        if alive:
            raise RuntimeError(f"fault server threads did not stop: {alive}")

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving ---------------------------------------------------------------------
    def _spawn(self, target: Callable[..., None], name: str, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
        thread.start()

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while not self.stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            with self._lock:
                self._conns.add(conn)
            self._spawn(self._handle, f"fault-server-{self.port}-conn", conn)

    def _handle(self, conn: socket.socket) -> None:
        try:
            request = _read_head(conn)
            if request is None:
                return
            with self._lock:
                self._received.append(request)
            self._answer(Exchange(conn, self), request)
        finally:
            with self._lock:
                self._conns.discard(conn)
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    def _answer(self, exchange: Exchange, request: Received) -> None:
        parts = request.path.split("/")
        name = parts[1] if len(parts) > 2 else ""
        with self._lock:
            fault = self._faults.get(name)
        if fault is None:
            Status(404).serve(exchange)
        elif request.path == f"/{name}/openapi.json":
            body = json.dumps(openapi_document(f"/{name}")).encode()
            Reply(200, {"content-type": "application/json"}, body).serve(exchange)
        else:
            fault.serve(exchange)


def _read_head(conn: socket.socket) -> Received | None:
    conn.settimeout(5.0)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(4096)
            if not chunk:
                return None
            data += chunk
    except OSError:
        return None
    finally:
        conn.settimeout(None)
    lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    method, target, _ = [*lines[0].split(" ", 2), "", ""][:3]
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Received(method, target.split("?", 1)[0], target, headers)


class FullBacklogPort:
    """A loopback listener that never accepts, with its accept queue filled.

    Linux drops a SYN while the listener's accept queue is full, so a client's connect
    neither succeeds nor is refused: it times out. The queue is filled by connecting until a
    connection does not complete within *probe_seconds*; ``full`` says whether that happened
    (if not, a connect timeout cannot be produced this way here).
    """

    def __init__(self, *, probe_seconds: float = 0.2, max_fillers: int = 64) -> None:
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind((LOOPBACK, 0))
        self._listener.listen(0)
        self.port: int = self._listener.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}"
        self._fillers: list[socket.socket] = []
        self.full = False
        for _ in range(max_fillers):
            filler = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            filler.setblocking(False)
            filler.connect_ex((LOOPBACK, self.port))
            self._fillers.append(filler)
            _, writable, _ = select.select([], [filler], [], probe_seconds)
            if not writable:
                self.full = True
                break

    def close(self) -> None:
        for sock in [*self._fillers, self._listener]:
            with contextlib.suppress(OSError):
                sock.close()

    def __enter__(self) -> FullBacklogPort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
