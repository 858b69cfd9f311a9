"""Reading a question's words as the documents mean them: an alias's words name its field as
the name's words do, notations built from a field's own name words, and English word forms
(``_registry/fieldwords.py``, ``_registry/notations.py``, ``_registry/words.py``). The
contract below is ours; its names and titles follow a materials database's."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec

FIELDS = [
    FieldSpec(name="material_id", identity=True, description="Identifier of the material record."),
    FieldSpec(name="band_gap", description="Band gap energy in eV."),
    FieldSpec(name="energy_above_hull", description="The energy above the hull in eV/atom."),
    FieldSpec(name="formation_energy_per_atom", description="The formation energy per atom in eV/atom."),
    FieldSpec(name="total_magnetization", description="Total magnetization in Bohr magnetons."),
    FieldSpec(name="density", description="Density in g/cm3."),
    FieldSpec(
        name="symmetry.symbol",
        path=["symmetry", "symbol"],
        aliases=["Space Group Symbol"],
        description="The spacegroup symbol for the lattice.",
    ),
    FieldSpec(
        name="symmetry.hall",
        path=["symmetry", "hall"],
        aliases=["Hall Symbol"],
        description="Hall symbol for the lattice.",
    ),
]
SCHEMA = {"type": "object", "properties": {"formula": {"type": "string"}}}


def router() -> SchemaRouter:
    out = SchemaRouter()
    endpoint = EndpointSpec(
        name="summary_search",
        description="Search materials.",
        read_only=True,
        input_schema=SCHEMA,
        fields=FIELDS,
    )
    out.register(ToolSpec(name="mp_api", provider="materials_project", endpoints=[endpoint]))
    return out


def need(query: str) -> list[str]:
    return router().plan(PlanRequest(query=query, arguments={"formula": "GaN"})).need


def test_the_words_of_an_alias_name_its_field_as_a_name_does() -> None:
    assert need("space group of GaN") == ["symmetry.symbol"]


def test_a_notation_cutting_a_name_word_to_its_initial_names_the_field() -> None:
    assert need("e_hull of GaN") == ["energy_above_hull"]


def test_a_notation_written_as_one_word_names_the_field() -> None:
    assert need("Ehull of the GaN polymorphs") == ["energy_above_hull"]


def test_initials_alone_are_no_notation() -> None:
    assert need("E_A_H of GaN") == []


def test_a_notation_never_leaves_out_the_last_word_of_the_name() -> None:
    assert need("energy_a of GaN") == []


def test_a_british_spelling_meets_an_american_field_name() -> None:
    assert need("total magnetisation of GaN") == ["total_magnetization"]


def test_an_american_spelling_meets_a_british_field_name() -> None:
    out = SchemaRouter()
    fields = [FieldSpec(name="id", identity=True), FieldSpec(name="colour_index")]
    out.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="stars", read_only=True, fields=fields)]))
    assert out.plan("color index of Vega").need == ["colour_index"]


def test_a_closed_up_compound_of_name_words_reads_as_its_words() -> None:
    out = SchemaRouter()
    fields = [
        FieldSpec(name="id", identity=True),
        FieldSpec(name="energy"),
        FieldSpec(name="energy_above_hull"),
    ]
    out.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="m", read_only=True, fields=fields)]))
    assert out.plan("energyabovehull of GaN").need == ["energy_above_hull"]


def test_a_field_named_by_the_closed_up_word_keeps_it_whole() -> None:
    out = SchemaRouter()
    fields = [FieldSpec(name="id", identity=True), FieldSpec(name="bandgap"), FieldSpec(name="band_width")]
    out.register(ToolSpec(name="t", endpoints=[EndpointSpec(name="m", read_only=True, fields=fields)]))
    assert out.plan("bandgap of GaN").need == ["bandgap"]


def test_a_word_whose_parts_are_no_name_words_stays_whole() -> None:
    assert need("zincblende GaN") == []
