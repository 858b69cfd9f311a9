"""Routers for questions from the wild: a GitHub-like API with several operations serving the
same fields, and a materials API whose records only identity fields tell apart."""

from __future__ import annotations

from typing import Any

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    SchemaRouter,
    ServerProjectionSpec,
    ToolCall,
    ToolSpec,
)

REPO_INPUT = {
    "type": "object",
    "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}},
    "required": ["owner", "repo"],
    "additionalProperties": False,
}


def repo_endpoint(name: str, description: str, keywords: list[str], *fields: str) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        keywords=keywords,
        input_schema=REPO_INPUT,
        fields=[FieldSpec(name=f) for f in fields],
        read_only=True,
    )


def github_router() -> SchemaRouter:
    """listIssues, listPulls (both serve ``title`` and ``number``) and getRepo, as the OpenAPI
    adapter describes them: operationId, summary + description, tags and path segments."""
    router = SchemaRouter()
    router.register(
        ToolSpec(
            name="github",
            provider="github",
            access_mode="openapi",
            endpoints=[
                repo_endpoint(
                    "listIssues",
                    "List repository issues. Issues are returned newest first.",
                    ["issues", "repos", "owner", "repo"],
                    "title",
                    "number",
                    "state",
                ),
                repo_endpoint(
                    "listPulls",
                    "List pull requests of a repository.",
                    ["pulls", "repos", "owner", "repo"],
                    "title",
                    "number",
                ),
                repo_endpoint(
                    "getRepo",
                    "Get a repository.",
                    ["repos", "owner", "repo"],
                    "full_name",
                    "stargazers_count",
                ),
            ],
        )
    )
    return router


SI_RECORDS = {
    "data": [
        {"material_id": "mp-149", "formula_pretty": "Si", "band_gap": 0.61, "density": 2.3},
        {"material_id": "mp-1095", "formula_pretty": "Si", "band_gap": 0.0, "density": 2.1},
    ]
}


async def si_records(call: ToolCall) -> Any:
    """Two Si polymorphs; no record carries an elastic modulus."""
    return SI_RECORDS


def si_router() -> SchemaRouter:
    """mp_api with identity fields ``material_id`` and ``formula``, projected through ``_fields``."""
    router = SchemaRouter()
    router.register(
        ToolSpec(
            name="mp_api",
            provider="materials_project",
            access_mode="openapi",
            endpoints=[
                EndpointSpec(
                    name="search",
                    read_only=True,
                    records_path=["data"],
                    input_schema={
                        "type": "object",
                        "properties": {"formula": {"type": "string"}},
                        "additionalProperties": False,
                    },
                    fields=[
                        FieldSpec(name="material_id", identity=True),
                        FieldSpec(name="formula", path=["formula_pretty"], identity=True),
                        FieldSpec(name="band_gap", aliases=["gap"]),
                        FieldSpec(name="density"),
                        FieldSpec(name="elastic_modulus", aliases=["elastic modulus"]),
                    ],
                    projection=ServerProjectionSpec(
                        parameter="_fields", field_map={"formula": "formula_pretty"}
                    ),
                )
            ],
        ),
        si_records,
    )
    return router
