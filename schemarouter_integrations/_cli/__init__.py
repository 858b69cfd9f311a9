"""The ``schemarouter-integrations`` console script (extra ``[cli]``: Typer and rich).

Imported only by the console script and ``python -m schemarouter_integrations``, never by
the package root.
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """Entry point of the console script."""
    try:
        from ._app import app
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise SystemExit(
            f"the command line needs the cli extra: pip install 'schemarouter-integrations[cli]' ({exc})"
        ) from None
    app()
