"""Health: cooldowns, trusted probes and the background monitor."""

from .cooldowns import CooldownTracker
from .probes import Probe, ProbeEntry, ProbeOutcome, run_probe

__all__ = ["CooldownTracker", "Probe", "ProbeEntry", "ProbeOutcome", "run_probe"]
