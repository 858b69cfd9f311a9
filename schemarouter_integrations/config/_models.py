"""The landscape file as pydantic models: the availability store, cooldowns, tool settings, routes.

Every model forbids unknown keys, so a misspelt key is an error at its line, not a silent
default. Header values are :class:`~pydantic.SecretStr`: a loaded configuration never shows
them in ``repr``, ``model_dump`` or an error message.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .._contracts import (
    CachePolicy,
    CooldownPolicy,
    FieldSpec,
    HedgePolicy,
    RateLimit,
    RetryPolicy,
    ServerProjectionSpec,
)
from .._execution import RunBudget
from .._headers import header_problem
from .._planning import PlanRequest
from .._planning.models import FallbackScope
from ..stores import AvailabilityStore
from ._sections import AnswerCacheSettings, AvailabilitySettings, RouterSettings, _Model, build_store

__all__ = [
    "AvailabilitySettings",
    "OpenApiRoute",
    "OptimadeFederationRoute",
    "OptimadeRoute",
    "PythonRoute",
    "RouteConfig",
    "RouterConfig",
    "RouterSettings",
    "ToolSettings",
]

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def _fields(cls: type[BaseModel], value: Any) -> Any:
    """``fields = ["formula", {name = "band_gap", path = ["gap"]}]``: bare names become dicts."""
    if isinstance(value, list):
        return [{"name": item} if isinstance(item, str) else item for item in value]
    return value


def _sendable(headers: dict[str, SecretStr]) -> dict[str, SecretStr]:
    """Headers that can be sent as written (no line break, NUL or non-ASCII character): a bad
    one is an error of the file, named without its value."""
    for name, value in headers.items():
        problem = header_problem(name, value.get_secret_value())
        if problem is not None:
            raise ValueError(problem)
    return headers


Headers = Annotated[dict[str, SecretStr], AfterValidator(_sendable)]


def _http_url(cls: type[BaseModel], value: Any) -> Any:
    """An ``http://`` or ``https://`` URL with a host (a list: each of them); the message names
    the scheme, never the URL, which may hold a value from the environment."""
    for url in value if isinstance(value, list) else [value]:
        if not isinstance(url, str) or url.startswith("${"):  # the type check, or a variable not set
            continue
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError:
            raise ValueError("must be an http:// or https:// URL with a host: it does not parse") from None
        if parts.scheme not in ("http", "https"):
            got = f"scheme {parts.scheme!r}" if parts.scheme else "no scheme"
            raise ValueError(f"must be an http:// or https:// URL with a host, got {got}")
        if not parts.hostname:
            raise ValueError("must be an http:// or https:// URL with a host, got no host")
    return value


def _target(cls: type[BaseModel], value: str | None) -> str | None:
    if value is not None and not TARGET.match(value):
        raise ValueError(f"must be 'package.module:function', got {value!r}")
    return value


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


class _Route(_Model):
    provider: str | None = None
    access_mode: str | None = None
    cache: CachePolicy | None = None
    """The route's own answer cache policy (wins over ``[tool] cache``)."""
    rate_limit: RateLimit | None = None
    """``rate_limit = { per_second = 20 }``: the route's :class:`RateLimit`."""


class _HttpRoute(_Route):
    url: str = Field(min_length=1)
    headers: Headers = Field(default_factory=dict)
    timeout_seconds: float = Field(default=10.0, gt=0.0, allow_inf_nan=False)
    document_timeout_seconds: float = Field(default=30.0, gt=0.0, allow_inf_nan=False)
    """Reading the document (OpenAPI) or discovering the API (OPTIMADE), apart from each call."""
    retry: RetryPolicy | None = None
    fields: list[FieldSpec] | None = None
    cost_units: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    description: str | None = None

    names_as_fields = field_validator("fields", mode="before")(_fields)
    http_urls = field_validator("url")(_http_url)

    def secret_headers(self) -> dict[str, str]:
        return {name: value.get_secret_value() for name, value in self.headers.items()}


