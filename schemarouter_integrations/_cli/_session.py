"""What every CLI command shares: exit codes, the landscape and its router, masked secrets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from .._redaction import redact
from .._router import SchemaRouter
from ..config import LandscapeError, RouterConfig, load_config
from ..errors import AllRoutesUnavailableError, ConfigurationError, NoRouteError
from ._output import Output

__all__ = [
    "FAILED",
    "NO_ROUTE",
    "OK",
    "USAGE",
    "config_secrets",
    "exit_code",
    "load_landscape",
    "masked",
    "opened",
    "print_pending",
    "with_document_cache",
    "with_state",
]

OK, FAILED, USAGE, NO_ROUTE = 0, 1, 2, 3


def exit_code(error: BaseException) -> int:
    if isinstance(error, NoRouteError | AllRoutesUnavailableError):
        return NO_ROUTE
    if isinstance(error, ConfigurationError):
        return USAGE
    return FAILED


def load_landscape(path: Path, document_cache: Path | None = None) -> RouterConfig:
    """The checked landscape at *path*; one without routes is a configuration error."""
    config = with_document_cache(load_config(path), document_cache)
    if not config.routes:
        raise LandscapeError(
            f"{path}: the landscape has no routes: add a [routes.<name>] table with its kind",
            path=path,
            line=None,
            key="routes",
        )
    return config


def with_document_cache(config: RouterConfig, folder: Path | None) -> RouterConfig:
    """*config* with ``document_cache`` set to *folder* (``--document-cache``) when given."""
    if folder is None:
        return config
    return config.with_router(document_cache=str(folder.expanduser().resolve()))


def with_state(config: RouterConfig, state: Path | None) -> RouterConfig:
    """*config* with its state in the SQLite file *state* (``--state``) when given."""
    if state is None:
        return config
    return config.with_router(store=f"sqlite:///{state.expanduser().resolve()}")


@asynccontextmanager
async def opened(config: RouterConfig, output: Output) -> AsyncIterator[SchemaRouter]:
    with output.progress(f"Registering {len(config.routes)} route(s) of {config.source} ..."):
        router = await SchemaRouter.from_config(config, strict=output.strict)
    async with router:
        _say_state(router, output)
        yield router


def _say_state(router: SchemaRouter, output: Output) -> None:
    """Where the state of a ``--state`` / ``[router] store`` lives and what it holds (stderr)."""
    store = router.inspect().health.store
    if not store.get("path") and store.get("kind") == "memory":
        return
    where = store.get("path") or store.get("server")
    cooling = router.inspect().execution.cooldowns
    line = f"state: {store.get('kind')} {where} (cooldowns, answers, rate limits)"
    if cooling:
        line += "; cooling down: " + ", ".join(
            f"{path} ({left:.0f} s left)" for path, left in sorted(cooling.items())
        )
    if store.get("last_error"):
        line += f"; not usable: {store['last_error']}"
    output.err.print(line, markup=False, highlight=False)


def print_pending(output: Output, pending: dict[str, str], documents: dict[str, Any]) -> None:
    """One line per pending route and per cached copy standing in for its source."""
    for name, reason in pending.items():
        output.out.print(f"pending: {name}: {reason} (retried in the background)", markup=False)
    for url, copy in documents.get("from_cache", {}).items():
        age = copy["age_seconds"]
        output.out.print(f"from cache: {url} (stored {age:.0f} s ago): {copy['reason']}", markup=False)


def config_secrets(config: RouterConfig) -> tuple[str, ...]:
    """Every value of *config* that may be a secret: what the environment gave, and each
    header value written in the file (masked wherever a server echoes it)."""
    values = list(config.substituted_values)
    for route in config.routes.values():
        for value in getattr(route, "headers", {}).values():
            sent = value.values() if isinstance(value, dict) else [value]  # federation: per provider
            values += [secret.get_secret_value() for secret in sent]
    return tuple(values)


def masked(value: Any, secrets: tuple[str, ...]) -> Any:
    """*value* with every string redacted of *secrets* (values taken from the environment)."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {key: masked(item, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [masked(item, secrets) for item in value]
    return value
