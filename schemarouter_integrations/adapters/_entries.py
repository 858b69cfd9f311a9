"""The landscape entries ``[routes.<name>]`` of the built-in kinds, as pydantic models.

Each kind of the table (:mod:`._kinds`) names its entry model; the landscape validates
``[routes.<name>]`` with the model of the entry's ``kind``. Every model forbids unknown keys,
so a misspelt key is an error at its line, not a silent default. Header values are
:class:`~pydantic.SecretStr`: a loaded configuration never shows them in ``repr``,
``model_dump`` or an error message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, SecretStr, field_validator

from .._contracts import CachePolicy, FieldSpec, RateLimit, RetryPolicy, ServerProjectionSpec
from .._headers import header_problem

__all__ = [
    "HttpRouteEntry",
    "McpRoute",
    "OpenApiRoute",
    "OptimadeFederationRoute",
    "OptimadeRoute",
    "PythonRoute",
    "RouteEntry",
]

TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class RouteEntry(BaseModel):
    """The base of every ``[routes.<name>]`` model: a frozen model that forbids unknown keys.

    A kind's model declares ``kind: Literal["<its name>"]``, the tag the landscape reads.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    if TYPE_CHECKING:
        kind: str

    def keywords(self, *names: str, given_only: bool = False) -> dict[str, Any]:
        """The entry's values under *names*, as keywords of the same names for the
        ``router.add_*`` call the entry becomes; with *given_only*, only the values not None
        (the call's own default stands for the others)."""
        values = {name: getattr(self, name) for name in names}
        return {k: v for k, v in values.items() if v is not None} if given_only else values


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


class _Route(RouteEntry):
    """An entry that registers one tool: its provider, access mode, cache and rate limit."""

    provider: str | None = None
    access_mode: str | None = None
    cache: CachePolicy | None = None
    """The route's own answer cache policy (wins over ``[tool] cache``)."""
    rate_limit: RateLimit | None = None
    """``rate_limit = { per_second = 20 }``: the route's :class:`RateLimit`."""


class HttpRouteEntry(_Route):
    """The keys of every kind read by URL (``add_url``): ``url``, ``headers``, the timeouts,
    ``retry``, ``fields``, ``cost_units`` and ``description``."""

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


class OpenApiRoute(HttpRouteEntry):
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


class OptimadeRoute(HttpRouteEntry):
    """``kind = "optimade"``: an OPTIMADE base URL; ``probe = "info"`` probes ``/v1/info``."""

    kind: Literal["optimade"]
    entries: list[str] | None = None
    max_pages: int | None = Field(default=None, ge=1)
    page_limit: int | None = Field(default=None, ge=1, le=10_000)
    """Entries per page asked of the database (default: the database's own)."""
    field_aliases: dict[str, list[str]] | None = None
    """Extends the OPTIMADE equivalence table (canonical field -> provider properties)."""
    probe: Literal["info"] | None = None


class OptimadeFederationRoute(RouteEntry):
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
