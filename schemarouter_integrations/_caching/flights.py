"""Single flight: concurrent identical calls in one process make one upstream call.

The first call of a key leads; calls of the same key that start before it ends follow and
receive its outcome (an answer, an unavailability or an error) instead of calling. Flights
are kept per thread, since a thread runs one event loop at a time and an event belongs to
the loop it was made in.
"""

from __future__ import annotations

import threading
from typing import Any

import anyio


class Flight:
    """One call in progress; ``outcome`` (or ``error``) is set before ``done`` fires."""

    __slots__ = ("done", "error", "followers", "outcome")

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.outcome: Any = None
        self.error: BaseException | None = None
        self.followers = 0

    async def wait(self) -> Any:
        """The leader's outcome; raises its error."""
        self.followers += 1
        await self.done.wait()
        if self.error is not None:
            raise self.error
        return self.outcome


class Flights:
    """The flights in progress, by thread and key."""

    def __init__(self) -> None:
        self._flights: dict[tuple[int, str], Flight] = {}

    def join(self, key: str) -> Flight | None:
        return self._flights.get((threading.get_ident(), key))

    def lead(self, key: str) -> Flight:
        flight = self._flights[(threading.get_ident(), key)] = Flight()
        return flight

    def land(self, key: str, flight: Flight, outcome: Any = None, error: BaseException | None = None) -> None:
        """End *flight* with its *outcome* or *error* and wake its followers."""
        flight.outcome, flight.error = outcome, error
        if self._flights.get((threading.get_ident(), key)) is flight:
            del self._flights[(threading.get_ident(), key)]
        flight.done.set()

    def __len__(self) -> int:
        return len(self._flights)
