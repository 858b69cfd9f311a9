"""Build the OPTIMADE structures served by the OQMD-like and Alexandria-like doubles.

``python -m cookbook.services.optimade_data`` rewrites ``cookbook/services/data/oqmd_structures.jsonl``.

Geometries are textbook prototypes with approximate PBE lattice constants; the provider
values (``band_gap`` in eV, ``stability`` = hull distance in eV/atom, ``delta_e`` = formation
energy in eV/atom) are approximate, OQMD-like test numbers.  In the database they are stored
without prefix; the server exposes them as ``_oqmd_band_gap``, ``_oqmd_stability`` and
``_oqmd_delta_e`` because the config declares them under ``provider_fields``.
"""

import json
import math
import string
from collections import Counter
from functools import reduce
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"
STRUCTURES_JSONL = DATA_DIR / "oqmd_structures.jsonl"
LAST_MODIFIED = "2024-05-01T00:00:00Z"

Vec = list[float]


def _scale(vectors: list[Vec], factor: float) -> list[Vec]:
    return [[round(factor * x, 6) for x in v] for v in vectors]


def _frac_to_cart(frac: list[Vec], lattice: list[Vec]) -> list[Vec]:
    return [[round(sum(f[i] * lattice[i][k] for i in range(3)), 6) for k in range(3)] for f in frac]


def _fcc(a: float) -> list[Vec]:
    return _scale([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]], a / 2)


def _bcc(a: float) -> list[Vec]:
    return _scale([[-1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, -1.0]], a / 2)


def _hexagonal(a: float, c: float) -> list[Vec]:
    return [[a, 0.0, 0.0], [round(-a / 2, 6), round(a * math.sqrt(3) / 2, 6), 0.0], [0.0, 0.0, c]]


def _rhombohedral_from_hex(a: float, c: float) -> list[Vec]:
    hexa = _hexagonal(a, c)
    frac = [[2 / 3, 1 / 3, 1 / 3], [-1 / 3, 1 / 3, 1 / 3], [-1 / 3, -2 / 3, 1 / 3]]
    return _frac_to_cart(frac, hexa)


