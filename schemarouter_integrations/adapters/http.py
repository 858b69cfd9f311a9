"""The shared HTTP client and the one map from HTTP failures to router errors."""

from __future__ import annotations

import httpx


def make_http_client() -> httpx.AsyncClient:
    """A pooled client; timeouts are set per request by each route."""
    return httpx.AsyncClient(
        limits=httpx.Limits(max_connections=100, max_keepalive_connections=20),
        follow_redirects=False,
    )
