"""The peers' own virtual environment, ``benchmarks/.peers-venv`` (gitignored).

``fastmcp`` 4.2.3 (``FastMCP.from_openapi``) and LangChain's OpenAPI tools
(``langchain-community`` with ``langchain-classic``), installed with ``python -m venv`` and pip
only when missing; never dependencies of the package, never imported into its process.
``python -m benchmarks.peers.environment`` (the ``make peers-venv`` recipe, part of ``make
bench``) makes it ready or prints why it cannot, in which case the peer rows are skipped.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

VENV = Path(__file__).resolve().parents[1] / ".peers-venv"
PINS = {"fastmcp": "4.2.3", "langchain-community": "0.4.2", "langchain-classic": None}
"""Package -> version installed (None: the one the others resolve to)."""
_PROBE = (
    "import fastmcp, langchain_community, langchain_classic.chains.openai_functions.openapi; "
    "print(fastmcp.__version__, langchain_community.__version__)"
)


class PeersUnavailable(Exception):
    """The peers' environment could not be made ready (the reason is the message)."""


def peers_python(*, create: bool = True) -> Path:
    """The peers environment's interpreter, installing it first when missing."""
    python = VENV / "bin" / "python"
    if _installed(python):
        return python
    if not create:
        raise PeersUnavailable(f"no peers environment at {VENV}")
    if not python.exists():
        _run([sys.executable, "-m", "venv", str(VENV)], "creating the virtual environment")
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", "--timeout", "30"]
    wanted = [name if version is None else f"{name}=={version}" for name, version in PINS.items()]
    _run([*pip, *wanted], f"installing {' '.join(wanted)}")
    if not _installed(python):
        raise PeersUnavailable(f"the peers are not importable in {VENV} after installing them")
    return python


def _installed(python: Path) -> bool:
    if not python.exists():
        return False
    probe = [str(python), "-E", "-s", "-c", _PROBE]
    done = subprocess.run(probe, capture_output=True, text=True, check=False)
    expected = f"{PINS['fastmcp']} {PINS['langchain-community']}"
    return done.returncode == 0 and done.stdout.strip().endswith(expected)


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PeersUnavailable(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise PeersUnavailable(f"{what} failed (exit {done.returncode}): {' / '.join(tail)}")


def main() -> None:
    try:
        print(f"peers environment ready: {peers_python()}")
    except PeersUnavailable as exc:
        print(f"peers environment not available, the peer rows will be skipped: {exc}")


if __name__ == "__main__":
    main()
