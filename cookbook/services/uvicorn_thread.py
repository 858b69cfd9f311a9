"""Run an ASGI app with uvicorn on a background thread bound to a free loopback port.

The socket is bound (to port 0) before uvicorn starts, so there is no race for the port and
``.url`` is known as soon as :meth:`UvicornThread.start` returns.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago (bind to port 0 and close)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


def refused_url() -> str:
    """Return ``http://127.0.0.1:<port>`` where nothing listens (connecting is refused).

    The port was free when chosen; for a guarantee that nobody grabs it meanwhile use
    :class:`RefusedPort`, which keeps the port bound without listening.
    """
    return f"http://{LOOPBACK}:{free_port()}"


class RefusedPort:
    """Hold a loopback port bound but not listening: every connection to it is refused.

    Holding the bound socket reserves the port, so no other server can start on it while
    the object is open.  Use as a context manager or call :meth:`close`.
    """

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind((LOOPBACK, 0))
        self.port: int = self._sock.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}"

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> RefusedPort:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class UvicornThread:
    """Serve ``app`` with uvicorn on a daemon thread.

    >>> server = UvicornThread(app).start()
    >>> server.url            # 'http://127.0.0.1:54321'
    >>> server.stop()

    ``on_stop`` callbacks run before the server is asked to exit (e.g. to release requests
    that are deliberately hanging).  ``stop()`` waits for the thread to end; after
    ``graceful_timeout`` seconds uvicorn cancels requests that are still running.
    """

    def __init__(
        self,
        app: Any,
        *,
        host: str = LOOPBACK,
        port: int = 0,
        graceful_timeout: int = 1,
        log_level: str = "warning",
        startup_timeout: float = 10.0,
    ) -> None:
        self.app = app
        self.host = host
        self._requested_port = port
        self._startup_timeout = startup_timeout
        self._config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level=log_level,
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=graceful_timeout,
            timeout_keep_alive=2,
        )
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self._on_stop: list[Callable[[], None]] = []
        self.port: int = 0
        self.url: str = ""

    def on_stop(self, callback: Callable[[], None]) -> None:
        self._on_stop.append(callback)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> UvicornThread:
        if self.running:
            return self
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self._requested_port or self.port))
        sock.set_inheritable(True)
        self._sock = sock
        self.port = sock.getsockname()[1]
        self.url = f"http://{self.host}:{self.port}"
        server = uvicorn.Server(self._config)
        self._server = server
        thread = threading.Thread(
            target=server.run,
            kwargs={"sockets": [sock]},
            name=f"uvicorn-{self.port}",
            daemon=True,
        )
        self._thread = thread
        thread.start()
        deadline = time.monotonic() + self._startup_timeout
        while not server.started:
            if not thread.is_alive():
                self._close_socket()
                raise RuntimeError(f"uvicorn thread for {self.url} died during start-up")
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"uvicorn did not start on {self.url} in time")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        for callback in self._on_stop:
            with contextlib.suppress(Exception):
                callback()
        server, thread = self._server, self._thread
        if server is not None:
            server.should_exit = True
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive() and server is not None:
                server.force_exit = True
                thread.join(timeout)
            if thread.is_alive():
                raise RuntimeError(f"uvicorn thread for {self.url} did not stop")
        self._close_socket()
        self._server = None
        self._thread = None

    def _close_socket(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None

    def __enter__(self) -> UvicornThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def serve(app: Any, **kwargs: Any) -> Iterator[UvicornThread]:
    """Context manager: ``with serve(app) as server: httpx.get(server.url)``."""
    server = UvicornThread(app, **kwargs).start()
    try:
        yield server
    finally:
        server.stop()
