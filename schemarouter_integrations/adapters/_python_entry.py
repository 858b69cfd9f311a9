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
    options: dict[str, Any] = {
        key: getattr(entry, key)
        for key in ("retry", "cost_units", "records_path", "timeout_seconds", "description", "origin")
        if getattr(entry, key) is not None
    }
    spec = router.add_callable(
        function,
        name=name,
        provider=entry.provider,
        access_mode=entry.access_mode,
        endpoint=entry.endpoint,
        read_only=entry.read_only,
        fields=entry.fields,
        **options,
    )
    if entry.probe is not None:
        register_probe(router, name, spec, context.resolve("probe", entry.probe))
