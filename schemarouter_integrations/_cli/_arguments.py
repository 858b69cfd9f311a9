"""The CLI's ``--arg NAME=VALUE`` pairs: parsed, and checked against what the routes take."""

from __future__ import annotations

import difflib
import json
from typing import Any

from .._router import SchemaRouter
from ..errors import ConfigurationError

__all__ = ["check_argument_names", "parse_arguments"]


def parse_arguments(pairs: list[str]) -> dict[str, Any]:
    """``["formula=Si", 'elements=["Ga","As"]']`` -> arguments (values JSON when they parse)."""
    arguments: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ConfigurationError(f"--arg takes NAME=VALUE, got {pair!r}")
        try:
            arguments[name] = json.loads(value)
        except ValueError:
            arguments[name] = value
    return arguments


def check_argument_names(router: SchemaRouter, arguments: dict[str, Any]) -> None:
    """A usage error (with "did you mean") for an ``--arg`` name no registered route takes."""
    taken = {name for route in router.registry.routes() for name in route.argument_names}
    for name in sorted(set(arguments) - taken):
        close = difflib.get_close_matches(name, sorted(taken), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ConfigurationError(f"--arg {name}: no registered route takes an argument {name!r}{hint}")
