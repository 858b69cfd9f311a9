"""The seed's provider landscape as contracts, for planning and execution tests.

Materials Project serves band gaps through its native API, OPTIMADE (here a hypothetical
`_mp_band_gap` provider field, as in the seed's chain) and a Python client; OQMD serves
them too. Field names follow ../shared/fixtures/PROVIDER_FIELDS.md where real.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    InvocationUnavailableError,
    RetryPolicy,
    SchemaRouter,
    ServerProjectionSpec,
    ToolCall,
    ToolSpec,
)

FORMULA_INPUT = {
    "type": "object",
    "properties": {"formula": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
    "additionalProperties": False,
}


def band_gap(path: str = "band_gap", *aliases: str) -> FieldSpec:
    return FieldSpec(name="band_gap", path=[path], aliases=list(aliases) or ["bandgap", "gap"])


def formula(path: str) -> FieldSpec:
    return FieldSpec(name="formula", path=[path], aliases=["chemical formula"])


def endpoint(
    name: str = "search",
    *,
    fields: list[FieldSpec],
    read_only: bool | None = True,
    projection: ServerProjectionSpec | None = None,
    input_schema: dict[str, Any] | None = None,
    retry: RetryPolicy | None = None,
    cost_units: float = 1.0,
) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        fields=fields,
        read_only=read_only,
        projection=projection,
        input_schema=FORMULA_INPUT if input_schema is None else input_schema,
        records_path=["data"],
        retry=retry or RetryPolicy(),
        cost_units=cost_units,
    )


def mp_api(**kw: Any) -> ToolSpec:
    return ToolSpec(
        name="mp_api",
        provider="materials_project",
        access_mode="openapi",
        endpoints=[
            endpoint(
                fields=[
                    band_gap(),
                    formula("formula_pretty"),
                    FieldSpec(
                        name="bulk_modulus", path=["bulk_modulus", "vrh"], aliases=["bulk modulus", "K_VRH"]
                    ),
                ],
                projection=ServerProjectionSpec(parameter="_fields", field_map={"formula": "formula_pretty"}),
                **kw,
            )
        ],
    )


def mp_optimade(**kw: Any) -> ToolSpec:
    return ToolSpec(
        name="mp_optimade",
        provider="materials_project",
        access_mode="optimade",
        endpoints=[
            endpoint(
                fields=[band_gap("_mp_band_gap"), formula("chemical_formula_reduced")],
                projection=ServerProjectionSpec(
                    parameter="response_fields",
                    field_map={"band_gap": "_mp_band_gap", "formula": "chemical_formula_reduced"},
                ),
                **kw,
            )
        ],
    )


def mp_python(**kw: Any) -> ToolSpec:
    return ToolSpec(
        name="mp_python",
        provider="materials_project",
        access_mode="python",
        endpoints=[endpoint(fields=[band_gap(), formula("formula_pretty")], **kw)],
    )


def oqmd_api(**kw: Any) -> ToolSpec:
    return ToolSpec(
        name="oqmd_api",
        provider="oqmd",
        access_mode="openapi",
        endpoints=[
            endpoint(
                fields=[band_gap(), formula("name")],
                projection=ServerProjectionSpec(parameter="fields", field_map={"formula": "name"}),
                **kw,
            )
        ],
    )


SEED_TOOLS = (mp_api, mp_optimade, mp_python, oqmd_api)

RECORDS: dict[str, dict[str, Any]] = {
    "mp_api": {"data": [{"material_id": "mp-149", "formula_pretty": "Si", "band_gap": 0.61}]},
    "mp_optimade": {"data": [{"id": "mp-149", "chemical_formula_reduced": "Si", "_mp_band_gap": 0.61}]},
    "mp_python": {"data": [{"material_id": "mp-149", "formula_pretty": "Si", "band_gap": 0.61}]},
    "oqmd_api": {"data": [{"entry_id": 4200, "name": "Si", "band_gap": 0.62}]},
}

Invoker = Callable[[ToolCall], Awaitable[Any]]


class FakeInvoker:
    """An in-process invoker that serves RECORDS, or fails the way it is told to."""

    def __init__(self, tool: str, fail_with: BaseException | None = None, fail_times: int = 10**9):
        self.tool = tool
        self.fail_with = fail_with
        self.fail_times = fail_times
        self.calls: list[ToolCall] = []

    async def __call__(self, call: ToolCall) -> Any:
        self.calls.append(call)
        if self.fail_with is not None and len(self.calls) <= self.fail_times:
            raise self.fail_with
        return RECORDS[self.tool]


def unavailable(message: str = "connect error") -> InvocationUnavailableError:
    return InvocationUnavailableError(message)


def seed_router(
    router: SchemaRouter | None = None, *, down: tuple[str, ...] = (), **endpoint_kw: Any
) -> tuple[SchemaRouter, dict[str, FakeInvoker]]:
    """A router with the seed's four tools bound; the tools in *down* are unavailable."""
    router = router or SchemaRouter()
    invokers = {}
    for make in SEED_TOOLS:
        spec = make(**endpoint_kw)
        invoker = FakeInvoker(spec.name, unavailable(f"{spec.name} is down") if spec.name in down else None)
        router.register(spec, invoker)
        invokers[spec.name] = invoker
    return router, invokers


def elastic_router() -> SchemaRouter:
    """Elastic modulus from two providers (one through a provider-specific OPTIMADE field);
    a third provider serves only band gaps."""
    router = SchemaRouter()
    aliases = ["탄성계수", "elastic modulus", "youngs modulus"]
    router.register(
        ToolSpec(
            name="provider_a_api",
            provider="provider_a",
            access_mode="openapi",
            endpoints=[
                endpoint(fields=[FieldSpec(name="elastic_modulus", aliases=aliases), formula("formula")])
            ],
        )
    )
    router.register(
        ToolSpec(
            name="provider_b_optimade",
            provider="provider_b",
            access_mode="optimade",
            endpoints=[
                endpoint(
                    fields=[
                        FieldSpec(
                            name="elastic_modulus",
                            semantic_id="elastic_modulus",
                            aliases=aliases,
                            path=["_provider_b_elasticity"],
                            result_path=["elastic_modulus"],
                        ),
                        formula("chemical_formula_reduced"),
                    ],
                    projection=ServerProjectionSpec(
                        parameter="response_fields",
                        field_map={"elastic_modulus": "_provider_b_elasticity"},
                    ),
                )
            ],
        )
    )
    router.register(
        ToolSpec(name="provider_c_api", provider="provider_c", endpoints=[endpoint(fields=[band_gap()])])
    )
    return router
