"""Health: trusted probes, the background monitor and the service that owns them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .probes import Probe, ProbeEntry, ProbeOutcome, run_probe

__all__ = ["Probe", "ProbeEntry", "ProbeOutcome", "run_probe"]

__getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".probes": ("Probe", "ProbeEntry", "ProbeOutcome", "run_probe"),
    },
)
