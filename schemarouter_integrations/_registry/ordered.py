"""The registered routes kept sorted by path, so planning reads many of them in order unsorted."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Set
from operator import attrgetter

from .routes import Route

_PATH = attrgetter("path")
_FEW = 8
"""Paths asked for that are fewer than one in this many routes are sorted, not filtered."""


class OrderedRoutes:
    """Every route, by path; kept current route by route (:meth:`add`, :meth:`remove`)."""

    def __init__(self) -> None:
        self._routes: list[Route] = []

    def add(self, route: Route) -> None:
        """Add *route*, in place of the one with its path if there is one (as the registry's dict)."""
        at = bisect_left(self._routes, route.path, key=_PATH)
        if at < len(self._routes) and self._routes[at].path == route.path:
            self._routes[at] = route
        else:
            self._routes.insert(at, route)

    def remove(self, route: Route) -> None:
        at = bisect_left(self._routes, route.path, key=_PATH)
        if at < len(self._routes) and self._routes[at].path == route.path:
            del self._routes[at]

    def at(self, paths: Set[str], routes: dict[str, Route]) -> list[Route]:
        """The routes of *routes* (path -> route, the registry's) at *paths*, by path: a few
        paths are sorted, many are picked from the sorted routes (the same list, no sort)."""
        if len(paths) * _FEW < len(self._routes):
            return [route for path in sorted(paths) if (route := routes.get(path)) is not None]
        return [route for route in self._routes if route.path in paths]
