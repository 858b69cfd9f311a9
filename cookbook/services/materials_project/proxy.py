"""A loopback TCP proxy that can fail on demand: ``pass``, ``503``, ``hang`` or ``refuse``.

::

    proxy = FaultProxy("127.0.0.1", upstream_port).start()
    proxy.url                 # http://127.0.0.1:PORT, the address clients are given
    proxy.set_mode("hang")    # accept, read, never answer
    proxy.set_mode("refuse")  # stop listening: connecting is refused (the port is kept)
    proxy.set_mode("503")     # answer 503 Service Unavailable with a JSON body
    proxy.set_mode("pass")    # forward bytes to the upstream server again
    proxy.stop()

A mode applies to connections accepted after the change; changing it closes every open
connection (kept-alive and hanging ones alike), so a client never keeps using a connection
from the previous mode. It runs on daemon threads and serves any event loop in the process.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
from collections import Counter
from typing import Literal

Mode = Literal["pass", "503", "hang", "refuse"]
MODES: tuple[Mode, ...] = ("pass", "503", "hang", "refuse")

UNAVAILABLE_BODY = json.dumps({"detail": "Service Unavailable"}).encode()


class FaultProxy:
    """Forward a loopback port to *upstream*, or fail in the current :data:`Mode`.

    ``connections`` counts accepted connections by the mode they met (``refuse`` counts
    nothing: nothing is accepted).
    """

    def __init__(self, upstream_host: str, upstream_port: int, *, host: str = "127.0.0.1") -> None:
        self.upstream = (upstream_host, upstream_port)
        self.host = host
        self.port = 0
        self.mode: Mode = "pass"
        self.connections: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> FaultProxy:
        self._listen()
        self._thread = threading.Thread(target=self._accept_loop, name="fault-proxy", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        with self._lock:
            self._close_listener()
            self._close_open()
        if self._thread is not None:
            self._thread.join(5)

    def set_mode(self, mode: Mode) -> None:
        """Switch to *mode*; open connections are closed, ``refuse`` closes the listener too."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; one of {MODES}")
        with self._lock:
            self.mode = mode
            self._close_open()
            if mode == "refuse":
                self._close_listener()
        if mode != "refuse" and self._listener is None:
            self._listen()

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- internals ---------------------------------------------------------------------

    def _listen(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))  # port 0 the first time, the same port later
        listener.listen(64)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener

    def _close_listener(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()

    def _close_open(self) -> None:
        for conn in list(self._open):
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()
        self._open.clear()

    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            listener = self._listener
            if listener is None:
                self._stopping.wait(0.05)
                continue
            try:
                readable, _, _ = select.select([listener], [], [], 0.1)
                if not readable:
                    continue
                conn, _ = listener.accept()
            except (OSError, ValueError):  # closed by set_mode("refuse") or stop()
                continue
            with self._lock:
                mode = self.mode
                self._open.add(conn)
                self.connections[mode] += 1
            threading.Thread(target=self._serve, args=(conn, mode), daemon=True).start()

    def _serve(self, conn: socket.socket, mode: Mode) -> None:
        try:
            if mode == "pass":
                self._pipe(conn)
            elif mode == "503":
                _read_head(conn)
                head = (
                    "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                    f"content-length: {len(UNAVAILABLE_BODY)}\r\nconnection: close\r\n\r\n"
                )
                conn.sendall(head.encode("latin-1") + UNAVAILABLE_BODY)
            else:  # hang (or refuse, met by a connection accepted just before the switch)
                while not self._stopping.is_set() and conn.recv(65536):
                    pass
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(conn)
            conn.close()

    def _pipe(self, conn: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.upstream, timeout=5)
        except OSError:
            return
        with self._lock:
            self._open.add(upstream)
        try:
            ends = {conn: upstream, upstream: conn}
            while not self._stopping.is_set():
                readable, _, _ = select.select(list(ends), [], [], 0.5)
                for end in readable:
                    data = end.recv(65536)
                    if not data:
                        return
                    ends[end].sendall(data)
        finally:
            with self._lock:
                self._open.discard(upstream)
            upstream.close()


def _read_head(conn: socket.socket) -> bytes:
    """Read until the end of the request head (or 64 KiB, or the client closing)."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return data
