"""Health: cooldowns, probes and the monitor."""

from .cooldowns import CooldownTracker

__all__ = ["CooldownTracker"]
