"""A question for a kind of quantity no source describes is refused, naming the kind.

"pollen count in Berlin": "count" is a field of the cities' records, "pollen" is a word no
registered source uses; the cities' count of stations would answer another question
(``_planning/asked.py``, foreign modifiers).
"""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec


def router() -> SchemaRouter:
    router = SchemaRouter()
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    cities = EndpointSpec(
        name="cities",
        description="Cities with air quality stations",
        fields=[FieldSpec(name="city"), FieldSpec(name="count", description="Number of stations")],
        input_schema=schema,
        read_only=True,
    )
    router.register(ToolSpec(name="air", endpoints=[cities]))
    return router


def test_a_count_of_something_no_source_describes_is_refused_naming_it() -> None:
    plan = router().plan(PlanRequest(query="pollen count in Berlin", arguments={"city": "Berlin"}))
    assert plan.primary is None
    assert "pollen" in plan.unmatched
