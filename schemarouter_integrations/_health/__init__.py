"""Health: trusted probes, the background monitor and the service that owns them."""

from .probes import Probe, ProbeEntry, ProbeOutcome, run_probe

__all__ = ["Probe", "ProbeEntry", "ProbeOutcome", "run_probe"]
