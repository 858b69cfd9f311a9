"""One builder at a time for the caches the tests share (``.cache/`` at the repository root).

The suite runs in several pytest-xdist workers, and two of them may want the same download at
once on a fresh clone; :func:`building` lets the first build it while the others wait, then
find it built. Locks live in ``.cache/locks/`` (gitignored with the rest of ``.cache``).
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock

__all__ = ["building"]

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / ".cache" / "locks"


def building(name: str, *, timeout_seconds: float = 900.0) -> FileLock:
    """The lock of the cache *name* (a context manager; waits up to *timeout_seconds*)."""
    LOCKS.mkdir(parents=True, exist_ok=True)
    return FileLock(LOCKS / f"{name}.lock", timeout=timeout_seconds)
