"""The landscape file as pydantic models: the availability store, cooldowns, tool settings, routes.

Every model forbids unknown keys, so a misspelt key is an error at its line, not a silent
default. A route entry is validated with the model its ``kind`` names in the table of kinds
(``adapters/_kinds.py``; the built-in models are in ``adapters/_entries.py``). Header values
are :class:`~pydantic.SecretStr`: a loaded configuration never shows them in ``repr``,
``model_dump`` or an error message.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    Field,
    PlainValidator,
    PrivateAttr,
    SerializeAsAny,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .._contracts import CachePolicy, CooldownPolicy, HedgePolicy, RateLimit
from .._execution import RunBudget
from .._planning import PlanRequest
from .._planning.models import FallbackScope
from .._settings import SchemaRouterSettings
from ..adapters._entries import HttpRouteEntry, RouteEntry, _Route

# the entry models of the built-in kinds live with the kinds; still importable from here
from ..adapters._entries import McpRoute as McpRoute
from ..adapters._entries import OpenApiRoute as OpenApiRoute
from ..adapters._entries import OptimadeFederationRoute as OptimadeFederationRoute
from ..adapters._entries import OptimadeRoute as OptimadeRoute
from ..adapters._entries import PythonRoute as PythonRoute
from ..adapters._kinds import kinds, table_version
from ..stores import AnswerCache, AvailabilityStore, MemoryAnswerCache
from ._sections import AnswerCacheSettings, AvailabilitySettings, RouterSettings, _Model, build_store

__all__ = [
    "AvailabilitySettings",
    "HttpRouteEntry",
    "RouteConfig",
    "RouteEntry",
    "RouterConfig",
    "RouterSettings",
    "ToolSettings",
]

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_HttpRoute = HttpRouteEntry
"""The keys every ``add_url`` kind's entry has (kept under its former name)."""


class ToolSettings(_Model):
    """``[tool]``: the application's settings of the one model-facing tool."""

    name: str = Field(default="data_lookup", pattern=NAME.pattern)
    description: str | None = None
    scope: FallbackScope = "disabled"
    max_fallbacks: int = Field(default=3, ge=0, le=32)
    preferred_tools: tuple[str, ...] = ()
    budget: RunBudget | None = None
    fields: tuple[str, ...] | None = None
    mode: Literal["fallback", "gather"] = "fallback"
    hedge: HedgePolicy | None = None
    """``[tool.hedge]`` with ``after_seconds`` (and ``max_extra_fraction``): hedged fallback."""
    cache: CachePolicy | None = None
    """``[tool] cache = { ttl_seconds = 30, stale_if_error_seconds = 600 }``: the tool's answer
    cache policy (a route's own ``cache`` wins over it)."""

    def request(self, query: str, arguments: dict[str, Any] | None = None) -> PlanRequest:
        """The plan request for *query* under these settings."""
        return PlanRequest(
            query=query,
            arguments=dict(arguments or {}),
            preferred_tools=self.preferred_tools,
            fields=self.fields,
            fallback_scope=self.scope,
            max_fallbacks=self.max_fallbacks,
            hedge=self.hedge,
        )

    def framework_options(self) -> dict[str, Any]:
        """Keyword settings for ``SchemaRouterTool(router=..., **options)`` or
        ``SchemaRouterToolSpec(router, **options)``."""
        options: dict[str, Any] = {
            "name": self.name,
            "fallback_scope": self.scope,
            "max_fallbacks": self.max_fallbacks,
            "preferred_tools": list(self.preferred_tools),
            "budget": self.budget,
        }
        if self.description is not None:
            options["description"] = self.description
        if self.fields is not None:
            options["fields"] = list(self.fields)
        if self.mode != "fallback":
            options["mode"] = self.mode
        if self.hedge is not None:
            options["hedge"] = self.hedge
        return options

    def mcp_options(self) -> dict[str, Any]:
        """Keyword settings for ``router_mcp_server(router, **options)`` (the tool's name is
        ``tool_name`` there)."""
        options = self.framework_options()
        options["tool_name"] = options.pop("name")
        return options


def _entry(value: Any) -> RouteEntry:
    """``[routes.<name>]`` as the entry model of its ``kind`` (from the table of kinds)."""
    return _entries_of(table_version()).validate_python(value)  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=4)
def _entries_of(version: int) -> TypeAdapter[Any]:
    """The union of every kind's entry model, tagged by ``kind`` (built again when the table
    of kinds changes: *version* is its version)."""
    union: Any = Union[tuple(kind.entry for kind in kinds())]  # noqa: UP007 - built at run time
    tagged: Any = Annotated[union, Field(discriminator="kind")]
    return TypeAdapter(tagged)


RouteConfig = Annotated[
    SerializeAsAny[RouteEntry], PlainValidator(_entry, json_schema_input_type=dict[str, Any])
]
"""One ``[routes.<name>]`` entry: the model of its ``kind`` in the table of kinds
(:class:`OpenApiRoute`, :class:`OptimadeRoute`, :class:`OptimadeFederationRoute`,
:class:`PythonRoute`, :class:`McpRoute`, or a kind added by ``register_kind``)."""


