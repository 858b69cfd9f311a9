"""How access paths are added to a router: from a URL, a federation, a function, an MCP server.

:class:`DataSources` is the part of :class:`~schemarouter_integrations.SchemaRouter` that
turns a source into contracts and invokers; each adapter is imported only when it is used.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ._contracts import CachePolicy, RateLimit, ToolSpec
from ._document_cache import DocumentCache, using
from ._execution.hops import new_hop_id
from ._registry import Invoker

if TYPE_CHECKING:
    from typing import Unpack

    import httpx

    from ._registry.reports import FederationReport
    from ._settings import Resolver
    from .adapters._clients import HttpClients
    from .adapters._mcp.session import McpTarget
    from .adapters._network import NetworkPolicy
    from .adapters._optimade.federation import FederationRouter
    from .adapters._options import CallableOptions, McpOptions, UrlOptions

__all__ = ["DataSources"]


class DataSources:
    """``add_url``, ``add_optimade_federation``, ``add_callable`` and ``add_mcp``, and the
    connections they use: ``http_client`` and ``network_policy``."""

    max_response_bytes: int
    document_cache: DocumentCache | None
    """Documents read while adding a source go through it (see :mod:`._document_cache`)."""
    _closers: list[Callable[[], Awaitable[None]]]
    _given_http_client: httpx.AsyncClient | None
    _http_clients: HttpClients | None
    _network: NetworkPolicy | None
    _resolver: Resolver | None
    allow_private_networks: bool
    max_hops: int
    """How many routers a call may have passed through before this router's MCP server
    refuses it (``SchemaRouter(max_hops=...)``; :mod:`._execution.hops`)."""
    hop_id: str
    """This router's random id in the hop list of calls between routers."""

    if TYPE_CHECKING:  # provided by SchemaRouter

        def register(self, spec: ToolSpec, invoker: Invoker | None = None) -> None: ...

        def set_rate_limit(self, tool: str, limit: RateLimit | None, *, provider: bool = False) -> None: ...

        def set_cache_policy(self, route: str, policy: CachePolicy | None) -> None: ...

    def _setup_hops(self, max_hops: int) -> None:
        self.max_hops = max_hops  # checked by SchemaRouterSettings
        self.hop_id = new_hop_id()

    @property
    def http_client(self) -> httpx.AsyncClient:
        """The router's pooled HTTP client for the running event loop (created on first use)."""
        return self._http.current()

    @property
    def _http(self) -> HttpClients:
        """The per-loop HTTP clients; the HTTP adapter is imported on first use only."""
        if self._http_clients is None:
            from .adapters._clients import HttpClients

            self._http_clients = HttpClients(self._given_http_client, network=self.network_policy)
        return self._http_clients

    @property
    def network_policy(self) -> NetworkPolicy:
        """Where this router may connect (the adapter is imported on first use only)."""
        if self._network is None:
            from .adapters._network import NetworkPolicy

            self._network = NetworkPolicy(
                allow_private_networks=self.allow_private_networks, resolver=self._resolver
            )
        return self._network

    async def add_url(
        self,
        url: str,
        *,
        kind: str,
        name: str,
        provider: str | None = None,
        access_mode: str | None = None,
        headers: dict[str, str] | None = None,
        base_url: str | None = None,
        timeout_seconds: float = 10.0,
        document_timeout_seconds: float = 30.0,
        rate_limit: RateLimit | None = None,
        cache: CachePolicy | None = None,
        **options: Unpack[UrlOptions],
    ) -> ToolSpec:
        """Read the source at *url* as its *kind* says, register it and bind an invoker.

        *kind* is ``"openapi"`` (a document), ``"optimade"`` (a base URL) or a kind the
        application added with ``adapters.register_kind``; *options* are the kind's own.

        *timeout_seconds* bounds each call; *document_timeout_seconds* the reading of the
        document (some servers build theirs on every request, taking seconds).
        *rate_limit* and *cache* are the route's :class:`RateLimit` and :class:`CachePolicy`.
        """
        route = _route_keywords(locals())
        self._route_settings(name, rate_limit, cache)
        from .adapters._url import build_url_route

        with using(self.document_cache):
            spec, invoker = await build_url_route(
                url,
                client=lambda: self.http_client,
                max_response_bytes=self.max_response_bytes,
                network=self.network_policy,
                **route,
            )
        self.register(spec, invoker)
        return spec

    def _route_settings(self, name: str, rate_limit: RateLimit | None, cache: CachePolicy | None) -> None:
        """Check and keep a route's rate limit and cache policy (before anything is registered)."""
        if rate_limit is not None:
            self.set_rate_limit(name, rate_limit)
        if cache is not None:
            self.set_cache_policy(name, cache)

    async def add_optimade_federation(
        self,
        source: str | Sequence[str] | None = None,
        *,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] | None = None,
        headers: Mapping[str, Mapping[str, str]] | None = None,
        timeout_seconds: float = 10.0,
        concurrency: int = 8,
        probes: bool = True,
        field_aliases: Mapping[str, str | Sequence[str]] | None = None,
    ) -> FederationReport:
        """Register every database of an OPTIMADE federation as a tool (again: refresh).

        See :mod:`.adapters._optimade.federation`; *headers* maps a provider id (for the
        databases a providers list or index names) or a database URL given in *source* to the
        headers sent to those databases only, never to a database by the prefix it claims.
        """
        from .adapters._optimade.federation import add_federation

        router = cast("FederationRouter", self)  # always a SchemaRouter
        with using(self.document_cache):
            return await add_federation(
                router, source, include, exclude, headers, timeout_seconds, concurrency, probes, field_aliases
            )

    def add_callable(
        self,
        fn: Callable[..., Any],
        *,
        name: str,
        provider: str | None = None,
        access_mode: str | None = "python",
        endpoint: str | None = None,
        read_only: bool | None = None,
        fields: Any = None,
        origin: str | None = None,
        unavailable_on: Sequence[type[BaseException]] | type[BaseException] = (),
        rate_limit: RateLimit | None = None,
        cache: CachePolicy | None = None,
        **options: Unpack[CallableOptions],
    ) -> ToolSpec:
        """Register a sync or async Python function as a tool with one endpoint.

        ``origin`` (a URL) names the service the function calls, so it shares that origin's
        fate with the HTTP routes on it; ``unavailable_on`` adds exception types meaning
        unavailable beside the recognised client transport errors (see ``adapters/_python``).
        ``rate_limit`` and ``cache``: the route's :class:`RateLimit` and :class:`CachePolicy`.
        A function may return :class:`CacheHints` to bound how long its answer is fresh.
        """
        route = _route_keywords(locals())
        self._route_settings(name, rate_limit, cache)
        from .adapters._python import build_callable_route

        spec, invoker = build_callable_route(fn, **route)
        self.register(spec, invoker)
        return spec

    async def add_mcp(
        self,
        target: McpTarget,
        *,
        name: str,
        rate_limit: RateLimit | None = None,
        cache: CachePolicy | None = None,
        **options: Unpack[McpOptions],
    ) -> ToolSpec:
        """Register the tools of an MCP server (command line, URL or ``MCPServer``) as endpoints.

        ``read_only`` is the application's word (``True`` or tool names); the session is
        kept open between calls and closed by :meth:`aclose`. See ``adapters/_mcp``.
        ``rate_limit`` and ``cache``: the route's :class:`RateLimit` and :class:`CachePolicy`.
        """
        self._route_settings(name, rate_limit, cache)
        from .adapters._mcp.route import build_mcp_route

        if isinstance(target, str) and target.startswith(("http://", "https://")):
            await self.network_policy.check_given(target)  # a metadata address is refused
        spec, invoker = await build_mcp_route(
            target, name=name, max_response_bytes=self.max_response_bytes, hop_id=self.hop_id, **options
        )
        self._closers.append(invoker.aclose)
        self.register(spec, invoker)
        return spec


def _route_keywords(given: dict[str, Any]) -> dict[str, Any]:
    """The keywords an ``add_*`` method hands to its route builder: its parameters (*given*,
    its ``locals()`` on entry) but ``self``, the source and the router's own ``rate_limit``
    and ``cache``, with the kind's ``**options`` spread."""
    kept = {name: value for name, value in given.items() if name not in _NOT_HANDED_ON}
    options: dict[str, Any] = given["options"]
    return kept | options


_NOT_HANDED_ON = frozenset({"self", "url", "fn", "rate_limit", "cache", "options"})
