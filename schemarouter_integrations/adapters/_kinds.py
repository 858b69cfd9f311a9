"""The table of kinds: every kind of access path ``add_url`` and the landscape file accept.

One :class:`Kind` row per kind names its landscape entry model (``[routes.<name>]`` with
``kind = "<name>"``), its ``add_url`` options (a TypedDict) and builder (reads the source
through :func:`~._documents.load_document`, builds the contract and the invoker), and how
a landscape entry is added to a router. ``add_url``'s accepted kinds, the landscape's
models and their error messages are derived from this table; a new kind is one module
(its entry model, builder and invoker) and one :func:`register_kind` call. The built-in
rows refer to their adapters by module, imported only when a route of that kind is added.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Literal

from .._contracts import ToolSpec
from .._registry import Invoker
from ..errors import RegistrationError
from ._entries import (
    McpRoute,
    OpenApiRoute,
    OptimadeFederationRoute,
    OptimadeRoute,
    PythonRoute,
    RouteEntry,
)
from ._options import OpenApiOptions, OptimadeOptions
from ._requests import EntryContext, UrlRequest
from ._url_entries import add_url_entry

__all__ = ["Kind", "kind_named", "kinds", "register_kind", "unregister_kind", "url_kind", "url_kinds"]

UrlBuilder = Callable[[str, UrlRequest], Awaitable[tuple[ToolSpec, Invoker]]]
"""``build(url, request)``: read the source at *url* and return the contract and its invoker."""
EntryAdder = Callable[[Any, str, Any, EntryContext], Awaitable[None]]
"""``add_entry(router, name, entry, context)``: add one landscape entry (and its probe)."""
ProbeFactory = Callable[[Any, str, Any], Callable[[], Any]]
"""``probe(router, name, entry)``: the health probe of a URL entry whose ``probe`` key is set."""

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of access path: its name, landscape entry model and adapter.

    ``build`` makes it an ``add_url`` kind (``options``, a TypedDict, lists the options it
    takes; ``None`` takes none); the landscape then adds its entries by ``add_url``, passing
    every key the entry sets beyond the common ones as an option, and ``probe`` builds the
    health probe when the entry sets ``probe``. ``add_entry`` adds an entry any other way
    (a function, an MCP server, a federation). ``retried``: a source that cannot be read
    when the landscape is loaded is retried in the background (a function is not).
    """

    name: str
    entry: type[RouteEntry]
    build: UrlBuilder | None = None
    options: type[Mapping[str, Any]] | None = None
    add_entry: EntryAdder | None = field(default=None)
    probe: ProbeFactory | None = None
    retried: bool = True

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"a kind's name is lower-case letters, digits and _, got {self.name!r}")
        tag = self.entry.model_fields.get("kind")
        tags = typing.get_args(tag.annotation) if tag is not None else ()
        if tag is None or typing.get_origin(tag.annotation) is not Literal or self.name not in tags:
            raise ValueError(f"{self.entry.__name__} must declare kind: Literal[{self.name!r}]")
        if self.build is None and self.add_entry is None:
            raise ValueError(f"kind {self.name!r} needs build (an add_url kind) or add_entry")

    async def add(self, router: Any, name: str, entry: Any, context: EntryContext) -> None:
        """Add the landscape *entry* called *name* to *router*."""
        if self.add_entry is not None:
            await self.add_entry(router, name, entry, context)
        else:
            await add_url_entry(router, name, entry, self.probe)


def _deferred(module: str, name: str) -> Any:
    """A function of an adapter module, imported on its first call."""

    async def call(*args: Any, **kwargs: Any) -> Any:
        return await getattr(import_module(module, __package__), name)(*args, **kwargs)

    call.__qualname__ = f"{module.lstrip('.')}.{name}"
    return call


def _probe(module: str, name: str) -> ProbeFactory:
    def make(router: Any, route: str, entry: Any) -> Callable[[], Any]:
        factory: ProbeFactory = getattr(import_module(module, __package__), name)
        return factory(router, route, entry)

    return make


def _url_kind(name: str, entry: type[RouteEntry], options: type[Mapping[str, Any]]) -> Kind:
    """A built-in ``add_url`` kind: its adapter module ``._<name>.kind`` defines
    ``build_route`` and ``entry_probe``."""
    module = f"._{name}.kind"
    return Kind(
        name,
        entry,
        build=_deferred(module, "build_route"),
        options=options,
        probe=_probe(module, "entry_probe"),
    )


_TABLE: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        _url_kind("openapi", OpenApiRoute, OpenApiOptions),
        _url_kind("optimade", OptimadeRoute, OptimadeOptions),
        Kind(
            "optimade_federation",
            OptimadeFederationRoute,
            add_entry=_deferred("._optimade.kind", "add_federation_entry"),
        ),
        Kind("python", PythonRoute, add_entry=_deferred("._python_entry", "add_entry"), retried=False),
        Kind("mcp", McpRoute, add_entry=_deferred("._mcp.kind", "add_entry")),
    )
}
_BUILT_IN = frozenset(_TABLE)
_version = 0


def register_kind(kind: Kind, *, replace: bool = False) -> None:
    """Add *kind* to the table: ``add_url(kind=...)`` and the landscape file accept it from now.

    A name already in the table is refused unless *replace* (a built-in kind never is).
    """
    global _version
    if kind.name in _TABLE and (not replace or kind.name in _BUILT_IN):
        raise ValueError(f"kind {kind.name!r} is already registered")
    _TABLE[kind.name] = kind
    _version += 1


def unregister_kind(name: str) -> None:
    """Remove the kind *name* added by :func:`register_kind` (a built-in kind stays)."""
    global _version
    if name in _BUILT_IN:
        raise ValueError(f"kind {name!r} is built in")
    if _TABLE.pop(name, None) is not None:
        _version += 1


def kinds() -> tuple[Kind, ...]:
    """Every kind, built-in ones first, in the order they were registered."""
    return tuple(_TABLE.values())


def table_version() -> int:
    """A number that changes whenever the table does (for caches derived from it)."""
    return _version


def kind_named(name: str) -> Kind | None:
    """The kind called *name* (None: no such kind)."""
    return _TABLE.get(name)


def url_kinds() -> tuple[str, ...]:
    """The names ``add_url(kind=...)`` accepts."""
    return tuple(name for name, kind in _TABLE.items() if kind.build is not None)


def url_kind(name: str) -> Kind:
    """The ``add_url`` kind called *name*; any other name is a ``RegistrationError``."""
    kind = _TABLE.get(name) if isinstance(name, str) else None
    if kind is None or kind.build is None:
        raise RegistrationError(f"kind must be one of {url_kinds()}, got {name!r}")
    return kind
