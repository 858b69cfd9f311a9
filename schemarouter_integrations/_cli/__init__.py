"""The ``schemarouter-integrations`` console script (extra ``[cli]``: Typer and rich).

Imported only by the console script and ``python -m schemarouter_integrations``, never by
the package root.
"""

from __future__ import annotations

import os
import sys

__all__ = ["main"]


def main() -> None:
    """Entry point of the console script."""
    try:
        from ._app import app
    except ImportError as exc:  # tested from the wheel, in an environment without the extra
        print(
            f"error: the command line needs the [cli] extra ({exc}):\n"
            '       pip install "schemarouter-integrations[cli]"',
            file=sys.stderr,
        )
        raise SystemExit(2) from None  # a usage error: the installation, not the landscape
    _usable_standard_streams()
    app(prog_name="schemarouter-integrations")


def _usable_standard_streams() -> None:
    """A closed stdout or stderr (``>&-``) becomes the null device, with a word on stderr when
    it is still open: the command still runs and its exit code still tells what happened."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or stream.closed:
            setattr(sys, name, open(os.devnull, "w"))  # noqa: SIM115 - lives as long as the process
            if name == "stdout" and sys.stderr is not None and not sys.stderr.closed:
                print("warning: standard output is closed; the output is discarded", file=sys.stderr)
