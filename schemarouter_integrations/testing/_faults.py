"""In-process routes with scripted faults: wrap a healthy function, register the wrapper.

``faulty(fn, fault)`` returns an async function with *fn*'s name, signature, type hints and
docstring, so ``router.add_callable(faulty(fn, Down()), name=...)`` registers the same contract
as ``fn`` would. Each call first asks the fault what to do: raise
:class:`~schemarouter_integrations.InvocationUnavailableError` (the way an HTTP route reports a
refused connection, a 503 or a 429), wait, or answer through *fn*.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

import anyio
import anyio.to_thread

from ..errors import InvocationUnavailableError

__all__ = ["Down", "FailTimes", "Fault", "FaultyFunction", "Hang", "RetryAfter", "Slow", "faulty"]


class Fault:
    """What a scripted route does before (or instead of) answering; see the subclasses."""

    async def before(self, call_number: int) -> None:
        """Run before the healthy function for call *call_number* (1-based); raise to fail it."""


def _check_seconds(what: str, seconds: float) -> None:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds < math.inf:
        raise ValueError(f"{what}: seconds must be a finite number >= 0, got {seconds!r}")


@dataclass(frozen=True)
class Down(Fault):
    """Always unavailable: every call fails as a refused connection would (the origin cools)."""

    reason: str = "connection refused"

    async def before(self, call_number: int) -> None:
        raise InvocationUnavailableError(self.reason, transport=True)


@dataclass(frozen=True)
class FailTimes(Fault):
    """The first ``times`` calls fail as unavailable (a 503), the later ones answer."""

    times: int
    reason: str = "503 Service Unavailable"

    def __post_init__(self) -> None:
        if isinstance(self.times, bool) or not isinstance(self.times, int) or self.times < 0:
            raise ValueError(f"FailTimes: times must be an int >= 0, got {self.times!r}")

    async def before(self, call_number: int) -> None:
        if call_number <= self.times:
            raise InvocationUnavailableError(self.reason, status_code=503)


@dataclass(frozen=True)
class RetryAfter(Fault):
    """Answers 503 with ``Retry-After: seconds``; only the first ``times`` calls when given.

    The router waits ``seconds`` before a retry within its backoff cap, and cools the route
    down for at least that long.
    """

    seconds: float
    times: int | None = None
    status_code: int = 503

    def __post_init__(self) -> None:
        _check_seconds("RetryAfter", self.seconds)

    async def before(self, call_number: int) -> None:
        if self.times is None or call_number <= self.times:
            raise InvocationUnavailableError(
                f"{self.status_code} with Retry-After: {self.seconds:g}",
                retry_after=float(self.seconds),
                status_code=self.status_code,
            )


@dataclass(frozen=True)
class Hang(Fault):
    """Accepts the call and never answers (for ``seconds``, default an hour).

    Give the route a ``timeout_seconds=`` when registering it: the router then reports the
    call as unavailable when the timeout passes, as it does for an HTTP read timeout.
    """

    seconds: float = 3600.0

    def __post_init__(self) -> None:
        _check_seconds("Hang", self.seconds)

    async def before(self, call_number: int) -> None:
        await anyio.sleep(self.seconds)


@dataclass(frozen=True)
class Slow(Fault):
    """Answers, but only after ``seconds`` (a slow upstream; pair it with ``HedgePolicy``)."""

    seconds: float

    def __post_init__(self) -> None:
        _check_seconds("Slow", self.seconds)

    async def before(self, call_number: int) -> None:
        await anyio.sleep(self.seconds)


class FaultyFunction(Protocol):
    """The async function :func:`faulty` returns: *fn* with a fault in front of it."""

    __name__: str
    fault: Fault
    calls: int
    """How many times the route was called (failed calls included)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Awaitable[Any]: ...


def faulty(fn: Callable[..., Any], fault: Fault) -> FaultyFunction:
    """*fn* (sync or async) behind *fault*, as an async function to give ``router.add_callable``.

    The result keeps *fn*'s signature and type hints (so the input schema and the fields are
    the same as *fn*'s) and counts its calls in ``.calls``.
    """
    if not callable(fn):
        raise TypeError(f"faulty() needs a callable, got {type(fn).__name__}")
    if not isinstance(fault, Fault):
        raise TypeError(f"faulty() needs a Fault (Down(), FailTimes(2), ...), got {fault!r}")
    is_async = inspect.iscoroutinefunction(fn)

    @functools.wraps(fn)
    async def route(*args: Any, **kwargs: Any) -> Any:
        state.calls += 1
        await fault.before(state.calls)
        if is_async:
            return await fn(*args, **kwargs)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))

    state = cast(FaultyFunction, route)
    state.fault = fault
    state.calls = 0
    return state
