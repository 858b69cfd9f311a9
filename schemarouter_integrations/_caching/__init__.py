"""The answer cache's own parts, apart from the execution chain that calls them.

* :mod:`.keys`: what decides an answer (access path, endpoint fingerprint, canonical
  arguments, selected fields), hashed to one key.
* :mod:`.hints`: :class:`CacheHints`, the wrapper an invoker may return, and the reading of
  HTTP caching headers (``Cache-Control: max-age / no-store / no-cache``, ``Expires``).
* :mod:`.flights`: concurrent identical calls in one process share one upstream call.
* :mod:`.policies`: which :class:`CachePolicy` applies to a call.
* :mod:`.stats`: hit, miss, stale and coalescing counters for ``inspect()``.

The glue that runs them inside a run is ``_execution/answers.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .flights import Flight as Flight
    from .flights import Flights as Flights
    from .hints import CacheHints as CacheHints
    from .hints import http_cache_hints as http_cache_hints
    from .keys import answer_key as answer_key
    from .policies import PolicyBook as PolicyBook
    from .stats import CacheStats as CacheStats


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".flights": ("Flight", "Flights"),
        ".hints": ("CacheHints", "http_cache_hints"),
        ".keys": ("answer_key",),
        ".policies": ("PolicyBook",),
        ".stats": ("CacheStats",),
    },
)
