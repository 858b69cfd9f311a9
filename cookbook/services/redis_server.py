"""A throw-away ``redis-server`` on a free loopback port, with stop/restart on the same port.

No persistence (``--save "" --appendonly no``), working directory in a temp folder.  When the
binary is missing, :func:`require_redis_server` skips the test locally and fails it in CI
(``CI=true``): Redis tests must never be skipped silently in CI.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from cookbook.services.uvicorn_thread import LOOPBACK, free_port

SKIP_HINT = (
    "redis-server is not installed; run `make test` as root (it apt-get installs it) or "
    "`sudo apt-get install redis-server` to enable the Redis tests"
)


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


def require_redis_server() -> str:
    """Path of ``redis-server``; otherwise ``pytest.fail`` in CI, ``pytest.skip`` elsewhere."""
    binary = redis_server_binary()
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {SKIP_HINT}", pytrace=False)
        pytest.skip(SKIP_HINT)
    return binary


def ping(host: str, port: int, timeout: float = 0.5) -> bool:
    """True when a Redis server answers ``PING`` with ``+PONG`` (raw RESP, no client library)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """A ``redis-server`` subprocess.

    Attributes: ``host`` (127.0.0.1), ``port`` (fixed for the object's life, so ``restart()``
    comes back on the same port), ``url`` (``redis://127.0.0.1:PORT/0``), ``running``,
    ``startup_seconds``.  Methods: ``start()``, ``stop()``, ``kill()`` (SIGKILL), ``restart()``,
    ``client(**kw)`` (a ``redis.Redis`` that the server object closes on ``stop()``), ``output()``,
    ``pause()``/``resume()`` (SIGSTOP/SIGCONT: a hung server).
    """

    def __init__(self, binary: str | None = None, *, port: int | None = None) -> None:
        self.binary = binary or require_redis_server()
        self.host = LOOPBACK
        self.port = port or free_port()
        self.url = f"redis://{self.host}:{self.port}/0"
        self._tmp = Path(tempfile.mkdtemp(prefix="redis-test-"))
        self._proc: subprocess.Popen[bytes] | None = None
        self._clients: list[Any] = []
        self.startup_seconds: float | None = None
        self.paused = False

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def log_path(self) -> Path:
        return self._tmp / "redis.log"

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def start(self, timeout: float = 10.0) -> RedisServer:
        if self.running:
            return self
        self._tmp.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        self._proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                self.host,
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self._tmp),
                "--logfile",
                str(self.log_path),
                "--daemonize",
                "no",
                "--databases",
                "16",
            ],
            cwd=self._tmp,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = started + timeout
        while not ping(self.host, self.port):
            if self._proc.poll() is not None:
                code = self._proc.returncode
                self._proc = None
                raise RuntimeError(
                    f"redis-server exited with code {code} on port {self.port}:\n{self.output()}"
                )
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"redis-server did not answer PING on port {self.port}")
            time.sleep(0.02)
        self.startup_seconds = time.monotonic() - started
        return self

    def pause(self) -> None:
        """Make the server hang (SIGSTOP): it keeps its port and its connections, and the
        kernel still accepts new ones, but nothing is answered until :meth:`resume`."""
        if self.running and not self.paused:
            assert self._proc is not None
            os.kill(self._proc.pid, signal.SIGSTOP)
            self.paused = True

    def resume(self) -> None:
        """Let a paused server run again (SIGCONT); it answers what waited meanwhile."""
        if self.paused and self._proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._proc.pid, signal.SIGCONT)
        self.paused = False

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL).  Clients stay usable: they reconnect after
        :meth:`start`/:meth:`restart` (commands in between raise ``redis.ConnectionError``)."""
        self.resume()  # a stopped process does not act on SIGTERM
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout)
        # the port must really be free before a restart reuses it
        deadline = time.monotonic() + timeout
        while ping(self.host, self.port, timeout=0.1) and time.monotonic() < deadline:
            time.sleep(0.02)

    def kill(self, timeout: float = 10.0) -> None:
        """Kill the server with SIGKILL, as a crash or the OOM killer would (no shutdown, no
        goodbye to clients); returns once the port answers no more. :meth:`start` brings it
        back on the same port, empty."""
        proc, self._proc = self._proc, None
        self.paused = False  # SIGKILL ends a stopped process too
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout)
        deadline = time.monotonic() + timeout
        while ping(self.host, self.port, timeout=0.1) and time.monotonic() < deadline:
            time.sleep(0.02)

    def restart(self, timeout: float = 10.0) -> RedisServer:
        """Stop (if running) and start again on the same port, with an empty dataset."""
        self.stop(timeout)
        return self.start(timeout)

    def client(self, **kwargs: Any) -> Any:
        """A ``redis.Redis`` for this server (``decode_responses`` etc. via kwargs); closed by
        :meth:`close`."""
        import redis

        client = redis.Redis(host=self.host, port=self.port, **kwargs)
        self._clients.append(client)
        return client

    def close(self) -> None:
        """Stop the server, close clients made by :meth:`client`, remove the temp folder."""
        for client in self._clients:
            with contextlib.suppress(Exception):
                client.close()
        self._clients.clear()
        self.stop()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
