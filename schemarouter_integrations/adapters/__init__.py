"""Adapters: OpenAPI, OPTIMADE and Python callables, with one HTTP error map."""

from __future__ import annotations

from typing import Any

import httpx

from ..contracts import ToolSpec
from ..registry import Invoker


async def build_url_route(
    url: str,
    *,
    kind: str,
    name: str,
    client: httpx.AsyncClient,
    **options: Any,
) -> tuple[ToolSpec, Invoker]:
    """Read the document at *url* and build the ToolSpec and invoker for it."""
    raise NotImplementedError("URL adapters are not implemented yet")
