"""A noun derived from a verb names the field named by that verb (``-ition`` -> ``-e``,
``-ization`` -> ``-ize``) ahead of a field its ending happens to spell."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec
from schemarouter_integrations._planning.need import read_query
from schemarouter_integrations._registry.words import derived_forms


def need(query: str, *fields: FieldSpec) -> tuple[str, ...]:
    router = SchemaRouter()
    schema = {"type": "object", "properties": {"formula": {"type": "string"}}}
    router.register(
        ToolSpec(
            name="t",
            endpoints=[EndpointSpec(name="search", fields=list(fields), input_schema=schema, read_only=True)],
        )
    )
    return read_query(query, router.registry.index).need.sids


REDEFINES = FieldSpec(name="redefines_as")
DEFINITION = FieldSpec(name="definition")
NORMALIZES = FieldSpec(name="normalizes_by")
CHARGE = FieldSpec(name="charge")


def test_an_ition_noun_names_the_field_its_verb_names() -> None:
    assert need("redefinition of X", DEFINITION, REDEFINES) == ("redefines_as",)


def test_an_ization_noun_names_the_field_its_verb_names() -> None:
    assert need("normalization of X", NORMALIZES, CHARGE) == ("normalizes_by",)


def test_the_derived_base_of_ition_and_ization_words() -> None:
    assert derived_forms("decomposition") == ("decompose",)
    assert derived_forms("polarization") == ("polarize",)
    assert derived_forms("edition") == ()
