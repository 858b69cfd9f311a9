"""Canonical names for provider properties that mean the same quantity across OPTIMADE databases.

Each database names its own properties ``_<prefix>_<name>``; the same quantity is
``_oqmd_band_gap`` in one and ``_gnome_bandgap`` in another. :data:`CANONICAL_FIELDS` maps a
canonical field to the wire names known in the field (read from the databases' own clients;
see ``PROVIDER_FIELDS.md`` in the project's fixtures). The canonical names are those of the
source users ask first, the Materials Project's REST API (``formation_energy_per_atom``,
``energy_above_hull``, ``band_gap``), so a question put to it falls back to the OPTIMADE
databases that hold the same quantity. A mapping is applied only to a property that the
database's ``/info/<entry>`` lists, never assumed; a wire name with a dot
(``_odbx_thermodynamics.hull_distance``, ``_mp_stability.gga_gga+u_r2scan.energy_above_hull``)
reads keys inside an object property, and where several wire names of one canonical field sit
in the same property the first listed is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import RegistrationError

__all__ = ["CANONICAL_ALIASES", "CANONICAL_FIELDS", "CanonicalName", "canonical_table", "lookup"]

CANONICAL_FIELDS: dict[str, tuple[str, ...]] = {
    "band_gap": (
        "_oqmd_band_gap",
        "_alexandria_band_gap",
        "_gnome_bandgap",
        "_mcloudarchive_band_gap",
        "_twodmatpedia_band_gap",
    ),
    "formation_energy_per_atom": (
        "_oqmd_delta_e",
        "_mp_stability.gga_gga+u_r2scan.formation_energy_per_atom",
        "_mp_stability.gga_gga+u.formation_energy_per_atom",
        "_mp_stability.r2scan.formation_energy_per_atom",
    ),
    "energy_above_hull": (
        "_oqmd_stability",
        "_alexandria_hull_distance",
        "_odbx_thermodynamics.hull_distance",
        "_mp_stability.gga_gga+u_r2scan.energy_above_hull",
        "_mp_stability.gga_gga+u.energy_above_hull",
        "_mp_stability.r2scan.energy_above_hull",
    ),
}
"""Canonical field -> provider wire names (eV for band gaps, eV/atom for the energies)."""

CANONICAL_ALIASES: dict[str, tuple[str, ...]] = {
    "band_gap": ("band gap", "bandgap", "gap"),
    "formation_energy_per_atom": ("formation energy", "formation_energy", "delta_e"),
    "energy_above_hull": ("energy above hull", "hull distance", "stability", "e_above_hull"),
}
"""Words that name each canonical field besides its own name."""


@dataclass(frozen=True, slots=True)
class CanonicalName:
    """What a listed property becomes: the canonical *name*, read from *path* on the wire."""

    name: str
    path: tuple[str, ...]


def canonical_table(
    extra: Mapping[str, str | Sequence[str]] | None = None,
    base: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, tuple[str, ...]]:
    """*base* (default :data:`CANONICAL_FIELDS`) extended by *extra* (``{"band_gap": ["_mydb_gap"]}``)."""
    table = {name: tuple(wires) for name, wires in (CANONICAL_FIELDS if base is None else base).items()}
    for name, wires in (extra or {}).items():
        listed = (wires,) if isinstance(wires, str) else tuple(wires)
        if not isinstance(name, str) or not name or not all(isinstance(w, str) and w for w in listed):
            raise RegistrationError("field_aliases must map canonical names to provider property names")
        table[name] = tuple(dict.fromkeys((*table.get(name, ()), *listed)))
    return table


def lookup(
    table: Mapping[str, Sequence[str]], properties: Mapping[str, object]
) -> dict[str, list[CanonicalName]]:
    """Listed property -> the canonical names it serves (a dotted wire name reads inside it)."""
    out: dict[str, list[CanonicalName]] = {}
    for name in sorted(table):
        for wire in table[name]:
            head, *rest = wire.split(".")
            served = out.setdefault(head, []) if head in properties else None
            if served is not None and all(c.name != name for c in served):  # the first listed wins
                served.append(CanonicalName(name, (head, *rest)))
    return {head: served for head, served in out.items() if served}
