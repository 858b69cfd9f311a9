"""The ``optimade`` and ``optimade_federation`` kinds: how ``add_url`` discovers an OPTIMADE
API, the health probe of a landscape entry (``probe = "info"``) and how a federation entry
is added."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...errors import RegistrationError
from .._requests import EntryContext, UrlRequest
from . import OptimadeInvoker, build_optimade_route

if TYPE_CHECKING:
    from ..._contracts import ToolSpec
    from .._entries import OptimadeFederationRoute, OptimadeRoute

__all__ = ["add_federation_entry", "build_route", "entry_probe"]


async def build_route(url: str, request: UrlRequest) -> tuple[ToolSpec, OptimadeInvoker]:
    """The OPTIMADE API at *url*, discovered by its ``/info``, as a contract and its invoker."""
    home = await request.origin(url)
    if request.base_url is not None:
        raise RegistrationError("kind='optimade' reads the API at url itself; base_url is not used")
    return await build_optimade_route(
        url, request.registration, target=request.target(home), document_target=request.document_target(home)
    )


def entry_probe(router: Any, name: str, entry: OptimadeRoute) -> Callable[[], Any]:
    """``probe = "info"``: ``GET <url>/v1/info`` with the entry's headers."""
    from .._probes import optimade_info_probe

    return optimade_info_probe(
        router, entry.url, headers=entry.secret_headers(), timeout_seconds=entry.timeout_seconds
    )


async def add_federation_entry(
    router: Any, name: str, entry: OptimadeFederationRoute, context: EntryContext
) -> None:
    """``kind = "optimade_federation"``: every database of the providers list or index."""
    await router.add_optimade_federation(
        entry.source,
        include=entry.include,
        exclude=entry.exclude,
        headers={
            provider: {k: v.get_secret_value() for k, v in sent.items()}
            for provider, sent in entry.headers.items()
        }
        or None,
        timeout_seconds=entry.timeout_seconds,
        concurrency=entry.concurrency,
        probes=entry.probes,
        field_aliases=entry.field_aliases,
    )
