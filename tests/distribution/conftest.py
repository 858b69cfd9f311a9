"""The built distributions and one fresh virtual environment per extra, made with uv from the
wheel (the core alone, each extra alone, and ``[all]``), shared by the distribution tests.

The environments are made side by side; uv's cache makes a warm run take seconds per
environment. Nothing here imports the package from the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = Path(__file__).resolve().parent / "scripts"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS = sorted(PYPROJECT["project"]["optional-dependencies"])
ENVIRONMENTS = ["core", *EXTRAS]
HEAVY = {"all", "llamaindex", "langchain", "langgraph", "mcp"}


@dataclass(frozen=True)
class Distributions:
    sdist: Path
    wheel: Path


QUESTION = ["What is the band gap of Si?", "--arg", "formula=Si", "--config", "landscape.toml"]
RUNS: dict[str, dict[str, list[str]]] = {
    "core": {
        "missing extras": ["missing_extras.py"],
        "console script": ["schemarouter-integrations", "--version"],
        "python -m": ["-m", "schemarouter_integrations", "--version"],
        "version": [
            "-c",
            "import importlib.metadata as m, schemarouter_integrations as s;"
            " print(s.__version__, m.version('schemarouter-integrations'))",
        ],
    },
    "all": {"demo": ["schemarouter-integrations", "demo"]},
    "cli": {
        "demo": ["schemarouter-integrations", "demo"],
        "version": ["schemarouter-integrations", "--version"],
        "validate": ["schemarouter-integrations", "validate", "--config", "landscape.toml"],
        "query": ["schemarouter-integrations", "query", *QUESTION, "--json"],
    },
}
"""Besides ``promises.py <name>`` (the quick start, then the extra's promise): what else runs
in an environment, by name."""


@dataclass(frozen=True)
class Environment:
    """A virtual environment outside the repository with the wheel (and one extra) installed,
    and what its checks printed (they run as soon as it is made, side by side with the others)."""

    name: str
    root: Path
    work: Path
    """A folder outside the repository holding copies of the check scripts: the working directory."""
    results: dict[str, subprocess.CompletedProcess[str]]

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run ``args`` (a script of ``scripts/`` or a program of the environment) in :attr:`work`."""
        program = self.root / "bin" / args[0]
        command = [str(program), *args[1:]] if program.exists() else [str(self.python), *args]
        return subprocess.run(
            command, cwd=self.work, env=clean_environment(), capture_output=True, text=True, timeout=timeout
        )


def clean_environment() -> dict[str, str]:
    """The test process's environment without what would lead Python back to the repository."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"}
    return {key: value for key, value in os.environ.items() if key not in drop} | {"NO_COLOR": "1"}


def uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    if found is None:
        pytest.fail("the distribution tests need uv (make setup installs it into .venv)")
    return found


def checked(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, **options)  # type: ignore[call-overload]
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def scratch() -> Iterator[Path]:
    """A folder of our own outside the repository (not pytest's numbered temporary folders,
    which other pytest processes of the same user may prune while the matrix is made)."""
    folder = Path(tempfile.mkdtemp(prefix="schemarouter-wheel-matrix-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def distributions(scratch: Path) -> Distributions:
    """``uv build``: the sdist, then the wheel built from that sdist (so the sdist is complete)."""
    out = scratch / "dist"
    checked([uv(), "build", "--quiet", "--out-dir", str(out), str(ROOT)], timeout=300)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Distributions(sdist=sdist, wheel=wheel)


def _make(name: str, wheel: Path, base: Path) -> Environment:
    root, work = base / name / "venv", base / name / "work"
    work.mkdir(parents=True)
    for script in SCRIPTS.iterdir():
        if script.is_file():
            shutil.copy(script, work / script.name)
    environment = clean_environment()
    checked([uv(), "venv", "--quiet", "--python", sys.executable, str(root)], env=environment, timeout=120)
    requirement = f"schemarouter-integrations @ {wheel.as_uri()}"
    if name != "core":
        requirement = f"schemarouter-integrations[{name}] @ {wheel.as_uri()}"
    checked(
        [uv(), "pip", "install", "--quiet", "--python", str(root / "bin" / "python"), requirement],
        env=environment,
        timeout=600,
    )
    made = Environment(name=name, root=root, work=work, results={})
    for check, args in {"promises": ["promises.py", name], **RUNS.get(name, {})}.items():
        made.results[check] = made.run(*args)
    return made


@pytest.fixture(scope="session")
def environments(distributions: Distributions, scratch: Path) -> Iterator[dict[str, Environment]]:
    """Every environment of the matrix, made in parallel (installs wait on I/O, not the CPU)."""
    base = scratch / "environments"
    with ThreadPoolExecutor(max_workers=4) as pool:
        heaviest_first = sorted(ENVIRONMENTS, key=lambda name: name not in HEAVY)
        futures = {name: pool.submit(_make, name, distributions.wheel, base) for name in heaviest_first}
        made = {name: future.result() for name, future in futures.items()}
    yield made
    shutil.rmtree(base, ignore_errors=True)
