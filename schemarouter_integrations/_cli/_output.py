"""Where a CLI command writes: JSON on stdout, or rich text (plain when piped), errors on
stderr, and a progress indicator on a terminal once work takes more than a second."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..config import LandscapeError
from . import _render as render

__all__ = ["PROGRESS_AFTER_SECONDS", "Output"]

PROGRESS_AFTER_SECONDS = 1.0


class Output:
    """Where a command writes: JSON on stdout, or rich text (progress only on a terminal);
    *strict*: a route whose document cannot be read fails the command instead of pending."""

    def __init__(self, *, as_json: bool, strict: bool = False) -> None:
        self.as_json = as_json
        self.strict = strict
        self.out = render.console()
        self.err = render.console(stderr=True)

    @contextmanager
    def progress(self, message: str, *, after_seconds: float = PROGRESS_AFTER_SECONDS) -> Iterator[None]:
        """A spinner with *message* on stderr once the work has taken *after_seconds* (on a
        terminal only, never with ``--json``). A timer thread starts it, so work that blocks the
        event loop (importing a python route's module) still shows it."""
        if self.as_json or not self.err.is_terminal:
            yield
            return
        status = self.err.status(message)
        lock = threading.Lock()
        done = False

        def show() -> None:
            with lock:
                if not done:
                    status.start()

        timer = threading.Timer(after_seconds, show)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            with lock:
                done = True
                status.stop()

    def error(self, code: int, error: BaseException, **extra: Any) -> int:
        if self.as_json:
            document: dict[str, Any] = {"ok": False, "error_type": type(error).__name__, "error": str(error)}
            if isinstance(error, LandscapeError):
                document |= {
                    "file": str(error.path),
                    "line": error.line,
                    "key": error.key,
                    "problems": error.problems,
                }
            render.print_json(document | extra)
        else:
            self.err.print(f"error: {error}", markup=False)
            for problem in getattr(error, "problems", [])[1:]:
                self.err.print(f"       {problem}", markup=False)
        return code
