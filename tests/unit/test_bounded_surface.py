"""The model-facing schema stays bounded whatever the registry: at most MAX_MODEL_ARGUMENTS
canonical arguments in at most MAX_MODEL_SCHEMA_BYTES, the most widely accepted first, and
the description says that more exist."""

from __future__ import annotations

import json

from schemarouter_integrations import EndpointSpec, FieldSpec, SchemaRouter, ToolSpec
from schemarouter_integrations._framework import ToolSurface
from schemarouter_integrations._framework.arguments import MAX_MODEL_ARGUMENTS, MAX_MODEL_SCHEMA_BYTES


def many_endpoints(count: int) -> SchemaRouter:
    """*count* endpoints, each with its own argument plus the shared ``formula``."""
    router = SchemaRouter()
    endpoints = [
        EndpointSpec(
            name=f"search_{i}",
            read_only=True,
            input_schema={
                "type": "object",
                "properties": {"formula": {"type": "string"}, f"filter_{i:03d}": {"type": "string"}},
            },
            fields=[FieldSpec(name="band_gap")],
        )
        for i in range(count)
    ]
    router.register(ToolSpec(name="big", provider="p", endpoints=endpoints))
    return router


def test_a_small_registry_shows_every_argument() -> None:
    surface = ToolSurface(many_endpoints(3))
    assert set(surface.arguments.json_schema()["properties"]) == {
        "query",
        "formula",
        "filter_000",
        "filter_001",
        "filter_002",
        "filters",  # any filter by name
    }
    assert surface.arguments.hidden == ()
    assert "not listed" not in surface.description


def test_a_large_registry_shows_a_bounded_schema_and_says_more_exist() -> None:
    surface = ToolSurface(many_endpoints(500))
    properties = surface.arguments.json_schema()["properties"]
    assert len(properties) - 2 <= MAX_MODEL_ARGUMENTS  # query and filters come on top
    assert len(json.dumps(surface.arguments.json_schema())) <= MAX_MODEL_SCHEMA_BYTES
    assert "formula" in properties  # accepted by every route: shown first
    assert len(surface.arguments.hidden) == 501 - (len(properties) - 2)
    assert f"{len(surface.arguments.hidden)} more optional argument(s)" in surface.description


def test_hidden_arguments_are_not_top_level_keys() -> None:
    surface = ToolSurface(many_endpoints(500))
    hidden = surface.arguments.hidden[0]
    model = surface.arguments.model
    try:
        model.model_validate({"query": "band gap", hidden: "x"})
    except ValueError as refused:
        assert hidden in str(refused)
    else:
        raise AssertionError("a hidden argument was accepted")
