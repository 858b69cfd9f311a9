"""A one-endpoint band-gap contract on an origin, shared by the origin tests."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, ToolSpec

MP = "https://api.materialsproject.org"


def band_gap_tool(name: str, provider: str, origin: str | None) -> ToolSpec:
    """``<name>.search``: read-only, takes ``formula``, serves ``band_gap`` and ``formula``."""
    return ToolSpec(
        name=name,
        provider=provider,
        origin=origin,
        endpoints=[
            EndpointSpec(
                name="search",
                input_schema={"type": "object", "properties": {"formula": {"type": "string"}}},
                fields=[FieldSpec(name="band_gap"), FieldSpec(name="formula")],
                read_only=True,
            )
        ],
    )
