"""A real Arize Phoenix server on loopback, in its own virtual environment.

Phoenix (PyPI ``arize-phoenix``) is heavy and never a dependency of the project: it lives in
the gitignored ``.cache/phoenix-venv`` (built with uv when missing, :mod:`tests.support.environments`);
``SCHEMAROUTER_PHOENIX_PYTHON`` may name an interpreter that has it already. ``phoenix serve``
runs with ``PHOENIX_HOST=127.0.0.1``, free ports (``PHOENIX_PORT``, ``PHOENIX_GRPC_PORT``), a
temporary ``PHOENIX_WORKING_DIR`` (its SQLite database) and telemetry off. Spans go to it over
OTLP/HTTP (``/v1/traces``) and come back through its REST API
(``GET /v1/projects/<project>/spans``), read with urllib so that an httpx instrumentation under
test never traces the reading.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from tests.support.environments import EnvironmentUnavailable

START_SECONDS = 300.0
"""Phoenix starts in 30-70 s here (migrations, the UI bundle); generous for a loaded machine."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PhoenixServer:
    """``phoenix serve`` as a subprocess; :meth:`spans` reads a project's spans back."""

    def __init__(self, python: Path) -> None:
        self.python = python
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._workdir = tempfile.TemporaryDirectory(prefix="phoenix-")
        self._log = Path(self._workdir.name) / "server.log"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def traces_endpoint(self) -> str:
        return f"{self.url}/v1/traces"

    def start(self) -> PhoenixServer:
        env = {
            **os.environ,
            "PHOENIX_HOST": "127.0.0.1",
            "PHOENIX_PORT": str(self.port),
            "PHOENIX_GRPC_PORT": str(free_port()),
            "PHOENIX_WORKING_DIR": self._workdir.name,
            "PHOENIX_TELEMETRY_ENABLED": "false",
        }
        env.pop("PHOENIX_SQL_DATABASE_URL", None)
        command = [str(self.python), "-m", "phoenix.server.main", "serve"]
        with self._log.open("wb") as log:
            self._process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise EnvironmentUnavailable(
                    f"phoenix serve exited {self._process.returncode}: {self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:  # refused while starting (URLError is an OSError)
                pass
            time.sleep(0.5)
        self.stop()
        raise EnvironmentUnavailable(
            f"phoenix serve did not answer in {START_SECONDS:.0f} s: {self.log_tail()}"
        )

    def log_tail(self, lines: int = 5) -> str:
        text = self._log.read_text(errors="replace") if self._log.exists() else ""
        return " / ".join(text.strip().splitlines()[-lines:])

    def spans(self, project: str) -> list[dict[str, Any]]:
        """Every span Phoenix holds for *project* (REST, paginated)."""
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"limit": 1000}
            if cursor:
                params["cursor"] = cursor
            query = urllib.parse.urlencode(params)
            try:
                with urllib.request.urlopen(
                    f"{self.url}/v1/projects/{project}/spans?{query}", timeout=10
                ) as answer:
                    body = json.load(answer)
            except urllib.error.HTTPError as exc:
                if exc.code == 404:  # the project appears with its first span
                    return out
                raise
            out.extend(body["data"])
            cursor = body.get("next_cursor")
            if not cursor:
                return out

    def wait_for_spans(self, project: str, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        """The project's spans once at least *count* arrived (Phoenix inserts them in batches)."""
        deadline = time.monotonic() + timeout
        while True:
            spans = self.spans(project)
            if len(spans) >= count or time.monotonic() > deadline:
                return spans
            time.sleep(0.25)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        self._process = None
        self._workdir.cleanup()
