"""Availability: cooldown marks of access paths and the events that announce them."""

from .cooldowns import CooldownTracker

__all__ = ["CooldownTracker"]
