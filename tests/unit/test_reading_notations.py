"""Well-known notations of science (``_registry/notations.py``, :data:`NOTATIONS`): a symbol
written as one question word ("Eg", "E_F") reads as the words it stands for when the
registered documents use those words; otherwise it stays as written. The contract is ours:
a wafer inspection service."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec

SCHEMA = {"type": "object", "properties": {"lot": {"type": "string"}}}


def wafers(*fields: FieldSpec) -> SchemaRouter:
    out = SchemaRouter()
    endpoint = EndpointSpec(
        name="wafer_search",
        description="Search inspected wafers.",
        read_only=True,
        input_schema=SCHEMA,
        fields=[FieldSpec(name="wafer_id", identity=True), *fields],
    )
    out.register(ToolSpec(name="fab", endpoints=[endpoint]))
    return out


GAP = FieldSpec(name="band_gap", description="Optical band gap in eV.")
FERMI = FieldSpec(name="fermi_energy", description="Fermi energy in eV.")
THICKNESS = FieldSpec(name="thickness", description="Wafer thickness in micrometres.")


def test_a_band_gap_symbol_reads_as_the_band_gap() -> None:
    plan = wafers(GAP, THICKNESS).plan(PlanRequest(query="Eg of lot 7", arguments={"lot": "7"}))
    assert plan.need == ["band_gap"] and plan.unmatched == []


def test_a_symbol_with_its_subscript_written_reads_the_same() -> None:
    plan = wafers(GAP, FERMI).plan(PlanRequest(query="E_F and E_g of lot 7", arguments={"lot": "7"}))
    assert plan.need == ["fermi_energy", "band_gap"]


def test_an_abbreviation_with_dots_is_no_symbol() -> None:
    plan = wafers(GAP, THICKNESS).plan(
        PlanRequest(query="thickness, e.g. Eg, of lot 7", arguments={"lot": "7"})
    )
    assert plan.need == ["thickness", "band_gap"]


def test_a_symbol_is_spelled_out_only_once_a_document_uses_its_words() -> None:
    router = wafers(THICKNESS)
    request = PlanRequest(query="Eg of lot 7", arguments={"lot": "7"})
    before = router.plan(request)
    assert before.primary is None and before.unmatched == ["eg"]
    gaps = EndpointSpec(name="gap_search", read_only=True, input_schema=SCHEMA, fields=[GAP])
    router.register(ToolSpec(name="optics", endpoints=[gaps]))
    assert router.plan(request).need == ["band_gap"]


def tracks_router() -> SchemaRouter:
    """A music catalogue: every track's record, and each track's similarity scores."""
    arguments = {"type": "object", "properties": {"track_ids": {"type": "string"}}}
    out = SchemaRouter()
    search = EndpointSpec(
        name="search_tracks",
        description="Search tracks.",
        keywords=["tracks"],
        read_only=True,
        input_schema=arguments,
        fields=[FieldSpec(name="track_id", identity=True), FieldSpec(name="title"), FieldSpec(name="tempo")],
    )
    similarity = EndpointSpec(
        name="search_track_similarity",
        description="Get track similarity documents.",
        keywords=["similarity"],
        read_only=True,
        input_schema=arguments,
        fields=[FieldSpec(name="track_id", identity=True), FieldSpec(name="matches")],
    )
    out.register(ToolSpec(name="music", endpoints=[search, similarity]))
    return out


def test_a_negated_word_no_document_uses_ranks_the_operations_about_its_base() -> None:
    plan = tracks_router().plan(
        PlanRequest(query="dissimilarity scores of track 5", arguments={"track_ids": "5"})
    )
    assert plan.primary is not None and plan.primary.endpoint == "search_track_similarity"
