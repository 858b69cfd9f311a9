"""Build a router from a :class:`RouterConfig`: the store, the cooldowns, each route and its probe.

``SchemaRouter.from_config`` calls :func:`build_router` with its own class as *factory*,
so this layer (below ``_router``) needs no import of the router. Routes are registered in
file order. A route whose source cannot be read (a ``RegistrationError``: its server is
down, a timeout, a 401, not a document) is left pending (``inspect().pending``, retried
in the background, see ``_health/pending``) unless *strict*; any other failure, and that
one under *strict*, closes the router and raises an error naming the file, the line and
the route: no half-built router is returned.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from .._redaction import redact
from ..adapters._entries import HttpRouteEntry, RouteEntry, _Route
from ..adapters._kinds import Kind, kind_named
from ..adapters._requests import EntryContext
from ..adapters._url_entries import add_url_entry
from ..errors import ConfigurationError, RegistrationError, SchemaRouterError
from ._loader import LandscapeError, load_config
from ._models import RouterConfig

__all__ = ["build_router", "resolve_target"]

R = TypeVar("R")
logger = logging.getLogger("schemarouter_integrations.registration")


async def build_router(
    factory: Callable[..., R], source: RouterConfig | str | os.PathLike[str], *, strict: bool = False
) -> R:
    """A router made by *factory* (``SchemaRouter``) with everything *source* declares."""
    config = source if isinstance(source, RouterConfig) else load_config(source)
    router = factory(settings=config.settings())
    target: Any = router
    target.cache_policy = config.tool.cache
    for provider, limit in config.rate_limits.items():
        target.set_rate_limit(provider, limit, provider=True)
    try:
        with _python_path(config):
            for name, route in config.routes.items():
                await _add(target, config, name, route, strict=strict)
    except BaseException:
        await target.aclose()
        raise
    return router


async def _add(router: Any, config: RouterConfig, name: str, route: RouteEntry, *, strict: bool) -> None:
    try:
        await _register(router, config, name, route)
    except LandscapeError:
        raise
    except ConfigurationError as exc:
        raise _located(config, ("routes", name), str(exc)) from exc
    except RegistrationError as exc:
        from ..adapters._network import AddressRefusedError  # adapters are loaded by now

        # a function's contract, and an address the connection rule refuses, will not change by waiting
        if strict or not _kind_of(route).retried or isinstance(exc, AddressRefusedError):
            raise _relabelled(exc, f"{config.where('routes', name)}: {exc}") from exc
        describe = partial(_reason, _route_secrets(config, route))
        reason = describe(exc)
        router._pending.add(name, reason, partial(_register, router, config, name, route), describe)
        router.registry.mark_pending(name)
        logger.warning(
            "%s: not registered yet, retried in the background: %s", config.where("routes", name), reason
        )
    except SchemaRouterError as exc:
        raise _relabelled(exc, f"{config.where('routes', name)}: {exc}") from exc


def _reason(secrets: tuple[str, ...], exc: BaseException) -> str:
    """Why a route is pending, with the values that may be secrets masked."""
    text = str(exc) or type(exc).__name__
    return redact(text if isinstance(exc, SchemaRouterError) else f"{type(exc).__name__}: {text}", secrets)


def _route_secrets(config: RouterConfig, route: RouteEntry) -> tuple[str, ...]:
    """The route's header and ``env`` values, and every value from the environment placed in
    its URL or command line (masked wherever a message shows them, as the routes table does)."""
    headers: list[Any] = [*getattr(route, "headers", {}).values(), *getattr(route, "env", {}).values()]
    # a federation's headers are per provider: a table of tables
    headers = [value for sent in headers for value in (sent.values() if isinstance(sent, dict) else [sent])]
    secrets = [value.get_secret_value() for value in headers]
    target = getattr(route, "url", None) or getattr(route, "target", None) or ""
    places = target if isinstance(target, list) else [target]
    secrets += [value for value in config.substituted_values if any(value in place for place in places)]
    return tuple(secrets)


async def _register(router: Any, config: RouterConfig, name: str, route: RouteEntry) -> None:
    """Add one route (and its probe) to *router* as its kind says; errors as the adapters raise them."""
    if isinstance(route, _Route):
        router.set_cache_policy(name, route.cache)
        router.set_rate_limit(name, route.rate_limit)
    context = EntryContext(resolve=partial(_resolved, config, name))
    await _kind_of(route).add(router, name, route, context)


async def _add_url(router: Any, name: str, route: HttpRouteEntry) -> None:
    """An entry of an ``add_url`` kind added by ``add_url`` (see ``adapters/_url_entries``)."""
    await add_url_entry(router, name, route, _kind_of(route).probe)


def _kind_of(route: RouteEntry) -> Kind:
    kind = kind_named(route.kind)
    if kind is None:  # a kind removed from the table after the file was read
        raise ConfigurationError(f"kind {route.kind!r} is no longer registered")
    return kind


E = TypeVar("E", bound=SchemaRouterError)


def _relabelled(error: E, message: str) -> E:
    """*error* again, same class and attributes (a ``DocumentError``'s ``reason`` ...), with
    *message*: errors whose constructor takes keyword-only arguments cannot be rebuilt from
    a message alone."""
    relabelled = type(error).__new__(type(error), message)
    relabelled.__dict__.update(error.__dict__)
    relabelled.args = (message,)
    return relabelled


def resolve_target(target: str) -> Callable[..., Any]:
    """The callable named ``"package.module:attribute.path"``; ``ImportError``/``AttributeError``."""
    module_name, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    if not callable(value):
        raise TypeError(f"{target} is a {type(value).__name__}, not a callable")
    return value  # type: ignore[no-any-return]


def _resolved(config: RouterConfig, name: str, key: str, target: str) -> Callable[..., Any]:
    try:
        value = resolve_target(target)
    except (ImportError, AttributeError, TypeError) as exc:
        raise _located(config, ("routes", name, key), f"cannot import {target}: {exc}") from None
    if key == "probe" and inspect.isclass(value):
        raise _located(config, ("routes", name, key), f"{target} is a class, not a probe function")
    return value


def _located(config: RouterConfig, keys: tuple[str, ...], message: str) -> LandscapeError:
    from ._locate import dotted, line_of

    return LandscapeError(
        f"{config.where(*keys)}: {message}",
        path=config.source,
        line=line_of(config._lines, keys),
        key=dotted(keys),
    )


@contextmanager
def _python_path(config: RouterConfig) -> Iterator[None]:
    """``python_path`` folders (relative to the file) on ``sys.path`` while routes are added."""
    base = config.source.parent if config.source is not None else Path.cwd()
    added = [str((base / folder).resolve()) for folder in config.python_path]
    added = [folder for folder in added if folder not in sys.path]
    sys.path[:0] = added
    try:
        yield
    finally:
        for folder in added:
            if folder in sys.path:
                sys.path.remove(folder)
