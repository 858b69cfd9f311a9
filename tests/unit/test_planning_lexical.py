"""Choosing the operation: endpoints ranked by how well the query's words match their texts."""

from __future__ import annotations

import pytest

from schemarouter_integrations import (
    EndpointSpec,
    FieldSpec,
    NoRouteError,
    PlanRequest,
    SchemaRouter,
    ServerProjectionSpec,
    ToolSpec,
)
from schemarouter_integrations._framework import model_error_message
from tests.support.questions import REPO_INPUT, github_router, repo_endpoint, si_router
from tests.support.seed import seed_router

REPO = {"owner": "octocat", "repo": "hello-world"}


def ask(router: SchemaRouter, query: str, **arguments: object) -> str | None:
    plan = router.plan(PlanRequest(query=query, arguments=arguments))
    return plan.primary.endpoint if plan.primary is not None else None


def test_the_endpoint_whose_texts_match_serves_a_need_several_endpoints_serve() -> None:
    assert ask(github_router(), "issue titles of octocat/hello-world", **REPO) == "listIssues"
    assert ask(github_router(), "titles of the pull requests", **REPO) == "listPulls"


def test_an_empty_need_is_served_by_the_endpoint_whose_texts_match() -> None:
    assert ask(github_router(), "issues of octocat/hello-world", **REPO) == "listIssues"


def test_a_word_that_chose_the_endpoint_is_not_unmatched() -> None:
    plan = github_router().plan(PlanRequest(query="issues of octocat/hello-world", arguments=REPO))
    assert plan.unmatched == []


def test_an_empty_need_selects_every_field_of_the_chosen_endpoint() -> None:
    plan = github_router().plan(PlanRequest(query="open issues", arguments=REPO))
    assert plan.primary is not None
    assert plan.primary.selected_fields == ["title", "number", "state"]


def test_words_the_chosen_endpoint_does_not_have_stay_unmatched() -> None:
    plan = github_router().plan(PlanRequest(query="issues with milestones", arguments=REPO))
    assert plan.primary is not None and plan.primary.endpoint == "listIssues"
    assert plan.unmatched == ["milestones"]


def test_an_endpoint_matching_nothing_in_the_query_is_not_chosen_for_an_empty_need() -> None:
    plan = github_router().plan(PlanRequest(query="melting point", arguments=REPO))
    assert plan.primary is None
    assert plan.unmatched == ["melting", "point"]
    assert all("matches nothing in the query" in r.reason for r in plan.rejected)


def test_a_query_without_content_words_admits_every_endpoint() -> None:
    router, _ = seed_router()
    plan = router.plan(PlanRequest(query="Si", arguments={"formula": "Si"}))
    assert plan.primary is not None and plan.primary.tool == "mp_api"
    assert plan.unmatched == []


@pytest.mark.anyio
async def test_invoking_an_empty_need_of_unmatched_words_raises_no_route_naming_them() -> None:
    with pytest.raises(NoRouteError) as caught:
        await si_router().invoke(PlanRequest(query="melting point of Si", arguments={"formula": "Si"}))
    assert caught.value.unmatched == ("melting point",)
    expected = ["band_gap", "density", "elastic_modulus", "formula", "material_id"]
    assert sorted(caught.value.answerable) == expected


@pytest.mark.anyio
async def test_the_model_reads_which_words_no_source_exposes_and_what_it_can_answer() -> None:
    with pytest.raises(NoRouteError) as caught:
        await si_router().invoke(PlanRequest(query="melting point of Si", arguments={"formula": "Si"}))
    message = model_error_message(caught.value)
    assert message is not None
    assert message.startswith("No data source exposes 'melting point'")
    assert "The sources can answer: material_id, band_gap, density, elastic_modulus, formula." in message


def endpoint(name: str, description: str, *, cost: float = 1.0, projection: bool = False) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        input_schema=REPO_INPUT,
        fields=[FieldSpec(name="title")],
        read_only=True,
        cost_units=cost,
        projection=ServerProjectionSpec(parameter="fields") if projection else None,
    )


def ranked(*endpoints: EndpointSpec, query: str = "issue titles") -> list[str]:
    router = SchemaRouter()
    router.register(ToolSpec(name="api", provider="p", endpoints=list(endpoints)))
    plan = router.plan(
        PlanRequest(query=query, arguments=REPO, fallback_scope="same_provider", max_fallbacks=5)
    )
    return [c.endpoint for c in plan.calls]


def test_the_operation_words_rank_before_field_similarity() -> None:
    order = ranked(endpoint("issues", "List issues"), endpoint("titles", "Pulls", projection=True))
    assert order == ["issues", "titles"]


def test_the_lexical_score_ranks_before_cost() -> None:
    order = ranked(endpoint("cheap", "List pulls", cost=0.1), endpoint("issues", "List issues", cost=5))
    assert order == ["issues", "cheap"]


def test_preferred_tools_rank_before_the_lexical_score() -> None:
    router = github_router()
    router.register(ToolSpec(name="mirror", endpoints=[repo_endpoint("titles", "Pulls mirror", [], "title")]))
    plan = router.plan(PlanRequest(query="issue titles", arguments=REPO, preferred_tools=["mirror"]))
    assert plan.primary is not None and plan.primary.tool == "mirror"


def test_the_exact_spelling_outranks_an_inflection() -> None:
    order = ranked(
        endpoint("getIssue", "Get an issue"), endpoint("listIssues", "List issues"), query="issues"
    )
    assert order == ["listIssues", "getIssue"]


def test_keywords_count_like_the_description() -> None:
    tagged = EndpointSpec(
        name="x1",
        keywords=["issues"],
        input_schema=REPO_INPUT,
        fields=[FieldSpec(name="title")],
        read_only=True,
    )
    assert ranked(endpoint("x0", "Something else"), tagged, query="issues") == ["x1"]


def test_a_removed_tool_no_longer_scores() -> None:
    router = github_router()
    router.register(
        ToolSpec(name="tracker", endpoints=[repo_endpoint("bugs", "Bugs and issues", ["issues"], "title")])
    )
    router.remove_tool("github")
    plan = router.plan(PlanRequest(query="issues", arguments=REPO))
    assert plan.primary is not None and plan.primary.tool == "tracker"


def test_a_replaced_contract_scores_by_its_new_texts() -> None:
    router = github_router()
    router.register(
        ToolSpec(
            name="github", endpoints=[repo_endpoint("listPulls", "List pull requests", ["pulls"], "title")]
        )
    )
    assert ask(router, "issues", **REPO) is None
    assert ask(router, "pulls", **REPO) == "listPulls"


def test_identity_fields_are_selected_and_projected_with_the_need() -> None:
    plan = si_router().plan(PlanRequest(query="band gap of Si", arguments={"formula": "Si"}))
    assert plan.primary is not None
    assert plan.primary.selected_fields == ["band_gap", "material_id", "formula"]
    assert plan.primary.server_projection == {"_fields": "band_gap,material_id,formula_pretty"}
