"""The anchor's own virtual environment, ``benchmarks/.anchor-venv`` (gitignored).

Created with ``python -m venv`` and ``pip install schemarouter==0.17.0`` only when missing;
the anchor is never a dependency of our package and never imported into our process.
``python -m benchmarks.anchor.environment`` (the ``make anchor-venv`` recipe) makes it ready
or prints why it cannot, in which case the anchor rows of ``make bench`` are skipped.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

VENV = Path(__file__).resolve().parents[1] / ".anchor-venv"
NAME, VERSION = "schemarouter", "0.17.0"


class AnchorUnavailable(Exception):
    """The anchor's environment could not be made ready (the reason is the message)."""


def anchor_python(*, create: bool = True) -> Path:
    """The anchor environment's interpreter, installing it first when missing."""
    python = VENV / "bin" / "python"
    if _installed(python):
        return python
    if not create:
        raise AnchorUnavailable(f"no {NAME}=={VERSION} environment at {VENV}")
    if not python.exists():
        _run([sys.executable, "-m", "venv", str(VENV)], "creating the virtual environment")
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    _run([*pip, "--timeout", "30", "--retries", "1", f"{NAME}=={VERSION}"], f"installing {NAME}=={VERSION}")
    if not _installed(python):
        raise AnchorUnavailable(f"{NAME}=={VERSION} is not importable in {VENV} after installing it")
    return python


def _installed(python: Path) -> bool:
    if not python.exists():
        return False
    probe = f"from importlib.metadata import version; import {NAME}; print(version({NAME!r}))"
    done = subprocess.run([str(python), "-E", "-s", "-c", probe], capture_output=True, text=True, check=False)
    return done.returncode == 0 and done.stdout.strip() == VERSION


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AnchorUnavailable(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise AnchorUnavailable(f"{what} failed (exit {done.returncode}): {' / '.join(tail)}")


def main() -> None:
    try:
        print(f"anchor environment ready: {anchor_python()} ({NAME}=={VERSION})")
    except AnchorUnavailable as exc:
        print(f"anchor environment not available, the anchor rows will be skipped: {exc}")


if __name__ == "__main__":
    main()
