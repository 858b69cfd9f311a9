"""Trusted health probes: what a registered probe is and how one run is judged."""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

import anyio
import anyio.to_thread

from .._callables import is_async_callable

Probe = Callable[[], Awaitable[bool]] | Callable[[], bool]
"""A trusted health check: async (preferred) or sync (run in a worker thread)."""
ProbeVerdict = Literal["ok", "failed", "timeout", "error"]

_MAX_ERROR_CHARS = 300


@dataclass(slots=True)
class ProbeEntry:
    """A registered probe, tied to the tool contract (fingerprint) it was registered against."""

    tool: str
    endpoint: str
    probe: Probe
    tool_fingerprint: str
    last_run: float | None = None
    last_outcome: ProbeVerdict | None = None
    last_error: str | None = None
    last_duration_ms: float | None = None
    consecutive_failures: int = 0
    runs: int = 0
    stale_logged: bool = False

    @property
    def access_path(self) -> str:
        return f"{self.tool}.{self.endpoint}"


@dataclass(frozen=True, slots=True)
class ProbeOutcome:
    """One probe run: ``ok`` only when the probe returned exactly ``True`` in time."""

    verdict: ProbeVerdict
    error: str | None
    duration_ms: float

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


async def run_probe(probe: Probe, timeout_seconds: float) -> ProbeOutcome:
    """Run *probe* once under *timeout_seconds*; never raises (except cancellation).

    A sync probe runs in a worker thread so it cannot block the event loop; when it overruns
    the timeout it is abandoned (its thread finishes in the background) and counts as
    ``"timeout"``.

    ``True`` is a success; ``False`` or any non-bool result is ``"failed"``; running out of
    time is ``"timeout"``; an exception is ``"error"`` with its type and message.
    """
    started = time.perf_counter()

    def done(verdict: ProbeVerdict, error: str | None) -> ProbeOutcome:
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        return ProbeOutcome(verdict, error[:_MAX_ERROR_CHARS] if error else None, elapsed)

    try:
        with anyio.fail_after(timeout_seconds):
            if is_async_callable(probe):
                result: object = probe()
            else:  # a sync probe must not block the loop, and is abandoned when it overruns
                result = await anyio.to_thread.run_sync(probe, abandon_on_cancel=True)
            if inspect.isawaitable(result):
                result = await result
    except TimeoutError:
        return done("timeout", f"no answer within {timeout_seconds:g}s")
    except Exception as exc:
        return done("error", f"{type(exc).__name__}: {exc}")
    if result is True:
        return done("ok", None)
    if result is False:
        return done("failed", "probe returned False")
    return done("failed", f"probe returned {type(result).__name__}, not bool")
