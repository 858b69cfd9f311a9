"""The ``python`` kind of the landscape: ``function = "package.module:function"`` added by
``add_callable``, with its trusted ``probe`` function."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._requests import EntryContext
from ._url_entries import register_probe

if TYPE_CHECKING:
    from ._entries import PythonRoute

__all__ = ["add_entry"]


async def add_entry(router: Any, name: str, entry: PythonRoute, context: EntryContext) -> None:
    """Import the entry's function (an error names the file, line and key) and add it."""
    function = context.resolve("function", entry.function)
    spec = router.add_callable(
        function,
        name=name,
        **entry.keywords("provider", "access_mode", "endpoint", "read_only", "fields"),
        **entry.keywords(
            "retry", "cost_units", "records_path", "timeout_seconds", "description", "origin", given_only=True
        ),
    )
    if entry.probe is not None:
        register_probe(router, name, spec, context.resolve("probe", entry.probe))
