"""Natural questions over real OpenAPI documents pick the listing they are about (issue 11).

An evaluation table: each row is a phrasing a person or a model writes, and the operation
that answers it. The rules are general (BM25F over name, keywords, summary and description;
field terms explained by a field or as the route's resource; scope words from arguments):
nothing here is special-cased by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter, ToolSpec
from tests.servers.optimade_server import OptimadeServer

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

REPOSITORY = {"owner": "octocat", "repo": "hello-world"}
ISSUES = "issues_list_for_repo"
PULLS = "pulls_list"

READER_REGRESSION = pytest.mark.xfail(
    strict=True,
    reason="the reader reads 'invoices' as the invoices' own from_invoice field (need "
    "['from_invoice'], not a resource reading with every field)",
)
GITHUB: list[tuple[str, list[str] | None, str, list[str]]] = [
    ("issues of a repository", None, ISSUES, []),
    ("issues of a repository", ["title", "state"], ISSUES, ["title", "state"]),
    ("issues", None, ISSUES, []),
    ("show me the issues", None, ISSUES, []),
    ("repository issues", None, ISSUES, []),
    ("list the open issues of octocat/hello-world", None, ISSUES, []),
    ("what issues are open in this repo", None, ISSUES, []),
    ("issue titles", None, ISSUES, ["title"]),
    ("titles and states of the issues", None, ISSUES, ["title", "state"]),
    ("pull requests of this repository", None, PULLS, []),
    ("open pull requests", None, PULLS, []),
    ("pull request titles", None, PULLS, ["title"]),
]


@pytest.fixture(scope="module")
def github_router(github_spec: ToolSpec) -> SchemaRouter:
    router = SchemaRouter()
    router.register(github_spec)
    return router


@pytest.fixture(scope="module")
def stripe_router(stripe_spec: ToolSpec) -> SchemaRouter:
    router = SchemaRouter()
    router.register(stripe_spec)
    return router


def plan_of(
    router: SchemaRouter, query: str, fields: list[str] | None, **arguments: Any
) -> tuple[str | None, list[str]]:
    plan = router.plan(PlanRequest(query=query, arguments=arguments, fields=fields))
    return (plan.primary.endpoint if plan.primary is not None else None), plan.need


@pytest.mark.parametrize(("query", "fields", "endpoint", "need"), GITHUB)
async def test_github_questions_about_a_repository_pick_its_listing(
    github_router: SchemaRouter, query: str, fields: list[str] | None, endpoint: str, need: list[str]
) -> None:
    assert plan_of(github_router, query, fields, **REPOSITORY) == (endpoint, need)


async def test_the_repository_words_are_scope_not_unmatched(github_router: SchemaRouter) -> None:
    plan = github_router.plan(
        PlanRequest(query="what issues are open in this repository", arguments=REPOSITORY)
    )
    assert plan.primary is not None and plan.primary.endpoint == ISSUES
    assert plan.unmatched == []


async def test_a_word_the_listing_does_not_have_stays_unmatched(github_router: SchemaRouter) -> None:
    plan = github_router.plan(PlanRequest(query="open pull requests", arguments=REPOSITORY))
    assert plan.primary is not None and plan.primary.endpoint == PULLS
    assert plan.unmatched == ["open"]


async def test_a_resource_reading_selects_every_field_of_the_listing(github_router: SchemaRouter) -> None:
    plan = github_router.plan(PlanRequest(query="issues", arguments=REPOSITORY))
    assert plan.primary is not None
    assert {"title", "state", "number"} <= set(plan.primary.selected_fields)


@pytest.mark.parametrize(
    ("query", "fields", "endpoint", "need"),
    [
        ("customer emails", None, "GetCustomers", ["email"]),
        ("customers", None, "GetCustomers", []),
        ("list customers", None, "GetCustomers", []),
        pytest.param("invoices", None, "GetInvoices", [], marks=READER_REGRESSION),
        ("customers", ["email", "name"], "GetCustomers", ["email", "name"]),
    ],
)
async def test_stripe_questions_pick_the_listing_they_name(
    stripe_router: SchemaRouter, query: str, fields: list[str] | None, endpoint: str, need: list[str]
) -> None:
    assert plan_of(stripe_router, query, fields) == (endpoint, need)


@pytest.mark.parametrize(
    ("query", "endpoint", "need"),
    [
        ("structures", "get_structures_structures_get", []),
        ("structure ids", "get_structures_structures_get", ["id"]),
        ("elements of structures", "get_structures_structures_get", ["elements"]),
        ("references", "get_references_references_get", []),
    ],
)
async def test_optimade_document_questions_pick_the_entry_listing(
    router: SchemaRouter, optimade_server: OptimadeServer, query: str, endpoint: str, need: list[str]
) -> None:
    url = f"{optimade_server.v1_url}/extensions/openapi.json"
    await router.add_url(url, kind="openapi", name="oqmd_openapi", provider="oqmd")
    assert plan_of(router, query, None) == (endpoint, need)


@pytest.mark.parametrize(
    ("query", "endpoint", "missing"),
    [
        ("open issues with their titles, authors and number of comments", ISSUES, ["author"]),
        ("pull request titles and their reviewers", PULLS, ["reviewers"]),
        ("issue titles and their assignees and the repository license", ISSUES, ["license"]),
    ],
)
async def test_github_questions_asking_more_than_a_listing_has_get_a_partial_answer(
    github_router: SchemaRouter, query: str, endpoint: str, missing: list[str]
) -> None:
    plan = github_router.plan(PlanRequest(query=query, arguments=REPOSITORY))
    assert plan.primary is not None and plan.primary.endpoint == endpoint
    assert plan.missing == missing


async def test_a_github_argument_value_the_listing_refuses_leads_the_no_route_reasons(
    github_router: SchemaRouter,
) -> None:
    plan = github_router.plan(
        PlanRequest(query="issue titles", arguments={**REPOSITORY, "state": "sideways"})
    )
    assert plan.primary is None
    assert plan.rejected[0].reason.startswith("arguments do not fit its input schema (state: 'sideways'")
    assert len(plan.explain().splitlines()) <= 14


async def test_explain_of_a_github_plan_is_a_summary_and_grouped_rejections(
    github_router: SchemaRouter,
) -> None:
    plan = github_router.plan(PlanRequest(query="issue titles", arguments=REPOSITORY))
    lines = plan.explain().splitlines()
    assert len(lines) <= 14
    assert any("endpoints expose no field for" in line for line in lines)
    assert len(plan.explain(verbose=True).splitlines()) > 1000


async def test_a_stripe_question_asking_more_than_the_customers_listing_has_gets_a_partial_answer(
    stripe_router: SchemaRouter,
) -> None:
    plan = stripe_router.plan(PlanRequest(query="customer names and emails and their last charge"))
    assert plan.primary is not None and plan.primary.endpoint == "GetCustomers"
    assert "charge" in plan.missing and {"name", "email"} <= set(plan.need) - set(plan.missing)
