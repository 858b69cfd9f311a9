"""Heavy test environments that live outside the project's venv, built once into ``.cache/``.

* :func:`venv_python` - a virtual environment with pinned packages (Arize Phoenix,
  ``langchain-mcp-adapters`` with ``mcp`` 1.x, the ``mcp`` 1.x line, the LangChain bridges of
  smolagents, google-adk and crewai, each beside the package's own requirements), created with
  uv when missing; an environment
  variable may name an interpreter that already has them.
* :func:`node_modules` - npm packages (the TypeScript MCP SDK, the MCP Inspector) installed
  with ``npm ci`` from the lock file kept in ``tests/hosts/node/``, into ``.cache/node-hosts``;
  node itself must be on the PATH (``make test`` installs it with apt when missing).
* :func:`third_party_mcp_servers` and :func:`mcp_time_python` - MCP servers nobody on this
  project wrote, used as routes: npm ``@modelcontextprotocol/server-everything`` and
  ``server-memory`` (lock in ``tests/servers/third_party_mcp/``, into ``.cache/mcp-servers``)
  and PyPI ``mcp-server-time`` (a venv of its own, ``.cache/mcp-time-venv``).
* :func:`conformance_suite` - the MCP conformance suite (npm, lock in ``tests/conformance/``,
  into ``.cache/mcp-conformance``) with node 22 from the npm registry when the machine's is older.

Each is rebuilt only when its pinned requirements change (a stamp file keeps them). When one
cannot be built the caller skips with the reason, except under ``CI=true``, where it fails
(:func:`environment_or_skip`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache"
NODE_SOURCE = ROOT / "tests" / "hosts" / "node"
THIRD_PARTY_MCP_SOURCE = ROOT / "tests" / "servers" / "third_party_mcp"
CONFORMANCE_SOURCE = ROOT / "tests" / "conformance"
T = TypeVar("T")

PHOENIX = ("arize-phoenix==20.26.1",)
"""Arize Phoenix, the version the Phoenix test was written against."""
LANGCHAIN_MCP = ("langchain-mcp-adapters==0.3.2", "mcp>=1.24,<2")
"""``langchain-mcp-adapters`` needs mcp 1.x (it imports ``mcp.shared.context.RequestContext``,
gone in mcp 2; 0.3.2 declares ``mcp>=1.24,<2``, 0.3.1 only ``mcp>=1.24`` and so installs beside
mcp 2 and fails on import), while the project's venv has mcp 2: it lives in a venv of its own and
talks to the router's server (under mcp 2) over streamable HTTP."""
MCP_TIME = ("mcp-server-time==2026.10.19",)
"""The MCP project's reference time server, with the ``mcp`` and ``tzdata`` it pins itself."""

SMOLAGENTS = (
    "smolagents==1.26.0",
    "langchain-core>=0.3",
    "pydantic>=2.7,<3",
    "idna>=3",
    "httpx>=0.27",
    "anyio>=4.3",
    "sniffio>=1.3",
    "jsonschema>=4.21",
    "referencing>=0.35",
    "pyyaml>=6",
)
"""smolagents (its ``Tool.from_langchain`` bridge) beside the package's own requirements; the
package itself is taken from the checkout (``PYTHONPATH``). Its own venv: the project's does
not need smolagents' dependencies (huggingface-hub, pillow, ...)."""

_PACKAGE_REQUIREMENTS = (
    "pydantic>=2.7,<3",
    "idna>=3",
    "httpx>=0.27",
    "anyio>=4.3",
    "sniffio>=1.3",
    "jsonschema>=4.21",
    "referencing>=0.35",
    "pyyaml>=6",
)
GOOGLE_ADK = ("google-adk==2.13.0", "langchain-core>=0.3", *_PACKAGE_REQUIREMENTS)
"""google-adk (its ``LangchainTool`` bridge; it does not require langchain-core itself) beside the
package's own requirements, the package taken from the checkout. Its own venv: the project's
does not need ADK's dependencies (google-genai, opentelemetry, sqlalchemy, ...); about 110 MB."""
CREWAI = ("crewai==1.15.30", "langchain-core>=0.3", *_PACKAGE_REQUIREMENTS)
"""crewai (its ``Tool.from_langchain`` bridge) beside the package's own requirements, the package
taken from the checkout. Its own venv: crewai pulls in about 150 packages (lancedb, pyarrow,
onnxruntime, chromadb's bindings, litellm's peers, ...), about 870 MB."""

