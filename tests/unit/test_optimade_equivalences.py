"""Fallbacks that carry the question, in OPTIMADE's own form: several subjects as ``OR``
clauses, identity arguments on ``id``, and the equivalence table under the names of the
source users ask first (MP REST), applied to every OPTIMADE route and extendable."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import FieldSpec
from schemarouter_integrations.adapters._optimade.canonical import canonical_table
from schemarouter_integrations.adapters._optimade.contract import entry_fields
from schemarouter_integrations.adapters._optimade.filter import build_filter
from tests.unit.test_adapter_optimade import BASE, build, entry_info, info

pytestmark = pytest.mark.anyio

MP_PROPERTIES: dict[str, Any] = {
    "id": {},
    "chemical_formula_reduced": {},
    "_mp_stability": {"type": "dictionary", "description": "Stability per functional."},
}
OQMD_PROPERTIES: dict[str, Any] = {
    "id": {},
    "chemical_formula_reduced": {},
    "_oqmd_band_gap": {},
    "_oqmd_delta_e": {},
    "_oqmd_stability": {},
}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"formula": ["Si", "GaAs"]}, '(chemical_formula_reduced="Si" OR chemical_formula_reduced="AsGa")'),
        ({"formula": "Si,GaAs"}, '(chemical_formula_reduced="Si" OR chemical_formula_reduced="AsGa")'),
        (
            {"formula": "Si, Ga2As2,GaAs"},
            '(chemical_formula_reduced="Si" OR chemical_formula_reduced="AsGa")',
        ),
        ({"material_ids": ["mp-149", "mp-2534"]}, '(id="mp-149" OR id="mp-2534")'),
        ({"material_ids": "mp-149"}, 'id="mp-149"'),
        ({"ids": "mp-149,mp-2534"}, '(id="mp-149" OR id="mp-2534")'),
    ],
)
def test_subjects_go_as_optimade_clauses(arguments: dict[str, Any], expected: str) -> None:
    assert build_filter(arguments) == expected


def test_several_subjects_and_elements_are_and_ed() -> None:
    found = build_filter({"formula": ["Si", "C"], "elements": ["Si"]})
    assert (
        found == '(chemical_formula_reduced="Si" OR chemical_formula_reduced="C") AND elements HAS ALL "Si"'
    )


def fields_of(properties: dict[str, Any], prefix: str, **extra: Any) -> dict[str, FieldSpec]:
    return {f.name: f for f in entry_fields(properties, prefix, canonical_table(**extra))}


def test_oqmds_delta_e_is_mps_formation_energy_per_atom() -> None:
    fields = fields_of(OQMD_PROPERTIES, "oqmd")
    assert fields["formation_energy_per_atom"].wire_path == ["_oqmd_delta_e"]
    assert "delta_e" in fields["formation_energy_per_atom"].aliases
    assert fields["energy_above_hull"].wire_path == ["_oqmd_stability"]


def test_mps_stability_object_is_read_for_its_default_functional() -> None:
    fields = fields_of(MP_PROPERTIES, "mp")
    assert fields["formation_energy_per_atom"].wire_path == [
        "_mp_stability", "gga_gga+u_r2scan", "formation_energy_per_atom",
    ]  # fmt: skip
    assert fields["energy_above_hull"].wire_path == ["_mp_stability", "gga_gga+u_r2scan", "energy_above_hull"]


def test_field_aliases_extend_the_table() -> None:
    properties: dict[str, Any] = {"id": {}, "_mydb_gap": {}}
    fields = fields_of(properties, "mydb", extra={"band_gap": ["_mydb_gap"]})
    assert fields["band_gap"].wire_path == ["_mydb_gap"]


async def test_add_url_applies_the_table_without_being_asked() -> None:
    routes = {
        f"{BASE}/v1/info": info(entries=("structures",)),
        f"{BASE}/v1/info/structures": entry_info(OQMD_PROPERTIES),
    }
    spec, _, _ = await build(routes)
    names = {f.name for f in spec.endpoints[0].fields}
    assert {"band_gap", "formation_energy_per_atom", "energy_above_hull"} <= names


async def test_add_url_takes_field_aliases() -> None:
    properties: dict[str, Any] = {"id": {}, "chemical_formula_reduced": {}, "_oqmd_gap_pbe": {}}
    routes = {
        f"{BASE}/v1/info": info(entries=("structures",)),
        f"{BASE}/v1/info/structures": entry_info(properties),
    }
    spec, _, _ = await build(routes, field_aliases={"band_gap": ["_oqmd_gap_pbe"]})
    band_gap = next(f for f in spec.endpoints[0].fields if f.name == "band_gap")
    assert band_gap.wire_path == ["_oqmd_gap_pbe"]


async def test_material_ids_reach_the_servers_id_filter() -> None:
    routes = {
        f"{BASE}/v1/info": info(entries=("structures",)),
        f"{BASE}/v1/info/structures": entry_info(MP_PROPERTIES),
        f"{BASE}/v1/structures": {"data": [], "links": {"next": None}},
    }
    spec, invoker, server = await build(routes)
    await invoker.send(spec.endpoints[0].name, {"material_ids": ["mp-149", "mp-2534"]})
    assert server.requests[-1].url.params["filter"] == '(id="mp-149" OR id="mp-2534")'


def test_range_filters_of_a_canonical_field_go_on_its_property() -> None:
    bounds = {"band_gap_min": ("_oqmd_band_gap", ">="), "band_gap_max": ("_oqmd_band_gap", "<=")}
    found = build_filter({"band_gap_min": 1, "band_gap_max": 2.5, "formula": "GaAs"}, bounds)
    assert found == 'chemical_formula_reduced="AsGa" AND _oqmd_band_gap>=1 AND _oqmd_band_gap<=2.5'


async def test_a_route_takes_the_range_filters_of_the_canonical_fields_it_reads_whole() -> None:
    routes = {
        f"{BASE}/v1/info": info(entries=("structures",)),
        f"{BASE}/v1/info/structures": entry_info(OQMD_PROPERTIES),
        f"{BASE}/v1/structures": {"data": [], "links": {"next": None}},
    }
    spec, invoker, server = await build(routes)
    arguments = set(spec.endpoints[0].input_schema["properties"])
    assert {"band_gap_min", "energy_above_hull_max", "formation_energy_per_atom_min"} <= arguments
    await invoker.send(spec.endpoints[0].name, {"energy_above_hull_max": 0.05})
    assert server.requests[-1].url.params["filter"] == "_oqmd_stability<=0.05"


async def test_a_key_inside_an_object_takes_no_range_filter() -> None:
    routes = {
        f"{BASE}/v1/info": info(entries=("structures",)),
        f"{BASE}/v1/info/structures": entry_info(MP_PROPERTIES),
    }
    spec, _, _ = await build(routes)
    assert "energy_above_hull_max" not in spec.endpoints[0].input_schema["properties"]