def _formulae(symbols: list[str]) -> dict[str, Any]:
    counts = Counter(symbols)
    divisor = reduce(math.gcd, counts.values())
    reduced = {el: n // divisor for el, n in counts.items()}
    elements = sorted(reduced)

    def fmt(pairs: list[tuple[str, int]]) -> str:
        return "".join(f"{el}{n if n > 1 else ''}" for el, n in pairs)

    by_count = sorted(reduced.values(), reverse=True)
    anonymous = fmt([(string.ascii_uppercase[i], n) for i, n in enumerate(by_count)])
    total = sum(counts.values())
    return {
        "elements": elements,
        "nelements": len(elements),
        "elements_ratios": [counts[el] / total for el in elements],
        "chemical_formula_reduced": fmt([(el, reduced[el]) for el in elements]),
        "chemical_formula_anonymous": anonymous,
    }


def _structure(
    entry_id: str,
    descriptive: str,
    lattice: list[Vec],
    sites: list[tuple[str, Vec]],
    *,
    fractional: bool,
    band_gap: float | None,
    stability: float | None,
    delta_e: float | None,
) -> dict[str, Any]:
    symbols = [s for s, _ in sites]
    positions = [p for _, p in sites]
    cart = _frac_to_cart(positions, lattice) if fractional else positions
    species_names = sorted(set(symbols))
    attributes: dict[str, Any] = {
        **_formulae(symbols),
        "chemical_formula_descriptive": descriptive,
        "dimension_types": [1, 1, 1],
        "nperiodic_dimensions": 3,
        "lattice_vectors": lattice,
        "cartesian_site_positions": cart,
        "nsites": len(sites),
        "species": [{"name": el, "chemical_symbols": [el], "concentration": [1.0]} for el in species_names],
        "species_at_sites": symbols,
        "structure_features": [],
        "last_modified": {"$date": LAST_MODIFIED},
        "immutable_id": f"oqmd-entry-{entry_id}",
        # provider fields, stored unprefixed (served as _oqmd_<name>)
        "band_gap": band_gap,
        "stability": stability,
        "delta_e": delta_e,
    }
    return {"type": "structures", "id": entry_id, "attributes": attributes}


def build_structures() -> list[dict[str, Any]]:
    diamond = [[0.0, 0.0, 0.0], [0.25, 0.25, 0.25]]
    rocksalt = [[0.0, 0.0, 0.0], [0.5, 0.5, 0.5]]
    u = 0.377  # wurtzite internal parameter of GaN
    wurtzite = [
        ("Ga", [1 / 3, 2 / 3, 0.0]),
        ("Ga", [2 / 3, 1 / 3, 0.5]),
        ("N", [1 / 3, 2 / 3, u]),
        ("N", [2 / 3, 1 / 3, 0.5 + u]),
    ]
    x_fe, x_o = 0.3553, 0.5528  # corundum (R-3c) Wyckoff parameters, rhombohedral setting
    corundum = [
        ("Fe", [x_fe, x_fe, x_fe]),
        ("Fe", [0.5 - x_fe, 0.5 - x_fe, 0.5 - x_fe]),
        ("Fe", [-x_fe, -x_fe, -x_fe]),
        ("Fe", [0.5 + x_fe, 0.5 + x_fe, 0.5 + x_fe]),
        ("O", [x_o, 0.5 - x_o, 0.25]),
        ("O", [0.25, x_o, 0.5 - x_o]),
        ("O", [0.5 - x_o, 0.25, x_o]),
        ("O", [-x_o, 0.5 + x_o, 0.75]),
        ("O", [0.75, -x_o, 0.5 + x_o]),
        ("O", [0.5 + x_o, 0.75, -x_o]),
    ]
    return [
        _structure(
            "4486",
            "Si",
            _fcc(5.469),
            [("Si", diamond[0]), ("Si", diamond[1])],
            fractional=True,
            band_gap=0.615,
            stability=0.0,
            delta_e=0.0,
        ),
        _structure(
            "4493",
            "Ge",
            _fcc(5.763),
            [("Ge", diamond[0]), ("Ge", diamond[1])],
            fractional=True,
            band_gap=0.0,
            stability=0.0,
            delta_e=0.0,
        ),
        _structure(
            "6727",
            "GaAs",
            _fcc(5.750),
            [("Ga", diamond[0]), ("As", diamond[1])],
            fractional=True,
            band_gap=0.194,
            stability=0.0,
            delta_e=-0.361,
        ),
        _structure(
            "8064",
            "GaN",
            _hexagonal(3.216, 5.240),
            wurtzite,
            fractional=True,
            band_gap=1.720,
            stability=0.0,
            delta_e=-0.652,
        ),
        _structure(
            "5246",
            "NaCl",
            _fcc(5.696),
            [("Na", rocksalt[0]), ("Cl", rocksalt[1])],
            fractional=True,
            band_gap=5.108,
            stability=0.0,
            delta_e=-1.872,
        ),
        _structure(
            "5368",
            "MgO",
            _fcc(4.257),
            [("Mg", rocksalt[0]), ("O", rocksalt[1])],
            fractional=True,
            band_gap=4.505,
            stability=0.0,
            delta_e=-2.993,
        ),
        _structure(
            "8103",
            "Fe",
            _bcc(2.833),
            [("Fe", [0.0, 0.0, 0.0])],
            fractional=True,
            band_gap=0.0,
            stability=0.0,
            delta_e=0.0,
        ),
        _structure(
            "9142",
            "Fe2O3",
            _rhombohedral_from_hex(5.035, 13.747),
            corundum,
            fractional=True,
            band_gap=1.947,
            stability=0.006,
            delta_e=-1.697,
        ),
        _structure(
            "13215",
            "TiO2",
            _hexagonal(2.95, 4.68),
            [("Ti", [0.0, 0.0, 0.0]), ("O", [1 / 3, 2 / 3, 0.25]), ("O", [2 / 3, 1 / 3, 0.75])],
            fractional=True,
            band_gap=None,
            stability=0.412,
            delta_e=-2.914,
        ),
    ]


def write_jsonl(path: Path = STRUCTURES_JSONL, structures: list[dict[str, Any]] | None = None) -> Path:
    """Write *structures* (default: the OQMD-like ones) as the server's JSONL input."""
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {"x-optimade": {"meta": {"api_version": "1.2.0"}}}
    records = build_structures() if structures is None else structures
    lines = [json.dumps(header)] + [json.dumps(s) for s in records]
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    print(write_jsonl())


ALEXANDRIA_VALUES: dict[str, tuple[str, float | None, float | None, float]] = {
    # OQMD id -> (Alexandria-like id, PBE band gap, SCAN band gap, hull distance), test numbers
    "4486": ("agm002153", 0.58, 0.92, 0.0),
    "4493": ("agm002180", 0.0, 0.13, 0.0),
    "6727": ("agm003284", 0.21, 0.72, 0.0),
    "8064": ("agm004511", 1.77, 2.31, 0.0),
    "5246": ("agm001943", 5.02, 5.71, 0.0),
    "5368": ("agm002602", 4.46, 5.95, 0.0),
    "8103": ("agm000087", 0.0, 0.0, 0.0),
    "9142": ("agm005010", 2.01, None, 0.004),
    "13215": ("agm006628", None, None, 0.398),
}


def build_alexandria_structures() -> list[dict[str, Any]]:
    """The same prototypes as an Alexandria-like database: its ids and provider fields.

    Stored unprefixed (``band_gap``, ``scan_band_gap``, ``hull_distance``); the server
    exposes them as ``_alexandria_band_gap``, ``_alexandria_scan_band_gap`` and
    ``_alexandria_hull_distance``.
    """
    structures = []
    for entry in build_structures():
        new_id, gap, scan_gap, hull = ALEXANDRIA_VALUES[entry["id"]]
        attributes = {k: v for k, v in entry["attributes"].items() if k not in {"stability", "delta_e"}}
        attributes.update(
            band_gap=gap, scan_band_gap=scan_gap, hull_distance=hull, immutable_id=f"alexandria-{new_id}"
        )
        structures.append({"type": "structures", "id": new_id, "attributes": attributes})
    return structures
