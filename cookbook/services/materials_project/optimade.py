"""The OPTIMADE reference server as the Materials Project's OPTIMADE endpoint (prefix ``mp``).

MP's OPTIMADE serves no band gap; its provider property ``_mp_stability`` holds, per
functional (``gga_gga+u``, ``gga_gga+u_r2scan``, ``r2scan``), an object with
``energy_above_hull`` and ``formation_energy_per_atom``. The structures are the prototypes
of :mod:`cookbook.services.optimade_data` under the Materials Project's ids.
"""

from __future__ import annotations

from typing import Any

from cookbook.services.optimade_data import build_structures
from cookbook.services.optimade_server import ProviderDouble

MP_IDS = {
    "Si": "mp-149",
    "AsGa": "mp-2534",
    "GaN": "mp-804",
    "ClNa": "mp-22862",
    "MgO": "mp-1265",
    "Fe": "mp-13",
    "Fe2O3": "mp-19770",
}
"""Reduced formula (OPTIMADE's alphabetical form) -> material id, for the structures served."""

# formula -> (energy above hull, formation energy per atom) in eV/atom, GGA/GGA+U
_STABILITY = {
    "Si": (0.0, 0.0),
    "AsGa": (0.0, -0.46),
    "GaN": (0.0, -0.67),
    "ClNa": (0.0, -2.11),
    "MgO": (0.0, -3.05),
    "Fe": (0.0, 0.0),
    "Fe2O3": (0.013, -1.71),
}

MP_FIELDS: list[dict[str, Any]] = [
    {
        "name": "stability",
        "type": "dictionary",
        "description": (
            "Thermodynamic stability per functional (gga_gga+u, gga_gga+u_r2scan, r2scan): "
            "energy_above_hull and formation_energy_per_atom, in eV/atom."
        ),
    }
]


def mp_structures() -> list[dict[str, Any]]:
    """The structures MP's OPTIMADE double serves, ``stability`` stored unprefixed."""
    served = []
    for structure in build_structures():
        attributes = dict(structure["attributes"])
        formula = attributes["chemical_formula_reduced"]
        if formula not in MP_IDS:
            continue
        hull, formation = _STABILITY[formula]
        for provider_field in ("band_gap", "stability", "delta_e"):
            attributes.pop(provider_field, None)
        attributes["immutable_id"] = MP_IDS[formula]
        attributes["stability"] = {
            "gga_gga+u": {"energy_above_hull": hull, "formation_energy_per_atom": formation},
            "gga_gga+u_r2scan": {"energy_above_hull": hull, "formation_energy_per_atom": formation},
            "r2scan": {"energy_above_hull": hull, "formation_energy_per_atom": round(formation * 1.05, 3)},
        }
        served.append({"type": "structures", "id": MP_IDS[formula], "attributes": attributes})
    return served


MP_OPTIMADE = ProviderDouble(
    "mp",
    "Materials Project OPTIMADE double",
    "Loopback stand-in for the Materials Project OPTIMADE API, used in tests.",
    MP_FIELDS,
    mp_structures,
)
