"""The router's constructor settings, checked before anything is built."""

from __future__ import annotations

from .._contracts import CooldownPolicy
from ..errors import ConfigurationError, InvalidCallbackError
from ..stores import AvailabilityStore

__all__ = ["check_settings"]


def check_settings(
    cooldown: object,
    clock: object,
    store: object,
    sleep: object,
    max_response_bytes: object,
    allow_private_networks: object = False,
    resolver: object = None,
) -> None:
    """Refuse settings of the wrong kind with a ``ConfigurationError`` (or ``InvalidCallbackError``)."""
    if cooldown is not None and not isinstance(cooldown, CooldownPolicy):
        raise ConfigurationError(f"cooldown must be a CooldownPolicy, got {type(cooldown).__name__}")
    if store is not None and not isinstance(store, AvailabilityStore):
        raise ConfigurationError(
            f"availability_store must be an AvailabilityStore, got {type(store).__name__}"
        )
    for name, fn in (("clock", clock), ("sleep", sleep), ("resolver", resolver)):
        if fn is not None and not callable(fn):
            raise InvalidCallbackError(f"{name} must be callable, got {type(fn).__name__}")
    if (
        isinstance(max_response_bytes, bool)
        or not isinstance(max_response_bytes, int)
        or max_response_bytes < 1
    ):
        raise ConfigurationError(f"max_response_bytes must be a positive integer, got {max_response_bytes!r}")
    if not isinstance(allow_private_networks, bool):
        raise ConfigurationError(
            f"allow_private_networks must be True or False, got {type(allow_private_networks).__name__}"
        )
