"""The default identity rule the adapters share (``adapters/_fields.py``)."""

from __future__ import annotations

from typing import TypedDict

from schemarouter_integrations import EndpointSpec, FieldSpec
from schemarouter_integrations.adapters._fields import is_identity_name, with_identity_defaults


class Row(TypedDict):
    formula: str
    band_gap: float


def test_a_field_named_id_or_ending_in_id_identifies_a_record() -> None:
    assert is_identity_name("id")
    assert is_identity_name("material_id")
    assert not is_identity_name("idle_time")


def test_a_field_named_like_an_argument_identifies_a_record() -> None:
    assert is_identity_name("formula", ["formula", "limit"])
    assert not is_identity_name("band_gap", ["formula"])


def test_defaults_mark_only_the_fields_the_rule_names() -> None:
    fields = with_identity_defaults([FieldSpec(name="id"), FieldSpec(name="band_gap")])
    assert [f.identity for f in fields] == [True, False]


def test_an_explicit_identity_is_kept() -> None:
    (field,) = with_identity_defaults([FieldSpec(name="formula", identity=False)], ["formula"])
    assert field.identity is False


def test_identity_is_part_of_the_contract_fingerprint() -> None:
    plain = EndpointSpec(name="e", fields=[FieldSpec(name="id")])
    marked = EndpointSpec(name="e", fields=with_identity_defaults([FieldSpec(name="id")]))
    assert plain.fingerprint != marked.fingerprint


def test_optimade_marks_the_id_and_the_reduced_formula() -> None:
    from schemarouter_integrations.adapters._optimade.contract import entry_fields

    fields = entry_fields(
        {"id": {}, "chemical_formula_reduced": {}, "elements": {}, "_oqmd_band_gap": {}}, "oqmd"
    )
    assert {f.name for f in fields if f.identity} == {"id", "chemical_formula_reduced"}


def test_a_callable_marks_the_field_named_like_its_parameter() -> None:
    from schemarouter_integrations.adapters._python import build_callable_route

    def search(formula: str) -> list[Row]:
        return []

    spec, _ = build_callable_route(search, name="py")
    assert [(f.name, f.identity) for f in spec.endpoints[0].fields] == [
        ("formula", True),
        ("band_gap", False),
    ]