MCP1 = (
    "mcp==1.30.0",
    "mcp-types>=2",  # the [mcp] extra's own requirements beside mcp 1.x: the route adapter reads
    "httpx2>=2.10",  # results as mcp_types models
    "pydantic>=2.7,<3",
    "pydantic-core>=2",
    "idna>=3",
    "httpx>=0.27",
    "httpcore>=1.0",
    "anyio>=4.3",
    "sniffio>=1.3",
    "jsonschema>=4.21",
    "referencing>=0.35",
    "pyyaml>=6",
)
"""The mcp 1.x line beside the package's own requirements: the router's MCP server and an mcp
1.x client run there (the package itself is taken from the checkout, ``PYTHONPATH``)."""


class EnvironmentUnavailable(Exception):
    """A test environment could not be made ready (the reason is the message)."""


def environment_or_skip(make: Callable[[], T], what: str) -> T:
    """``make()``, or skip the test with the reason (fail under ``CI=true``)."""
    try:
        return make()
    except EnvironmentUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {what} is unavailable: {exc}", pytrace=False)
        pytest.skip(f"{what} is unavailable (offline?): {exc}")


def venv_python(name: str, requirements: Sequence[str], modules: Sequence[str], override: str) -> Path:
    """The interpreter of ``.cache/<name>`` with *requirements* installed (built when missing).

    *override* names an environment variable that may point at an interpreter that can
    import *modules* already; it is used instead.
    """
    given = os.environ.get(override)
    if given:
        python = Path(given)
        if not _imports(python, modules):
            raise EnvironmentUnavailable(f"{override}={given} cannot import {', '.join(modules)}")
        return python
    venv = CACHE / name
    python = venv / "bin" / "python"
    stamp = venv / ".requirements"
    wanted = "\n".join(requirements)
    if python.exists() and stamp.exists() and stamp.read_text() == wanted and _imports(python, modules):
        return python
    uv = Path(sys.executable).with_name("uv")
    if not uv.exists():
        raise EnvironmentUnavailable(f"uv is not installed beside {sys.executable} (run `make setup`)")
    if not python.exists():
        _run([str(uv), "venv", "-q", "--python", sys.executable, str(venv)], f"creating {venv}", ROOT)
    _run(
        [str(uv), "pip", "install", "-q", "--python", str(python), *requirements], f"installing {name}", ROOT
    )
    if not _imports(python, modules):
        raise EnvironmentUnavailable(f"{', '.join(modules)} not importable in {venv} after installing them")
    stamp.write_text(wanted)
    return python


def node_modules() -> Path:
    """``.cache/node-hosts`` with the npm packages of ``tests/hosts/node/package-lock.json``."""
    return _npm_installed(NODE_SOURCE, CACHE / "node-hosts", "the node hosts")


def third_party_mcp_servers() -> Path:
    """``.cache/mcp-servers`` with the npm MCP servers of ``tests/servers/third_party_mcp/``
    (their commands in ``node_modules/.bin``)."""
    return _npm_installed(THIRD_PARTY_MCP_SOURCE, CACHE / "mcp-servers", "the third-party MCP servers")


