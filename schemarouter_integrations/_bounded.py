"""A small bounded mapping that forgets its oldest entries first."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(dict[K, V]):
    """A dict of at most *size* entries: :meth:`put` evicts the oldest entry when full, so the
    cache is never emptied all at once. Reads are plain (C-speed) dict reads."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def put(self, key: K, value: V) -> V:
        """Store *value* under *key*, evicting the oldest entry when full; returns *value*."""
        if key not in self and len(self) >= self.size:
            del self[next(iter(self))]
        self[key] = value
        return value
