"""The eight textbook materials of the summary whose values are illustrative (run in the MP venv).

Their summary documents are built by emmet-core from pymatgen structures of the textbook
prototypes, with values close to MP's public ones; the tests that came before the real test
data pin these values (Si's band gap 0.61 eV, NaCl's formation energy -2.11 eV/atom, ...).
The specialised collections hold real documents only (:mod:`mp_documents`).
"""

from __future__ import annotations

from typing import Any

# material_id, formula, structure recipe, band gap (eV), formation energy (eV/atom),
# energy above hull (eV/atom), magnetic
MATERIALS: list[tuple[str, str, str, float, float, float, bool]] = [
    ("mp-149", "Si", "diamond", 0.61, 0.0, 0.0, False),
    ("mp-2534", "GaAs", "zincblende", 1.52, -0.46, 0.0, False),
    ("mp-2172", "AlAs", "zincblende", 1.51, -0.63, 0.0, False),
    ("mp-804", "GaN", "wurtzite", 1.74, -0.67, 0.0, False),
    ("mp-22862", "NaCl", "rocksalt", 5.0, -2.11, 0.0, False),
    ("mp-1265", "MgO", "rocksalt", 4.45, -3.05, 0.0, False),
    ("mp-13", "Fe", "bcc", 0.0, 0.0, 0.0, True),
    ("mp-19770", "Fe2O3", "corundum", 2.04, -1.71, 0.013, True),
]
LATTICE = {"Si": 5.469, "GaAs": 5.75, "AlAs": 5.73, "NaCl": 5.69, "MgO": 4.26, "Fe": 2.84}
FORMULAS = {formula for _, formula, *_ in MATERIALS}


def structure_of(formula: str, recipe: str) -> Any:
    """A pymatgen structure for the textbook prototype *recipe*."""
    from pymatgen.core import Lattice, Structure
    from pymatgen.core.composition import Composition

    elements = [el.symbol for el in Composition(formula).elements]
    cubic = {"diamond": ("Fd-3m", [[0, 0, 0]]), "bcc": ("Im-3m", [[0, 0, 0]])}
    cubic |= {"zincblende": ("F-43m", [[0, 0, 0], [0.25, 0.25, 0.25]])}
    cubic |= {"rocksalt": ("Fm-3m", [[0, 0, 0], [0.5, 0.5, 0.5]])}
    if recipe in cubic:
        group, coords = cubic[recipe]
        return Structure.from_spacegroup(group, Lattice.cubic(LATTICE[formula]), elements, coords)
    if recipe == "wurtzite":
        return Structure.from_spacegroup(
            "P6_3mc", Lattice.hexagonal(3.19, 5.19), ["Ga", "N"], [[1 / 3, 2 / 3, 0], [1 / 3, 2 / 3, 0.377]]
        )
    if recipe == "corundum":
        return Structure.from_spacegroup(
            "R-3c", Lattice.hexagonal(5.04, 13.75), ["Fe", "O"], [[0, 0, 0.3553], [0.3059, 0, 0.25]]
        )
    raise ValueError(recipe)


def structures() -> dict[str, Any]:
    """Each illustrative material's structure by its id."""
    return {material_id: structure_of(formula, recipe) for material_id, formula, recipe, *_ in MATERIALS}


def summary_fields() -> dict[str, dict[str, Any]]:
    """The illustrative summary values of each material, by id (``SummaryDoc`` field names)."""
    fields: dict[str, dict[str, Any]] = {}
    for material_id, formula, _, gap, formation, hull, magnetic in MATERIALS:
        energy = formation - 5.0
        fields[material_id] = {
            "band_gap": gap,
            "is_metal": gap == 0.0,
            "is_gap_direct": formula in {"GaAs", "GaN"},
            "formation_energy_per_atom": formation,
            "energy_above_hull": hull,
            "is_stable": hull == 0.0,
            "energy_per_atom": energy,
            "uncorrected_energy_per_atom": energy,
            "is_magnetic": magnetic,
            "ordering": "FM" if magnetic else "NM",
            "theoretical": False,
        }
    return fields