def _npm_installed(source: Path, target: Path, what: str) -> Path:
    """*target* with the npm packages of *source*'s lock file (``npm ci`` when it changed)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise EnvironmentUnavailable("node and npm are not on the PATH (`make test` installs them with apt)")
    lock = (source / "package-lock.json").read_bytes()
    digest = hashlib.sha256((source / "package.json").read_bytes() + lock).hexdigest()
    stamp = target / ".installed"
    if stamp.exists() and stamp.read_text() == digest and (target / "node_modules").is_dir():
        return target
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(source / name, target / name)
    _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], f"npm ci of {what}", target)
    stamp.write_text(digest)
    return target


def conformance_suite() -> tuple[Path, Path]:
    """The MCP conformance suite (npm ``@modelcontextprotocol/conformance``, lock in
    ``tests/conformance/``, into ``.cache/mcp-conformance``): its script and the node 22+ that
    runs it (the machine's when it is 22 or newer, else the npm ``node`` package's)."""
    target = _npm_installed(CONFORMANCE_SOURCE, CACHE / "mcp-conformance", "the MCP conformance suite")
    script = target / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
    node = shutil.which("node")
    if node is None or _node_major(node) < 22:
        node = str(target / "node_modules" / ".bin" / "node")
        if _node_major(node) < 22:
            raise EnvironmentUnavailable(f"{node} is not node 22 or newer")
    return script, Path(node)


def _node_major(node: str) -> int:
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return 0
    version = done.stdout.strip().lstrip("v").split(".")[0]
    return int(version) if version.isdigit() else 0


def node_script(name: str) -> Path:
    """*name* of ``tests/hosts/node/`` beside the installed packages (ESM resolves from there)."""
    target = node_modules() / name
    shutil.copyfile(NODE_SOURCE / name, target)
    return target


def phoenix_python() -> Path:
    """The interpreter of the Arize Phoenix environment (``SCHEMAROUTER_PHOENIX_PYTHON`` overrides)."""
    return venv_python("phoenix-venv", PHOENIX, ["phoenix"], "SCHEMAROUTER_PHOENIX_PYTHON")


def langchain_mcp_python() -> Path:
    """The interpreter of the ``langchain-mcp-adapters`` + mcp 1.x environment
    (``SCHEMAROUTER_LANGCHAIN_MCP_PYTHON`` overrides)."""
    modules = ["langchain_mcp_adapters", "mcp"]
    return venv_python("langchain-mcp-venv", LANGCHAIN_MCP, modules, "SCHEMAROUTER_LANGCHAIN_MCP_PYTHON")


def mcp_time_python() -> Path:
    """The interpreter of the ``mcp-server-time`` environment (``SCHEMAROUTER_MCP_TIME_PYTHON``
    overrides); the server runs as ``python -m mcp_server_time``."""
    return venv_python("mcp-time-venv", MCP_TIME, ["mcp_server_time"], "SCHEMAROUTER_MCP_TIME_PYTHON")


def smolagents_python() -> Path:
    """The interpreter of the smolagents environment (``SCHEMAROUTER_SMOLAGENTS_PYTHON`` overrides)."""
    return venv_python(
        "smolagents-venv", SMOLAGENTS, ["smolagents", "langchain_core"], "SCHEMAROUTER_SMOLAGENTS_PYTHON"
    )


def google_adk_python() -> Path:
    """The interpreter of the google-adk environment (``SCHEMAROUTER_GOOGLE_ADK_PYTHON`` overrides)."""
    return venv_python(
        "google-adk-venv", GOOGLE_ADK, ["google.adk", "langchain_core"], "SCHEMAROUTER_GOOGLE_ADK_PYTHON"
    )


def crewai_python() -> Path:
    """The interpreter of the crewai environment (``SCHEMAROUTER_CREWAI_PYTHON`` overrides)."""
    return venv_python("crewai-venv", CREWAI, ["crewai", "langchain_core"], "SCHEMAROUTER_CREWAI_PYTHON")


def mcp1_python() -> Path:
    """The interpreter of the mcp 1.x environment (``SCHEMAROUTER_MCP1_PYTHON`` overrides)."""
    return venv_python("mcp1-venv", MCP1, ["mcp.server.fastmcp", "yaml"], "SCHEMAROUTER_MCP1_PYTHON")


def main() -> None:
    """Build every environment that is missing (``make host-envs``) and say how long each took."""
    failed = False
    for what, make in (
        ("Arize Phoenix", phoenix_python),
        ("langchain-mcp-adapters with mcp 1.x", langchain_mcp_python),
        ("smolagents", smolagents_python),
        ("google-adk", google_adk_python),
        ("crewai", crewai_python),
        ("mcp 1.x", mcp1_python),
        ("node MCP hosts", node_modules),
        ("third-party MCP servers (npm)", third_party_mcp_servers),
        ("the MCP conformance suite (npm, node 22)", conformance_suite),
        ("mcp-server-time", mcp_time_python),
    ):
        started = time.monotonic()
        try:
            where = make()
        except EnvironmentUnavailable as exc:
            failed = True
            print(f"{what}: not available: {exc}")
            continue
        print(f"{what}: ready in {time.monotonic() - started:.1f} s ({where})")
    if failed and os.environ.get("CI") == "true":
        raise SystemExit(1)


def _imports(python: Path, modules: Sequence[str]) -> bool:
    if not python.exists():
        return False
    probe = f"import importlib.util as u, sys; sys.exit(not all(u.find_spec(m) for m in {list(modules)!r}))"
    done = subprocess.run(
        [str(python), "-E", "-s", "-c", probe], capture_output=True, text=True, timeout=300, check=False
    )
    return done.returncode == 0


def _run(command: list[str], what: str, cwd: Path) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False, cwd=cwd)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise EnvironmentUnavailable(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise EnvironmentUnavailable(f"{what} failed (exit {done.returncode}): {' / '.join(tail)}")


if __name__ == "__main__":
    main()
