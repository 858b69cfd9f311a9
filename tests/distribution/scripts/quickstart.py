"""The README quick start, as a user runs it from an installed wheel: two in-process routes of
one provider, the preferred one unavailable, and the answer from its fallback."""

import asyncio
from pathlib import Path

import schemarouter_integrations
from schemarouter_integrations import InvocationUnavailableError, PlanRequest, SchemaRouter


async def mp_rest_api(formula: str) -> list[dict]:
    raise InvocationUnavailableError("api.materialsproject.org: connection refused")  # an outage


async def mp_python_client(formula: str) -> list[dict]:
    return [{"material_id": "mp-149", "formula": formula, "band_gap": 0.61}]


async def main() -> None:
    router = SchemaRouter()
    for fn, name in ((mp_rest_api, "mp_api"), (mp_python_client, "mp_python")):
        router.add_callable(
            fn,
            name=name,
            provider="materials_project",
            endpoint="search",
            read_only=True,
            fields=["band_gap", "formula", "material_id"],
        )
    request = PlanRequest(
        query="What is the band gap of Si?",
        arguments={"formula": "Si"},
        preferred_tools=["mp_api"],
        fallback_scope="same_provider",
    )
    print(router.plan(request).explain())
    result = await router.invoke(request)
    assert result.records == [{"band_gap": 0.61, "formula": "Si", "material_id": "mp-149"}], result.records
    assert result.route == ["mp_api.search", "mp_python.search"], result.route
    assert [e.type for e in result.events].count("tool.fallback") == 1
    assert "mp_api.search" in router.inspect().execution.cooldowns
    print("answered by", result.tool, "after", " -> ".join(result.route))


installed = Path(schemarouter_integrations.__file__).resolve()
assert "site-packages" in installed.parts, f"not the installed wheel: {installed}"
asyncio.run(main())
print("quick start ok")
