"""The emmet-api MP server (``mp_server.py``) as a subprocess on a free loopback port.

::

    with MPServer() as server:      # 20-120 s: emmet-api imports and builds 36 resources
        server.url                  # http://127.0.0.1:PORT
        server.startup_seconds

The subprocess runs in the MP server's own venv (:func:`environment.mp_python`); readiness
is ``GET /heartbeat`` answering 200.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

import httpx

from cookbook.services.materials_project.environment import mp_python
from cookbook.services.uvicorn_thread import LOOPBACK, free_port

SCRIPT = Path(__file__).resolve().parent / "mp_server.py"


BIND_ATTEMPTS = 3
"""Starts tried when the picked port was taken while the server was being built."""


class MPServer:
    """The real MP API server, started once and stopped at the end."""

    def __init__(self, *, startup_timeout: float = 600.0, python: Path | None = None) -> None:
        self.startup_timeout = startup_timeout
        self.python = python
        self.port = 0
        self.url = ""
        self.startup_seconds: float | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._log_path = Path(tempfile.mkstemp(prefix="mp-server-", suffix=".log")[1])

    def output(self) -> str:
        """What the server printed so far (its build summary, errors)."""
        try:
            return self._log_path.read_text(errors="replace")
        except OSError:
            return ""

    def start(self) -> MPServer:
        """Start the server on a free port; the port is picked before the app is built (about
        20 s), so when another server took it meanwhile, start again on another one."""
        for attempt in range(BIND_ATTEMPTS):
            try:
                return self._start()
            except RuntimeError as exc:
                if "address already in use" not in str(exc) or attempt == BIND_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _start(self) -> MPServer:
        python = self.python or mp_python()
        self.port = free_port()
        self.url = f"http://{LOOPBACK}:{self.port}"
        started = time.monotonic()
        self._log = open(self._log_path, "wb")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("PYTHONPATH", None)  # the server never sees our package
        self._proc = subprocess.Popen(
            [str(python), "-s", str(SCRIPT), "--host", LOOPBACK, "--port", str(self.port)],
            cwd=tempfile.gettempdir(),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self._wait(started)
        self.startup_seconds = time.monotonic() - started
        return self

    def _wait(self, started: float) -> None:
        assert self._proc is not None
        with httpx.Client(timeout=5.0) as client:
            while True:
                code = self._proc.poll()
                if code is not None:
                    output = self.output()
                    self.stop()
                    raise RuntimeError(f"the MP API server exited with code {code} while starting:\n{output}")
                try:
                    if client.get(f"{self.url}/heartbeat").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() - started > self.startup_timeout:
                    output = self.output()
                    self.stop()
                    raise TimeoutError(
                        f"the MP API server did not answer /heartbeat within {self.startup_timeout:.0f}s:\n"
                        f"{output}"
                    )
                time.sleep(0.25)

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> MPServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._log_path.unlink(missing_ok=True)
