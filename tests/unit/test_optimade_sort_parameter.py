"""OPTIMADE's ``sort``: property names comma-separated, ``-`` for descending; a field's name
sent as its property; anything else refused before a request is sent."""

from __future__ import annotations

import pytest

from schemarouter_integrations import FieldSpec, SchemaValidationError
from schemarouter_integrations.adapters._optimade.sorting import sort_names, sort_parameter

NAMES = {"band_gap": "_oqmd_band_gap"}


def test_comma_separated_names_keep_their_order_and_directions() -> None:
    assert sort_parameter("-nsites,chemical_formula_reduced", NAMES) == "-nsites,chemical_formula_reduced"


def test_a_list_of_names_is_joined_with_commas() -> None:
    assert sort_parameter(["nsites", "-band_gap"], NAMES) == "nsites,-_oqmd_band_gap"


def test_a_fields_name_is_sent_as_its_property() -> None:
    assert sort_parameter("band_gap", NAMES) == "_oqmd_band_gap"


@pytest.mark.parametrize("value", ["nsites desc", "", "nsites;drop", ["ok", 3], [], "--nsites"])
def test_what_is_not_property_names_is_refused(value: object) -> None:
    with pytest.raises(SchemaValidationError, match="sort"):
        sort_parameter(value, NAMES)


def test_only_fields_named_otherwise_than_their_property_are_mapped() -> None:
    fields = [
        FieldSpec(name="band_gap", path=["_oqmd_band_gap"]),
        FieldSpec(name="nsites"),
        FieldSpec(name="site_count", path=["structure", "nsites"]),
    ]
    assert sort_names(fields) == {"band_gap": "_oqmd_band_gap"}
