"""Availability: cooldown marks of access paths and the events that announce them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .cooldowns import CooldownTracker as CooldownTracker
    from .service import Availability as Availability
    from .service import Stamp as Stamp
    from .service import unstamped as unstamped


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".cooldowns": ("CooldownTracker",),
        ".service": ("Availability", "Stamp", "unstamped"),
    },
)
