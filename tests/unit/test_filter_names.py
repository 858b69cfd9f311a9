"""A range filter's stem names the field its description names (``k_vrh_min``: "... of the
bulk modulus" -> ``bulk_modulus``), read from the document alone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.emmet_document import SUMMARY, ask, emmet_router
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

RECORD = {
    "type": "object",
    "properties": {
        "material_id": {"type": "string"},
        "bulk_modulus": {"type": "object", "additionalProperties": {"type": "number"}},
        "band_gap": {"type": "number"},
    },
}


def elasticity(*filters: tuple[str, str]) -> dict[str, Any]:
    parameters = [param(name, schema={"type": "number"}, description=text) for name, text in filters]
    listing = {"type": "array", "items": RECORD}
    return document({"/elasticity": get("search_elasticity", parameters=parameters, schema=listing)})


async def aliases_of(doc: dict[str, Any]) -> dict[str, list[str]]:
    spec, _, _ = await build({DOC_URL: doc})
    endpoint = spec.endpoint("search_elasticity")
    assert endpoint is not None
    return {f.name: list(f.aliases) for f in endpoint.fields}


async def test_a_range_filters_stem_is_an_alias_of_the_field_its_description_names() -> None:
    text = "Minimum value for the Voigt-Reuss-Hill average of the bulk modulus in GPa."
    aliases = await aliases_of(elasticity(("k_vrh_min", text), ("k_vrh_max", text)))
    assert aliases["bulk_modulus"] == ["k_vrh"]


async def test_a_filter_named_like_its_field_adds_no_alias() -> None:
    aliases = await aliases_of(elasticity(("band_gap_min", "Minimum band gap, not the bulk modulus.")))
    assert aliases["bulk_modulus"] == [] and aliases["band_gap"] == []


async def test_a_filter_whose_description_names_no_field_adds_no_alias() -> None:
    aliases = await aliases_of(elasticity(("k_vrh_min", "Minimum value of K.")))
    assert all(found == [] for found in aliases.values())


async def test_a_symbol_the_documents_filters_use_names_its_field_in_a_question() -> None:
    router = await emmet_router(None)
    plan = router.plan(ask("K_VRH and G_VRH of mp-8062", material_ids="mp-8062"))
    assert plan.need == ["bulk_modulus", "shear_modulus"] and plan.unmatched == []
    assert plan.primary is not None and plan.primary.endpoint == SUMMARY
