"""The ```python blocks of Markdown files, and the one way every block is run.

A block runs as a standalone script with the venv's python, from a fresh temporary directory
outside the repository and without the repository on ``PYTHONPATH``, so it can import only
the installed package (never ``cookbook`` or ``tests``). A block preceded by the line
``<!-- not run: <reason>; run by tests/<path>::<test name> -->`` is not run here; the named
test must exist (and run the same code). A fenced block of any language preceded by the line
``<!-- file: NAME -->`` is written as ``NAME`` into the working directory of every block of
its page, as a reader would save it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)\n```", re.DOTALL)
FILE = re.compile(r"<!-- file: (?P<name>[\w.-]+) -->\n```[\w-]*\n(?P<content>.*?)\n```", re.DOTALL)
NOT_RUN = re.compile(
    r"^<!-- not run: (?P<reason>.+?); run by (?P<path>tests/[\w/.-]+\.py)::(?P<test>\w+) -->$"
)


@dataclass(frozen=True)
class Block:
    where: str
    """``path:line`` of the block's first line of code."""
    code: str
    marker: str | None
    """The ``<!-- not run: ... -->`` line before the block, when there is one."""


def blocks_of(path: Path) -> list[Block]:
    text = path.read_text()
    found = []
    for match in BLOCK.finditer("\n" + text):
        line = ("\n" + text)[: match.start("code")].count("\n")
        before = match.group("before").strip()
        marker = before if before.startswith("<!-- not run") else None
        found.append(Block(f"{path.relative_to(ROOT)}:{line}", match.group("code"), marker))
    return found


def files_of(path: Path) -> dict[str, str]:
    """The blocks of *path* marked ``<!-- file: NAME -->``: name -> content."""
    return {m.group("name"): m.group("content") + "\n" for m in FILE.finditer(path.read_text())}


def named_test_exists(marker: str) -> bool:
    """True when *marker* is well formed and its test function exists in its file."""
    found = NOT_RUN.match(marker)
    if found is None:
        return False
    test_file = ROOT / found.group("path")
    if not test_file.is_file():
        return False
    return (
        re.search(rf"^(async )?def {found.group('test')}\(", test_file.read_text(), re.MULTILINE) is not None
    )


def clean_environment() -> dict[str, str]:
    """The environment without any path into the repository."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME"}}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


BOOTSTRAP = """
import os, runpy, sys
root, package_dir, script = sys.argv[1:4]
# An editable install puts the repository root on sys.path, which would make cookbook and tests
# importable; put a folder holding only the package in its place.
sys.path[:] = [package_dir if os.path.realpath(p or ".") == root else p for p in sys.path]
sys.argv = [script]
runpy.run_path(script, run_name="__main__")
"""


def run_block(
    code: str, *, files: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="docs-block-") as folder:
        for name, content in (files or {}).items():
            (Path(folder) / name).write_text(content)
        script = Path(folder) / "block.py"
        script.write_text(code)
        package_dir = Path(folder) / ".installed"
        package_dir.mkdir()
        (package_dir / "schemarouter_integrations").symlink_to(ROOT / "schemarouter_integrations")
        return subprocess.run(
            # -P: neither the working directory nor the script's folder is put on sys.path
            [sys.executable, "-P", "-c", BOOTSTRAP, os.path.realpath(ROOT), str(package_dir), str(script)],
            capture_output=True,
            text=True,
            cwd=folder,
            env=clean_environment(),
            timeout=timeout,
        )
