"""A small bounded mapping that forgets its least recently used entries first."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")


class LruCache(Generic[K, V]):
    """At most *size* entries; reading or writing an entry makes it the most recent."""

    __slots__ = ("_entries", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...
    def get(self, key: K, default: object = None) -> object:
        entries = self._entries
        if key not in entries:
            return default
        entries.move_to_end(key)
        return entries[key]

    def get_or_put(self, key: K, make: Callable[[], V]) -> V:
        """The entry of *key*, made by *make* and stored when there is none."""
        entries = self._entries
        if key in entries:
            entries.move_to_end(key)
            return entries[key]
        return self.put(key, make())

    def put(self, key: K, value: V) -> V:
        """Store *value* under *key* (evicting the oldest entry when full); returns *value*."""
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        if len(entries) > self.size:
            entries.popitem(last=False)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
