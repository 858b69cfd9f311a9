"""The application's settings for a framework tool, and the routes they let the model reach."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias

from .._contracts import CachePolicy, HedgePolicy
from .._execution import RunBudget
from .._planning import PlanRequest
from .._planning.models import FallbackScope
from .._registry import Registry, Route

__all__ = [
    "SETTING_NAMES",
    "HasRegistry",
    "Mode",
    "RegistrySource",
    "ToolOptions",
    "model_routes",
    "registry_of",
]

Mode = Literal["fallback", "gather"]
"""``"fallback"``: one answer, through the fallback chain; ``"gather"``: every compatible
route at once, the answers side by side (``router.gather``)."""


class HasRegistry(Protocol):
    """Anything that holds a :class:`Registry` (a ``SchemaRouter``, say)."""

    @property
    def registry(self) -> Registry: ...


RegistrySource: TypeAlias = Registry | HasRegistry
"""What the model-facing helpers read routes from: a router or its registry."""


@dataclass(frozen=True, slots=True)
class ToolOptions:
    """The application's routing settings for a framework tool; invisible to the model."""

    fallback_scope: FallbackScope = "disabled"
    max_fallbacks: int = 3
    preferred_tools: tuple[str, ...] = ()
    budget: RunBudget | None = None
    fields: tuple[str, ...] | None = None
    mode: Mode = "fallback"
    hedge: HedgePolicy | None = None
    cache: CachePolicy | None = None

    @classmethod
    def from_settings(cls, **settings: Any) -> ToolOptions:
        """The options from a framework tool's keyword settings (any sequences of names); a
        setting left out keeps its default."""
        if "preferred_tools" in settings:
            settings["preferred_tools"] = tuple(settings["preferred_tools"])
        if settings.get("fields") is not None:
            settings["fields"] = tuple(settings["fields"])
        return cls(**settings)

    @classmethod
    def among(cls, arguments: Mapping[str, Any]) -> ToolOptions:
        """The options among a face's own *arguments* (``locals()`` at the start of its
        constructor): each argument named like a setting; the others are the face's own."""
        return cls.from_settings(**{name: arguments[name] for name in SETTING_NAMES if name in arguments})

    def settings(self) -> dict[str, Any]:
        """The options as keyword settings, the inverse of :meth:`from_settings`."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    def request(
        self, query: str, arguments: Mapping[str, Any] | None = None, *, fields: Sequence[str] | None = None
    ) -> PlanRequest:
        """The plan request for the model's *query* and canonical *arguments*.

        ``None`` values are dropped (an optional argument the model left out). *fields*
        (the MCP tool's ``fields`` argument) define the need unless the application fixed
        the fields in these options: the application's word wins.
        """
        given = {k: v for k, v in (arguments or {}).items() if v is not None}
        chosen = self.fields if self.fields is not None else (tuple(fields) if fields else None)
        # only the settings that differ from PlanRequest's defaults: a default is not
        # validated again, which halves the cost of the request
        settings: dict[str, Any] = {}
        if self.preferred_tools:
            settings["preferred_tools"] = self.preferred_tools
        if chosen is not None:
            settings["fields"] = chosen
        if self.fallback_scope != "disabled":
            settings["fallback_scope"] = self.fallback_scope
        if self.max_fallbacks != 3 or type(self.max_fallbacks) is not int:
            settings["max_fallbacks"] = self.max_fallbacks
        if self.hedge is not None:
            settings["hedge"] = self.hedge
        if self.cache is not None:
            settings["cache"] = self.cache
        return PlanRequest(query=query, arguments=given, **settings)


SETTING_NAMES = tuple(field.name for field in dataclasses.fields(ToolOptions))
"""The names of the routing settings, as the faces' keywords spell them."""


def model_routes(router: RegistrySource, *, options: ToolOptions | None = None) -> list[Route]:
    """The routes the model is told about: those the planner could pick under *options*, by path.

    Always the read_only=True routes. With ``fallback_scope="disabled"`` the planner also lets
    a tool named in ``preferred_tools`` be the primary whatever its ``read_only`` (an
    unclassified ``add_callable`` tool, say), so its routes are shown too. Availability and
    bindings change from one question to the next and are left out. *options* defaults to
    ``ToolOptions()``: read-only routes only.
    """
    registry = registry_of(router)
    settings = options or ToolOptions()
    chosen = set(settings.preferred_tools) if settings.fallback_scope == "disabled" else set()
    return sorted(
        (r for r in registry.routes() if r.endpoint.read_only is True or r.tool.name in chosen),
        key=lambda r: r.path,
    )


def registry_of(router: RegistrySource) -> Registry:
    """The registry of *router* (or *router* itself when it is one)."""
    return router if isinstance(router, Registry) else router.registry