class RouterConfig(_Model):
    """A whole landscape: ``[router]``, ``[availability]``, ``[cooldown]``, ``[tool]`` and
    ``[routes.<name>]``.

    ``python_path`` lists folders (relative to the file) put on ``sys.path`` before the
    ``python`` routes' functions are imported. A top-level ``document_cache`` is the same
    setting as ``[router] document_cache`` (written before ``[router]`` existed); a file may
    set it in one place only. ``source`` is the file it was read from.
    """

    router: RouterSettings = RouterSettings()
    availability: AvailabilitySettings = AvailabilitySettings()
    cooldown: CooldownPolicy = CooldownPolicy()
    tool: ToolSettings = ToolSettings()
    answer_cache: AnswerCacheSettings | None = None
    """``[answer_cache]``; without it, a memory cache when any ``cache`` policy is declared."""
    rate_limits: dict[str, RateLimit] = Field(default_factory=dict)
    """``[rate_limits]``: ``<provider> = { per_second = 20 }``, shared by that provider's routes."""
    python_path: list[str] = Field(default_factory=list)
    document_cache: str | None = Field(default=None, min_length=1)
    routes: dict[str, RouteConfig] = Field(default_factory=dict)

    _source: Path | None = PrivateAttr(default=None)
    _lines: dict[tuple[str | int, ...], int] = PrivateAttr(default_factory=dict)
    _substituted: tuple[str, ...] = PrivateAttr(default=())

    @field_validator("routes")
    @classmethod
    def _names(cls, routes: dict[str, Any]) -> dict[str, Any]:
        bad = [name for name in routes if not NAME.match(name)]
        if bad:
            raise ValueError(f"route names must be letters, digits and _ (a tool name), got {bad}")
        return routes

    @field_validator("document_cache")
    @classmethod
    def _one_document_cache(cls, value: str | None, info: ValidationInfo) -> str | None:
        router = info.data.get("router")
        if value is not None and router is not None and router.document_cache is not None:
            raise ValueError("also set as [router] document_cache: set it in one place, [router]")
        return value

    @property
    def source(self) -> Path | None:
        return self._source

    @property
    def document_cache_path(self) -> Path | None:
        """The document cache folder (``[router]`` or top-level ``document_cache``) resolved
        against the file's folder (None: no cache)."""
        folder = self.router.document_cache or self.document_cache
        if folder is None:
            return None
        base = self._source.parent if self._source is not None else Path.cwd()
        return (base / Path(folder).expanduser()).resolve()

    def settings(self) -> SchemaRouterSettings:
        """The router's settings this file declares: ``[router]``, ``[availability]``,
        ``[cooldown]`` and ``[answer_cache]`` (``SchemaRouter(settings=...)``; equal to the
        settings the same values given as keywords make). The stores it names are built on
        each call; a memory availability store is left to the router (``None``)."""
        store = self.router_store()  # [router] store: also the answer cache and the rate limiter
        cooldowns = store
        if store is None and self.availability.store != "memory":  # [availability] on Redis
            cooldowns = self.availability.build()
        return SchemaRouterSettings(
            cooldown=self.cooldown,
            availability_store=cooldowns,
            answer_cache=self._answer_cache(store),
            **self.router_options(),
        )

    def _answer_cache(self, store: Any) -> AnswerCache | None:
        """``[answer_cache]``, else the answers of ``[router] store``, else a memory cache when
        any cache policy is declared, else none."""
        if self.answer_cache is not None:
            return self.answer_cache.build()
        if store is not None:
            return store.answers  # type: ignore[no-any-return]  # SqliteStore, RedisStore
        declared = self.tool.cache is not None or any(
            isinstance(route, _Route) and route.cache is not None for route in self.routes.values()
        )
        return MemoryAnswerCache() if declared else None

    def router_options(self) -> dict[str, Any]:
        """Keyword settings for ``SchemaRouter(**options)`` from ``[router]`` (and the
        top-level ``document_cache``)."""
        return {
            "allow_private_networks": self.router.allow_private_networks,
            "document_cache": self.document_cache_path,
            "max_hops": self.router.max_hops,
        }

    @model_validator(mode="after")
    def _one_store(self) -> RouterConfig:
        if self.router.store is not None and self.availability.store != "memory":
            raise ValueError("[router] store and [availability] store both set: keep [router] store")
        return self

    def router_store(self) -> AvailabilityStore | None:
        """The store of ``[router] store`` (a relative SQLite path from the file's folder)."""
        if self.router.store is None:
            return None
        return build_store(self.router.store, self._source.parent if self._source is not None else Path.cwd())

    def with_router(self, **settings: Any) -> RouterConfig:
        """A copy with these ``[router]`` settings replaced (the CLI's options); the source,
        lines and substituted values are kept."""
        router = self.router.model_copy(update=settings)
        update: dict[str, Any] = {"router": router}
        if "document_cache" in settings:
            update["document_cache"] = None
        return self.model_copy(update=update)

    @property
    def substituted_values(self) -> tuple[str, ...]:
        """Every value a ``${VAR}`` reference took from the environment (longest first): they
        may be secrets wherever they sit (a URL's query, a command line), so output that
        shows the configuration masks them."""
        return self._substituted

    def where(self, *keys: str | int) -> str:
        """``"file:line: key"`` for a key path (its line, or its nearest enclosing key's)."""
        from ._locate import describe

        return describe(self._source, self._lines, keys)
