"""The tool registry: contracts, invoker bindings and the field index over them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Set
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from .._callables import call_problem
from .._contracts import ToolSpec
from ..errors import RegistrationError
from .fieldwords import FieldWordIndex
from .lexicon import LexicalIndex
from .ordered import OrderedRoutes
from .routes import LABEL_WORDS, Route, RouteRef, is_unspaced, surface_key
from .words import CONTRACT_MIN_LETTERS, singular_forms

Invoker = Callable[[Any], Awaitable[Any]]
BindingState = Literal["ready", "unbound", "stale", "orphaned"]
D = TypeVar("D")


@dataclass(frozen=True, slots=True)
class Binding:
    """A trusted local invoker bound to the tool fingerprint current at bind time."""

    invoker: Invoker
    fingerprint: str


class SurfaceIndex:
    """Normalised field surfaces (semantic ids, names, aliases) -> semantic ids.

    ``spaced`` and ``unspaced`` hold the exact surfaces; ``inflected`` holds each spaced surface
    under the singular candidates of its last word (``lattice vectors`` under ``lattice vector``,
    see :mod:`.words`), for queries that name it in the singular. The registry keeps it
    current route by route (:meth:`add`, :meth:`remove`), so no change rebuilds it whole.
    """

    def __init__(self, routes: Iterable[Route] = ()) -> None:
        self.spaced: dict[str, set[str]] = {}
        self.unspaced: dict[str, set[str]] = {}
        self.inflected: dict[str, set[str]] = {}
        self.routes_by_key: dict[str, set[str]] = {}
        """Match key (a normalised surface) -> paths of the routes whose fields it names."""
        self.field_words = FieldWordIndex()
        """The words of every field's name and description (see :mod:`.fieldwords`)."""
        self._counts: Counter[tuple[int, str, str]] = Counter()  # (table, key, sid) -> routes
        self._words: Counter[int] = Counter()  # words in a key -> keys
        for route in routes:
            self.add(route)

    @property
    def max_words(self) -> int:
        """The most words any surface has (the longest phrase need extraction tries)."""
        return max(self._words, default=1)

    def add(self, route: Route) -> None:
        for key, sid in self._entries(route):
            self._change(key, sid, +1)
            self.routes_by_key.setdefault(key, set()).add(route.path)
        self.field_words.add(route.endpoint.fields)

    def remove(self, route: Route) -> None:
        for key, sid in self._entries(route):
            self._change(key, sid, -1)
            paths = self.routes_by_key.get(key)
            if paths is not None:
                paths.discard(route.path)
                if not paths:
                    del self.routes_by_key[key]
        self.field_words.remove(route.endpoint.fields)

    @staticmethod
    def _entries(route: Route) -> Iterator[tuple[str, str]]:
        for key, match in route.matches.items():
            # a label's word is one semantic id, whichever label field serves it on a route
            label = match.kind == "alias" and match.field.label and key in LABEL_WORDS
            yield key, key if label else match.field.sid

    def _change(self, key: str, sid: str, delta: int) -> None:
        spaced = not is_unspaced(key)
        tables = [(0, key)] if spaced else [(1, key)]
        if spaced:
            head, _, last = key.rpartition(" ")
            tables.extend(
                (2, f"{head} {form}" if head else form) for form in singular_forms(last, CONTRACT_MIN_LETTERS)
            )
        for table, entry in tables:
            counted = (table, entry, sid)
            self._counts[counted] += delta
            target = (self.spaced, self.unspaced, self.inflected)[table]
            if self._counts[counted] > 0:
                target.setdefault(entry, set()).add(sid)
                continue
            del self._counts[counted]
            sids = target.get(entry)
            if sids is not None:
                sids.discard(sid)
                if not sids:
                    del target[entry]
        words = key.count(" ") + 1
        self._words[words] += delta
        if self._words[words] <= 0:
            del self._words[words]

    def semantic_ids(self, text: str) -> set[str]:
        key = surface_key(text)
        return self.spaced.get(key) or self.unspaced.get(key) or set()


