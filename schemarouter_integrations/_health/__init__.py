"""Health: trusted probes, the background monitor and the service that owns them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes as _lazy_attributes

if TYPE_CHECKING:
    from .probes import Probe as Probe
    from .probes import ProbeEntry as ProbeEntry
    from .probes import ProbeOutcome as ProbeOutcome
    from .probes import run_probe as run_probe


__all__, __getattr__, __dir__ = _lazy_attributes(
    globals(),
    {
        ".probes": ("Probe", "ProbeEntry", "ProbeOutcome", "run_probe"),
    },
)
