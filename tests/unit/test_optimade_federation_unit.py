"""The federation's offline parts: the canonical field table, the bundled providers list,
``meta.request_delay`` bounds."""

from __future__ import annotations

import pytest

from schemarouter_integrations.adapters._optimade.canonical import CANONICAL_FIELDS, canonical_table
from schemarouter_integrations.adapters._optimade.contract import entry_fields
from schemarouter_integrations.adapters._optimade.invoker import MAX_REQUEST_DELAY_SECONDS, request_delay
from schemarouter_integrations.adapters._optimade.links import bundled_providers
from schemarouter_integrations.errors import RegistrationError

PROPERTIES = {
    "id": {},
    "chemical_formula_reduced": {},
    "_gnome_bandgap": {"unit": "eV"},
    "_odbx_thermodynamics": {},
    "_gnome_other": {},
}


def test_the_table_names_the_band_gap_formation_energy_and_hull_distance_of_known_databases() -> None:
    assert {
        "_oqmd_band_gap",
        "_alexandria_band_gap",
        "_gnome_bandgap",
        "_mcloudarchive_band_gap",
        "_twodmatpedia_band_gap",
    } <= set(CANONICAL_FIELDS["band_gap"])
    assert "_oqmd_delta_e" in CANONICAL_FIELDS["formation_energy_per_atom"]
    assert {"_oqmd_stability", "_alexandria_hull_distance"} <= set(CANONICAL_FIELDS["energy_above_hull"])


def test_a_listed_property_becomes_the_canonical_field_and_keeps_its_names_as_aliases() -> None:
    fields = {f.name: f for f in entry_fields(PROPERTIES, "gnome", canonical_table())}
    assert fields["band_gap"].wire_path == ["_gnome_bandgap"]
    assert {"_gnome_bandgap", "bandgap"} <= set(fields["band_gap"].aliases)
    assert fields["energy_above_hull"].wire_path == ["_odbx_thermodynamics", "hull_distance"]
    assert fields["other"].wire_path == ["_gnome_other"]  # the _<prefix>_<name> rule stays
    assert "formation_energy_per_atom" not in fields  # not listed: never assumed


def test_without_a_table_the_prefix_rule_alone_applies() -> None:
    names = {f.name for f in entry_fields(PROPERTIES, "gnome")}
    assert "bandgap" in names and "band_gap" not in names


def test_field_aliases_extend_the_table() -> None:
    table = canonical_table({"band_gap": "_mydb_gap", "refractive_index": ["_mydb_n"]})
    assert table["band_gap"][-1] == "_mydb_gap" and table["refractive_index"] == ("_mydb_n",)
    with pytest.raises(RegistrationError):
        canonical_table({"band_gap": [""]})


def test_the_bundled_providers_list_is_read_from_the_installed_package() -> None:
    providers = bundled_providers()
    assert len(providers) > 20 and any(p["id"] == "mp" for p in providers)


@pytest.mark.parametrize(
    ("meta", "delay"),
    [
        ({"request_delay": 0.5}, 0.5),
        ({"request_delay": 60}, MAX_REQUEST_DELAY_SECONDS),
        ({"request_delay": -1}, 0.0),
        ({"request_delay": "x"}, 0.0),
        ({}, 0.0),
    ],
)
def test_request_delay_is_read_and_bounded(meta: dict[str, object], delay: float) -> None:
    assert request_delay({"meta": meta}) == delay
