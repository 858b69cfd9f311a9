"""The router's settings: one frozen object, checked once, however the settings arrive.

``SchemaRouter(...)`` keywords (:meth:`SchemaRouterSettings.from_keywords`) and a landscape
file's ``[router]``, ``[availability]``, ``[cooldown]`` and ``[answer_cache]`` sections
(``RouterConfig.settings()``, which the CLI's ``--document-cache`` and ``--state`` reach
through ``[router]``) both end in a :class:`SchemaRouterSettings`; the router builds its
services from that object alone (``SchemaRouter(settings=...)``) and keeps it as
``router.settings``. Nothing is set on the router or its services after construction.

A value of the wrong kind raises :class:`~schemarouter_integrations.errors.ConfigurationError`
naming the setting (:class:`~schemarouter_integrations.errors.InvalidCallbackError` for a
callback that cannot be called) before anything is built.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from ._contracts import CooldownPolicy
from ._execution.hops import DEFAULT_MAX_HOPS, check_max_hops
from .errors import ConfigurationError, InvalidCallbackError
from .stores import AnswerCache, AvailabilityStore, RateLimiterBackend

if TYPE_CHECKING:
    import httpx

__all__ = ["DEFAULT_MAX_RESPONSE_BYTES", "Clock", "Resolver", "SchemaRouterSettings", "Sleep"]

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Resolver = Callable[[str], Awaitable[Sequence[str]]]
DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
"""The largest document or answer body read from a source (10 MiB)."""


@dataclass(frozen=True, kw_only=True)
class SchemaRouterSettings:
    """Every setting of a :class:`~schemarouter_integrations.SchemaRouter`, frozen and checked.

    Two settings objects with the same values are equal, whether they came from keywords or
    from a landscape file. ``dataclasses.replace(settings, max_hops=2)`` is a checked copy.
    ``availability_store=None`` gives each router its own in-process store.
    """

    cooldown: CooldownPolicy = field(default_factory=CooldownPolicy)
    """How long failed paths stay out of planning."""
    clock: Clock = time.monotonic
    """Monotonic seconds (injectable for tests)."""
    availability_store: AvailabilityStore | None = None
    """Where cooldowns live (None: this router's own memory)."""
    sleep: Sleep = anyio.sleep
    """The sleep between retries and of the health monitor (injectable for tests)."""
    rng: random.Random | None = None
    """The random source of backoff jitter (None: the module's)."""
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    """The largest document or answer body read from a source."""
    http_client: httpx.AsyncClient | None = None
    """The HTTP client to use (None: the router pools its own per event loop)."""
    allow_private_networks: bool = False
    """Lift the connection rule for addresses learned from fetched documents."""
    resolver: Resolver | None = None
    """An async ``host -> [IP address strings]`` for the connection rule (None: the system's)."""
    document_cache: Path | None = None
    """A folder keeping the last good copy of every fetched document (None: none)."""
    answer_cache: AnswerCache | None = None
    """Where recent answers are kept (None: nowhere)."""
    rate_limiter: RateLimiterBackend | None = None
    """Where rate-limit state lives (None: chosen from the availability store)."""
    max_hops: int = DEFAULT_MAX_HOPS
    """How many routers a call may have passed through before this router refuses it."""

    def __post_init__(self) -> None:
        _check_kind("cooldown", self.cooldown, CooldownPolicy, "a CooldownPolicy")
        _check_kind("availability_store", self.availability_store, AvailabilityStore, "an AvailabilityStore")
        for name in ("clock", "sleep", "resolver"):
            value = getattr(self, name)
            if value is not None and not callable(value):
                raise InvalidCallbackError(f"{name} must be callable, got {type(value).__name__}")
        size = self.max_response_bytes
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ConfigurationError(f"max_response_bytes must be a positive integer, got {size!r}")
        if not isinstance(self.allow_private_networks, bool):
            kind = type(self.allow_private_networks).__name__
            raise ConfigurationError(f"allow_private_networks must be True or False, got {kind}")
        folder: object = self.document_cache
        if folder is not None and not isinstance(folder, str | os.PathLike):
            raise ConfigurationError(f"document_cache must be a folder path, got {type(folder).__name__}")
        if folder is not None and not isinstance(folder, Path):  # a str or another PathLike
            object.__setattr__(self, "document_cache", Path(folder))
        _check_kind("answer_cache", self.answer_cache, AnswerCache, "an AnswerCache")
        _check_kind("rate_limiter", self.rate_limiter, RateLimiterBackend, "a RateLimiterBackend")
        check_max_hops(self.max_hops)

    @classmethod
    def from_keywords(
        cls,
        cooldown: CooldownPolicy | None = None,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        **settings: Any,
    ) -> SchemaRouterSettings:
        """The settings ``SchemaRouter(...)`` keywords give: None for ``cooldown``, ``clock`` or
        ``sleep`` is its default; every other keyword is a field of the same name."""
        defaults: dict[str, Any] = {"cooldown": cooldown, "clock": clock, "sleep": sleep}
        given = {name: value for name, value in defaults.items() if value is not None}
        return cls(**given, **settings)

    def replace(self, **changes: Any) -> SchemaRouterSettings:
        """A checked copy with *changes* (``dataclasses.replace``)."""
        return dataclasses.replace(self, **changes)


def _check_kind(name: str, value: object, kind: type, described: str) -> None:
    if value is not None and not isinstance(value, kind):
        raise ConfigurationError(f"{name} must be {described}, got {type(value).__name__}")
