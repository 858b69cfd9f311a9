"""The MP API server's own virtual environment, ``cookbook/services/materials_project/.mp-venv``.

The Materials Project API server (PyPI ``emmet-api``) is never a dependency of our package
and never imported into our process: it runs in this gitignored venv, created with
``python -m venv`` and ``pip install emmet-api mongomock uvicorn`` only when missing.
``python -m cookbook.services.materials_project.environment`` (``make mp-venv``) makes it
ready or prints why it cannot. ``SCHEMAROUTER_MP_PYTHON`` names another interpreter that
already has those packages (a development copy), used instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

VENV = Path(__file__).resolve().parent / ".mp-venv"
PACKAGES = ("emmet-api", "mongomock", "uvicorn")
OVERRIDE = "SCHEMAROUTER_MP_PYTHON"
_MODULES = ("emmet.api", "emmet.core", "mongomock", "uvicorn", "pymatgen.core")
_PROBE = f"import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in {_MODULES!r}))"


class MPEnvironmentUnavailable(Exception):
    """The MP server's environment could not be made ready (the reason is the message)."""


def mp_python(*, create: bool = True) -> Path:
    """The interpreter that runs the MP API server, installing its venv first when missing."""
    override = os.environ.get(OVERRIDE)
    if override:
        python = Path(override)
        if not _installed(python):
            raise MPEnvironmentUnavailable(f"{OVERRIDE}={override} cannot import {', '.join(PACKAGES)}")
        return python
    python = VENV / "bin" / "python"
    if _installed(python):
        return python
    if not create:
        raise MPEnvironmentUnavailable(f"no MP API server environment at {VENV} (run `make mp-venv`)")
    if not python.exists():
        _run([sys.executable, "-m", "venv", str(VENV)], "creating the virtual environment")
    uv = Path(sys.executable).with_name("uv")  # the project's venv has uv: much faster than pip
    if uv.exists():
        install = [str(uv), "pip", "install", "-q", "--compile-bytecode", "--python", str(python)]
    else:
        install = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        install += ["--timeout", "60", "--retries", "2"]
    _run([*install, *PACKAGES], f"installing {' '.join(PACKAGES)}")
    if not _installed(python):
        raise MPEnvironmentUnavailable(
            f"{', '.join(PACKAGES)} not importable in {VENV} after installing them"
        )
    return python


def _installed(python: Path) -> bool:
    if not python.exists():
        return False
    done = subprocess.run(
        [str(python), "-E", "-s", "-c", _PROBE], capture_output=True, text=True, timeout=300, check=False
    )
    return done.returncode == 0


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise MPEnvironmentUnavailable(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise MPEnvironmentUnavailable(f"{what} failed (exit {done.returncode}): {' / '.join(tail)}")


def main() -> None:
    try:
        print(f"MP API server environment ready: {mp_python()}")
    except MPEnvironmentUnavailable as exc:
        print(f"MP API server environment not available, the real-MP tests cannot run: {exc}")


if __name__ == "__main__":
    main()
