"""A measuring worker in its own interpreter, spoken to in JSON lines (see protocol.py)."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


class WorkerError(RuntimeError):
    """The worker answered with an error, died, or did not answer in time."""


class Worker:
    """``<python> -E -s benchmarks/anchor/<side>_side.py``; ``-E`` keeps PYTHONPATH out."""

    def __init__(self, name: str, python: Path, script: str) -> None:
        self.name = name
        self._process = subprocess.Popen(
            [str(python), "-E", "-s", str(HERE / script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=HERE,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put("")

    def ask(self, op: str, timeout: float = 300.0, **arguments: Any) -> Any:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps({"op": op, **arguments}) + "\n")
        self._process.stdin.flush()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.close()
            raise WorkerError(f"{self.name}: no answer to {op} within {timeout:.0f} s") from None
        if not line:
            raise WorkerError(f"{self.name} exited (code {self._process.wait()}) during {op}")
        reply = json.loads(line)
        if "error" in reply:
            raise WorkerError(f"{self.name}: {reply['error']}")
        return reply["ok"]

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.write('{"op": "quit"}\n')
                self._process.stdin.close()
                self._process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
