"""The reference index meta-database app, kept offline.

``optimade.server.main_index:app`` inserts the links of ``index_links_path`` and then adds
the Materials-Consortia providers fetched from providers.optimade.org (falling back to
GitHub). Tests must not touch the network, so that fetch is replaced by an empty list before
the app is built; everything else is the reference app as shipped.
"""

from __future__ import annotations

from typing import Any

import optimade.server.routers.utils as routers_utils


def _no_providers(*args: Any, **kwargs: Any) -> list[Any]:
    return []


routers_utils.get_providers = _no_providers  # type: ignore[assignment]

from optimade.server.main_index import app  # noqa: E402

__all__ = ["app"]
