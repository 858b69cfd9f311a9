"""Deterministic time for unit tests: a fake monotonic clock and an instant sleep."""

from __future__ import annotations


class FakeClock:
    """A monotonic clock that only moves when told to; ``sleep`` advances it instantly."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