class Registry:
    """Holds tool contracts and bindings; rebuilds its indexes only when they change."""

    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec] = {}
        self._bindings: dict[str, Binding] = {}
        self._routes: dict[str, Route] = {}
        self._ordered = OrderedRoutes()
        self._index = SurfaceIndex()
        self.lexicon = LexicalIndex()
        """BM25 postings of every route's own texts, kept current route by route."""
        self.version = 0
        self._derived: dict[Callable[[], object], object] = {}
        self._path_origins: dict[str, str] = {}
        self._origin_paths: dict[str, set[str]] = {}
        self._pending: set[str] = set()
        self._by_argument: dict[str, set[str]] = {}
        self._showing: dict[str, set[str]] = {}  # parameter name -> paths where it shows its kind

    # -- contracts -------------------------------------------------------------------
    def register(self, spec: ToolSpec, invoker: Invoker | None = None) -> None:
        """Register (or replace) *spec*, and bind *invoker* to it when given.

        Both are checked first: when either is refused, nothing changes.
        """
        if not isinstance(spec, ToolSpec):
            raise RegistrationError(f"register() takes a ToolSpec, got {type(spec).__name__}")
        if invoker is not None:
            _check_invoker(spec.name, invoker)
        self.remove_routes(spec.name)
        self._pending.discard(spec.name)
        self._tools[spec.name] = spec
        for endpoint in spec.endpoints:
            route = Route.build(spec, endpoint)
            self._routes[route.path] = route
            self._ordered.add(route)
            self.lexicon.add(route.path, route.lexical, route.glosses)
            self._index.add(route)
            for table, names in ((self._by_argument, route.argument_names), (self._showing, route.shown)):
                for name in names:
                    table.setdefault(name, set()).add(route.path)
            if spec.origin is not None:
                self._path_origins[route.path] = spec.origin
                self._origin_paths.setdefault(spec.origin, set()).add(route.path)
        self._changed()
        if invoker is not None:  # checked above
            self._bind(spec, invoker)

    def mark_pending(self, name: str) -> None:
        """Note that tool *name* is declared but not registered yet (its source could not be
        read; it is retried): planning names it as pending. Registering it clears the mark."""
        self._pending.add(name)
        self._changed()

    def is_pending(self, name: str) -> bool:
        return name in self._pending

    def remove_tool(self, name: str) -> ToolSpec:
        if name not in self._tools:
            raise RegistrationError(f"no tool named {name!r} is registered")
        self.remove_routes(name)
        spec = self._tools.pop(name)
        self._changed()
        return spec

    def remove_routes(self, tool: str) -> None:
        """Drop the routes of *tool* (its current contract's endpoints: no scan of the registry)."""
        spec = self._tools.get(tool)
        for endpoint in spec.endpoints if spec is not None else ():
            route = self._routes.pop(f"{tool}.{endpoint.name}", None)
            if route is not None:
                self._ordered.remove(route)
                self.lexicon.remove(route.path, route.lexical, route.glosses)
                self._index.remove(route)
                for table, names in ((self._by_argument, route.argument_names), (self._showing, route.shown)):
                    for name in names:
                        paths = table.get(name)
                        if paths is not None:
                            paths.discard(route.path)
                            if not paths:
                                del table[name]
            origin = self._path_origins.pop(f"{tool}.{endpoint.name}", None)
            if origin is not None:
                paths = self._origin_paths[origin]
                paths.discard(f"{tool}.{endpoint.name}")
                if not paths:
                    del self._origin_paths[origin]

    def tool(self, name: str) -> ToolSpec | None:
        return self._tools.get(name)

    @property
    def tools(self) -> dict[str, ToolSpec]:
        return dict(self._tools)

    def identity(self, tool: str, endpoint: str) -> RouteRef:
        """Tool, endpoint, provider and access mode of a path, as route events name it."""
        spec = self._tools.get(tool)
        return RouteRef(tool, endpoint, spec.provider if spec else None, spec.access_mode if spec else None)

    def origin_of(self, path: str) -> str | None:
        """The origin of the tool that *path* belongs to (None: it declared none)."""
        return self._path_origins.get(path)

    def paths_on(self, origin: str) -> list[str]:
        """The registered access paths on *origin*, sorted."""
        return sorted(self._origin_paths.get(origin, ()))

    def route(self, path: str) -> Route | None:
        return self._routes.get(path)

    def routes_at(self, paths: Set[str]) -> list[Route]:
        """The registered routes at *paths*, sorted by path."""
        return self._ordered.at(paths, self._routes)

    def routes(self) -> Iterator[Route]:
        return iter(self._routes.values())

    def paths_taking(self, arguments: Iterable[str]) -> set[str]:
        """The paths of the routes that take every one of *arguments* (none given: none)."""
        found: set[str] | None = None
        for argument in arguments:
            paths = self._by_argument.get(argument, set())
            found = set(paths) if found is None else found & paths
            if not found:
                return set()
        return found or set()

    def paths_showing(self, shown: Iterable[str], taking: Iterable[str]) -> set[str]:
        """The paths of the routes with a parameter named in *shown* that shows the kind of
        value it takes (``Route.shown``), or that take an argument named in *taking*."""
        found: set[str] = set()
        for table, names in ((self._showing, shown), (self._by_argument, taking)):
            for name in names:
                found.update(table.get(name, ()))
        return found

    def route_count(self) -> int:
        """How many access paths are registered."""
        return len(self._routes)

    @property
    def index(self) -> SurfaceIndex:
        """The field surfaces of every route, kept current route by route."""
        return self._index

    def derived(self, kind: Callable[[], D]) -> D:
        """The registry's instance of *kind*: state derived from the contracts (the planning
        cache), created on first use and dropped on every contract change."""
        state = self._derived.get(kind)
        if state is None:
            state = self._derived[kind] = kind()
        return state  # type: ignore[return-value]  # keyed by its own kind

    def drop_derived(self) -> None:
        """Forget every derived state (the contracts changed, or a benchmark wants a cold plan)."""
        self._derived.clear()

    def _changed(self) -> None:
        self.drop_derived()
        self.version += 1

    # -- bindings --------------------------------------------------------------------
    def bind(self, name: str, invoker: Invoker) -> None:
        spec = self._tools.get(name)
        if spec is None:
            raise RegistrationError(f"cannot bind {name!r}: no such tool is registered")
        _check_invoker(name, invoker)
        self._bind(spec, invoker)

    def _bind(self, spec: ToolSpec, invoker: Invoker) -> None:
        self._bindings[spec.name] = Binding(invoker, spec.fingerprint)
        self.version += 1

    def unbind(self, name: str) -> None:
        if self._bindings.pop(name, None) is None:
            raise RegistrationError(f"{name!r} has no bound invoker")
        self.version += 1

    def binding(self, name: str) -> Binding | None:
        return self._bindings.get(name)

    def binding_state(self, name: str) -> BindingState:
        spec = self._tools.get(name)
        binding = self._bindings.get(name)
        if spec is None:
            return "orphaned" if binding is not None else "unbound"
        if binding is None:
            return "unbound"
        return "ready" if binding.fingerprint == spec.fingerprint else "stale"

    def binding_states(self) -> dict[str, BindingState]:
        names = sorted(set(self._tools) | set(self._bindings))
        return {name: self.binding_state(name) for name in names}


def _check_invoker(name: str, invoker: object) -> None:
    problem = call_problem(invoker, 1)
    if problem is not None:
        raise RegistrationError(f"cannot bind {name!r}: an invoker takes one ToolCall, but {problem}")