class OpenApiRoute(_HttpRoute):
    """``kind = "openapi"``: an OpenAPI document URL; ``probe`` names a read-only operation."""

    kind: Literal["openapi"]
    base_url: str | None = None
    operations: list[str] | None = None
    tags: list[str] | None = None
    records_path: list[str] | dict[str, list[str]] | None = None
    projection: ServerProjectionSpec | Literal[False] | None = None
    """None: detected from the document; false: none."""
    list_separators: dict[str, str] | None = None
    validate_output: bool | None = None
    allow_ref_origins: list[str] | None = None
    """Origins besides the document's own that the files of its external ``$ref`` values may come from."""
    probe: str | None = None
    probe_arguments: dict[str, Any] = Field(default_factory=dict)

    base_urls = field_validator("base_url")(_http_url)


class OptimadeRoute(_HttpRoute):
    """``kind = "optimade"``: an OPTIMADE base URL; ``probe = "info"`` probes ``/v1/info``."""

    kind: Literal["optimade"]
    entries: list[str] | None = None
    max_pages: int | None = Field(default=None, ge=1)
    page_limit: int | None = Field(default=None, ge=1, le=10_000)
    """Entries per page asked of the database (default: the database's own)."""
    field_aliases: dict[str, list[str]] | None = None
    """Extends the OPTIMADE equivalence table (canonical field -> provider properties)."""
    probe: Literal["info"] | None = None


class OptimadeFederationRoute(_Model):
    """``kind = "optimade_federation"``: every database of a providers list or index."""

    kind: Literal["optimade_federation"]
    source: str | list[str] | None = None
    include: list[str] | None = None
    exclude: list[str] | None = None
    headers: dict[str, Headers] = Field(default_factory=dict)
    """Provider id -> the headers sent to that provider's databases only."""
    timeout_seconds: float = Field(default=10.0, gt=0.0, allow_inf_nan=False)
    concurrency: int = Field(default=8, ge=1, le=64)
    probes: bool = True
    field_aliases: dict[str, list[str]] | None = None

    source_urls = field_validator("source")(_http_url)


class PythonRoute(_Route):
    """``kind = "python"``: ``function = "package.module:function"`` (sync or async)."""

    kind: Literal["python"]
    function: str
    access_mode: str | None = "python"
    endpoint: str | None = None
    read_only: bool | None = None
    fields: list[FieldSpec] | None = None
    retry: RetryPolicy | None = None
    cost_units: float | None = Field(default=None, ge=0.0, allow_inf_nan=False)
    records_path: list[str] | None = None
    timeout_seconds: float | None = Field(default=None, gt=0.0, allow_inf_nan=False)
    description: str | None = None
    origin: str | None = None
    """The URL of the service the function calls: it shares that origin's fate."""
    probe: str | None = None
    """``"package.module:function"``: a trusted ``() -> bool`` (sync or async)."""

    names_as_fields = field_validator("fields", mode="before")(_fields)
    check_targets = field_validator("function", "probe")(_target)
    origin_url = field_validator("origin")(_http_url)


class McpRoute(_Route):
    """``kind = "mcp"``: an MCP server (a command line, a streamable-HTTP URL) whose tools
    become endpoints; ``read_only`` is the application's word (``true`` or tool names);
    ``env`` sets environment variables of a command-line server; ``probe = "ping"`` pings
    the session."""

    kind: Literal["mcp"]
    target: str | list[str]
    access_mode: str | None = "mcp"
    tools: list[str] | None = None
    read_only: bool | list[str] | None = None
    fields: list[FieldSpec] | None = None
    headers: Headers = Field(default_factory=dict)
    env: dict[str, SecretStr] = Field(default_factory=dict)
    timeout_seconds: float = Field(default=30.0, gt=0.0, allow_inf_nan=False)
    probe: Literal["ping"] | None = None

    names_as_fields = field_validator("fields", mode="before")(_fields)

    @field_validator("target")
    @classmethod
    def _url_target(cls, value: str | list[str]) -> str | list[str]:
        """A string target is a streamable-HTTP URL; a command line is a list."""
        return _http_url(cls, value) if isinstance(value, str) else value


RouteConfig = Annotated[
    OpenApiRoute | OptimadeRoute | OptimadeFederationRoute | PythonRoute | McpRoute,
    Field(discriminator="kind"),
]


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
