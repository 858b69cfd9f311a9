"""What a registration that adds many tools at once reports back."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["FederationReport"]


@dataclass(frozen=True)
class FederationReport:
    """What one ``add_optimade_federation`` call did.

    ``registered``: every tool of the federation that is registered now (new, replaced or
    unchanged), sorted; ``skipped``: what was left out (a provider id, or the tool name of a
    database) -> why; ``unchanged``: the registered tools whose contract was already
    registered as is (not registered again, fingerprint kept); ``removed``: tools of an
    earlier call on the same source (the same URL; the bundled list; any list of database
    URLs) that the federation no longer lists. A database still listed that fails this time
    keeps its earlier contract (its health is the cooldowns' business).
    """

    registered: list[str]
    skipped: dict[str, str]
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
