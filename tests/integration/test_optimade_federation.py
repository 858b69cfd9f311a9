"""The OPTIMADE federation over real loopback servers: a providers list, the reference index
meta-database, five reference databases with their own prefixes and provider fields, one
database that hangs and one that answers 500 (see :mod:`tests.servers.optimade_federation`).

The federation is registered once per module on one router; then the Materials Cloud double
is stopped, so every test below sees one registered database down.
"""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import pytest

from schemarouter_integrations import InvocationUnavailableError, PlanRequest, SchemaRouter
from schemarouter_integrations.adapters._optimade.federation import FederationReport
from tests.servers.optimade_federation import Federation, start_federation

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

LIVE_BAND_GAP = ["alexandria_pbe", "gnome_main", "oqmd_main"]
DOWN = "mcloudarchive_twod"
BAND_GAP_SI = PlanRequest(
    query="band gap of Si", arguments={"formula": "Si"}, fallback_scope="cross_provider"
)


@pytest.fixture(scope="module")
def federation() -> Iterator[Federation]:
    fed = start_federation()
    try:
        yield fed
    finally:
        fed.stop()


@pytest.fixture(scope="module")
def registered(federation: Federation) -> tuple[SchemaRouter, FederationReport]:
    router = SchemaRouter()

    async def register() -> FederationReport:
        return await router.add_optimade_federation(federation.providers_url, timeout_seconds=1.0)

    report = anyio.run(register)
    federation.databases["mcloudarchive"].stop()  # registered while up, down from now on
    return router, report


@pytest.fixture
def router(registered: tuple[SchemaRouter, FederationReport]) -> SchemaRouter:
    """The federated router with every cooldown cleared."""
    router = registered[0]
    for path in router.inspect().execution.unavailable_access_paths:
        router.mark_access_available(*path.split("."))
    return router


def test_every_live_database_is_registered_and_the_failing_ones_are_reported(
    registered: tuple[SchemaRouter, FederationReport],
) -> None:
    router, report = registered
    assert report.registered == ["alexandria_pbe", "gnome_main", "mcloudarchive_twod", "mp_main", "oqmd_main"]
    assert sorted(report.skipped) == ["aiida", "oqmd_broken", "oqmd_hang", "oqmd_staging"]
    assert "timed out" in report.skipped["oqmd_hang"]
    assert "500" in report.skipped["oqmd_broken"]
    assert "aggregate='staging'" in report.skipped["oqmd_staging"]
    assert "base_url is null" in report.skipped["aiida"]
    gnome = router.tools["gnome_main"]
    assert (gnome.provider, gnome.access_mode) == ("gnome", "optimade")
    assert set(router.inspect().health.probes) == {f"{n}.search_structures" for n in report.registered}


def test_provider_band_gap_names_become_one_canonical_field_only_where_listed(
    registered: tuple[SchemaRouter, FederationReport],
) -> None:
    router, _ = registered

    def band_gap_path(tool: str) -> list[str] | None:
        field = next((f for f in router.tools[tool].endpoints[0].fields if f.name == "band_gap"), None)
        return None if field is None else field.wire_path

    assert band_gap_path("gnome_main") == ["_gnome_bandgap"]
    assert band_gap_path("alexandria_pbe") == ["_alexandria_band_gap"]
    assert band_gap_path("oqmd_main") == ["_oqmd_band_gap"]
    assert band_gap_path("mp_main") is None  # serves no band gap: nothing is assumed
    fields = {f.name: f.wire_path for f in router.tools["alexandria_pbe"].endpoints[0].fields}
    assert fields["energy_above_hull"] == ["_alexandria_hull_distance"]


async def test_a_band_gap_question_falls_back_across_databases_while_one_is_down(
    router: SchemaRouter,
) -> None:
    request = BAND_GAP_SI.model_copy(update={"preferred_tools": [DOWN]})
    plan = router.plan(request)
    assert plan.primary is not None and plan.primary.tool == DOWN
    rejected = {r.tool: r.reason for r in plan.rejected}
    assert "mp_main" in rejected and "mp_main" in plan.explain()

    result = await router.invoke(request)

    assert result.route[0] == f"{DOWN}.search_structures"
    assert result.tool in LIVE_BAND_GAP and result.fallbacks == 1
    assert result.records[0]["band_gap"] is not None
    assert f"{DOWN}.search_structures" in router.inspect().execution.unavailable_access_paths


async def test_gather_returns_every_live_database_tagged_and_the_down_one_as_a_failure(
    router: SchemaRouter,
) -> None:
    gathered = await router.gather(BAND_GAP_SI.model_copy(update={"fallback_scope": "disabled"}))

    assert sorted(r.tool for r in gathered.results) == LIVE_BAND_GAP
    assert list(gathered.failures) == [f"{DOWN}.search_structures"]
    assert isinstance(gathered.failures[f"{DOWN}.search_structures"], InvocationUnavailableError)
    by_provider = {r["provider"]: r["band_gap"] for r in gathered.records}
    assert by_provider == {"alexandria": 0.715, "gnome": 0.665, "oqmd": 0.615}
    assert all(r["tool"] in LIVE_BAND_GAP for r in gathered.records)
    seqs = [e.seq for e in gathered.events]
    assert seqs == sorted(set(seqs)) and gathered.events[-1].type == "run.end"


async def test_gather_mode_of_the_langchain_tool_shows_values_side_by_side(router: SchemaRouter) -> None:
    from schemarouter_integrations.langchain import SchemaRouterTool

    tool = SchemaRouterTool(router=router, name="materials", mode="gather")
    message = await tool.ainvoke(
        {"type": "tool_call", "id": "1", "name": "materials", "args": {"query": "band gap", "formula": "Si"}}
    )

    assert "Si: alexandria=0.715; gnome=0.665; oqmd=0.615" in message.content
    assert f"Not answered: {DOWN}.search_structures" in message.content
    assert sorted(r.tool for r in message.artifact.results) == LIVE_BAND_GAP


async def test_calling_it_again_refreshes_keeps_unchanged_contracts_and_removes_unlisted(
    federation: Federation,
) -> None:
    oqmd, gnome = federation.databases["oqmd"].url, federation.databases["gnome"].url
    async with SchemaRouter() as router:
        first = await router.add_optimade_federation([oqmd, gnome], timeout_seconds=2.0)
        fingerprint = router.tools["gnome_main"].fingerprint
        again = await router.add_optimade_federation([oqmd, gnome], timeout_seconds=2.0)
        assert first.registered == again.registered == ["gnome_main", "oqmd_main"]
        assert again.unchanged == ["gnome_main", "oqmd_main"]
        assert router.tools["gnome_main"].fingerprint == fingerprint

        shrunk = await router.add_optimade_federation([oqmd], timeout_seconds=2.0)
        assert (shrunk.registered, shrunk.removed) == (["oqmd_main"], ["gnome_main"])
        assert "gnome_main" not in router.tools and router.binding_state("gnome_main") == "unbound"


async def test_include_and_exclude_filter_provider_ids(federation: Federation) -> None:
    async with SchemaRouter() as router:
        report = await router.add_optimade_federation(
            federation.providers_url, include=["gnome", "mp", "oqmd"], exclude=["oqmd"], probes=False
        )
    assert report.registered == ["gnome_main", "mp_main"]
    assert report.skipped == {}
