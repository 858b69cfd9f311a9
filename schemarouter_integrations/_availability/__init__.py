"""Availability: cooldown marks of access paths and the events that announce them."""

from .cooldowns import CooldownTracker
from .service import Availability, Stamp, unstamped

__all__ = ["Availability", "CooldownTracker", "Stamp", "unstamped"]
