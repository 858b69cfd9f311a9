"""Real OpenAPI documents over loopback HTTP: the OPTIMADE reference server's own, Petstore,
GitHub's and Stripe's REST descriptions (downloaded at test time, never committed)."""

from __future__ import annotations

import json

import pytest

from schemarouter_integrations import PlanRequest, RegistrationError, SchemaRouter, ToolSpec
from tests.servers.documents_api import PETS, DocumentsApiServer, issues_of
from tests.servers.optimade_server import OptimadeServer

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

STRUCTURES = "get_structures_structures_get"
ISSUES = "issues_list_for_repo"
REPOSITORY = {"owner": "octocat", "repo": "hello-world"}


async def add_optimade_document(router: SchemaRouter, server: OptimadeServer) -> ToolSpec:
    url = f"{server.v1_url}/extensions/openapi.json"
    return await router.add_url(url, kind="openapi", name="oqmd_openapi", provider="oqmd")


# -- the OPTIMADE reference server's own document ---------------------------------------


async def test_the_optimade_document_reads_records_from_data_never_errors(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    spec = await add_optimade_document(router, optimade_server)
    listings = [e for e in spec.endpoints if e.fields]
    assert listings and all(e.records_path == ["data"] for e in listings)


async def test_optimade_attributes_are_fields_read_under_attributes(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    spec = await add_optimade_document(router, optimade_server)
    structures = spec.endpoint(STRUCTURES)
    assert structures is not None
    paths = {f.name: f.path for f in structures.fields}
    assert paths["id"] == ["id"]
    assert paths["chemical_formula_reduced"] == ["attributes", "chemical_formula_reduced"]
    assert "errors" not in paths and "links" not in paths


async def test_a_plan_for_a_structure_field_picks_the_structures_listing(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await add_optimade_document(router, optimade_server)
    plan = router.plan(
        PlanRequest(query="chemical formula of structures", fields=["chemical_formula_reduced"])
    )
    assert plan.primary is not None
    assert plan.primary.endpoint == STRUCTURES


async def test_invoke_answers_from_the_reference_servers_data(
    router: SchemaRouter, optimade_server: OptimadeServer
) -> None:
    await add_optimade_document(router, optimade_server)
    request = PlanRequest(
        query="chemical formula of structures",
        arguments={"page_limit": 5},
        fields=["id", "chemical_formula_reduced"],
    )
    result = await router.invoke(request)
    served = {s["id"]: s["attributes"]["chemical_formula_reduced"] for s in optimade_server.structures}
    assert result.route == [f"oqmd_openapi.{STRUCTURES}"]
    assert len(result.records) == 5
    assert all(served[r["id"]] == r["chemical_formula_reduced"] for r in result.records)


# -- Petstore -----------------------------------------------------------------------------


@pytest.mark.parametrize("document", ["petstore-v3.yaml", "petstore.yaml"])
async def test_petstore_operations_keep_their_names_and_read_only_flags(
    router: SchemaRouter, documents_api: DocumentsApiServer, document: str
) -> None:
    spec = await router.add_url(
        documents_api.document_url(document), kind="openapi", name="petstore", base_url=documents_api.url
    )
    assert {e.name: e.read_only for e in spec.endpoints} == {
        "listPets": True,
        "createPets": False,
        "showPetById": True,
    }


async def test_petstore_lists_pets_from_a_bare_array(
    router: SchemaRouter, documents_api: DocumentsApiServer
) -> None:
    url = documents_api.document_url("petstore-v3.yaml")
    spec = await router.add_url(url, kind="openapi", name="petstore", base_url=documents_api.url)
    pets = spec.endpoint("listPets")
    assert pets is not None and pets.records_path is None
    assert {f.name for f in pets.fields} >= {"id", "name", "tag"}
    result = await router.invoke(
        PlanRequest(query="pets", fields=["name", "tag"], preferred_tools=["petstore"])
    )
    assert result.records == [
        {"name": p["name"], "tag": p["tag"], "id": p["id"]} for p in PETS
    ]  # id: identity


# -- GitHub -------------------------------------------------------------------------------


def test_github_registers_every_operation_under_a_safe_name(github_spec: ToolSpec) -> None:
    assert len(github_spec.endpoints) == 1078
    issues = github_spec.endpoint(ISSUES)
    assert issues is not None
    assert issues.description.startswith("operationId issues/list-for-repo: List repository issues.")


def test_github_operations_carry_their_id_tags_and_path_words(github_spec: ToolSpec) -> None:
    issues = github_spec.endpoint(ISSUES)
    assert issues is not None
    assert issues.keywords == ["issues/list-for-repo", "issues", "repos"]


def test_github_reads_are_read_only_and_writes_are_not(github_spec: ToolSpec) -> None:
    flags = {e.name: e.read_only for e in github_spec.endpoints}
    assert (flags[ISSUES], flags["repos_get"], flags["issues_create"], flags["repos_delete"]) == (
        True,
        True,
        False,
        False,
    )


def test_github_records_are_found_in_arrays_and_envelopes(github_spec: ToolSpec) -> None:
    paths = {e.name: e.records_path for e in github_spec.endpoints}
    assert paths[ISSUES] is None  # a bare array of issues
    assert paths["actions_list_workflow_runs_for_repo"] == ["workflow_runs"]
    assert paths["search_issues_and_pull_requests"] == ["items"]
    assert paths["repos_get"] is None  # one repository: a lone object


async def test_a_plan_for_issue_fields_of_a_repository_picks_the_issues_listing(
    router: SchemaRouter, github_spec: ToolSpec
) -> None:
    router.register(github_spec)
    plan = router.plan(
        PlanRequest(query="issues of a repository", arguments=REPOSITORY, fields=["title", "state"])
    )
    assert plan.primary is not None
    assert plan.primary.endpoint == ISSUES


async def test_the_issues_listing_answers_over_loopback(
    router: SchemaRouter, documents_api: DocumentsApiServer
) -> None:
    url = documents_api.document_url("github.json")
    await router.add_url(url, kind="openapi", name="github", base_url=documents_api.url, tags=["issues"])
    result = await router.invoke(PlanRequest(query="issues", arguments=REPOSITORY, fields=["title", "state"]))
    expected = issues_of(REPOSITORY["owner"], REPOSITORY["repo"])
    # id and node_id are identity fields; the server here leaves node_id out, so it is absent
    assert result.records == [{"title": i["title"], "state": i["state"], "id": i["id"]} for i in expected]


async def test_a_mistyped_operation_is_a_short_error_naming_the_closest(
    router: SchemaRouter, documents_api: DocumentsApiServer
) -> None:
    url = documents_api.document_url("github.json")
    with pytest.raises(RegistrationError) as caught:
        await router.add_url(url, kind="openapi", name="github", operations=["issues/list-for-rep"])
    assert len(str(caught.value)) < 500
    assert "'issues/list-for-repo'" in str(caught.value)
    assert router.tools == {}


async def test_operations_and_tags_together_keep_what_satisfies_both(
    router: SchemaRouter, documents_api: DocumentsApiServer
) -> None:
    url = documents_api.document_url("github.json")
    spec = await router.add_url(
        url,
        kind="openapi",
        name="github",
        base_url=documents_api.url,
        operations=["issues/list-for-repo", "repos/get"],
        tags=["issues"],
    )
    assert [e.name for e in spec.endpoints] == [ISSUES]


# -- Stripe -------------------------------------------------------------------------------


def test_stripe_lists_hold_their_records_at_data(stripe_spec: ToolSpec) -> None:
    customers = stripe_spec.endpoint("GetCustomers")
    assert customers is not None and customers.read_only is True
    assert customers.records_path == ["data"]
    assert {"email", "name", "id"} <= {f.name for f in customers.fields}


def test_stripe_keeps_its_operation_ids_and_marks_posts_as_writes(stripe_spec: ToolSpec) -> None:
    created = stripe_spec.endpoint("PostCustomers")
    assert created is not None and created.read_only is False
    assert len(stripe_spec.endpoints) == 588


async def test_a_stripe_plan_for_customer_emails_answers_from_the_list(
    router: SchemaRouter, documents_api: DocumentsApiServer
) -> None:
    url = documents_api.document_url("stripe.json")
    await router.add_url(
        url, kind="openapi", name="stripe", base_url=documents_api.url, operations=["GetCustomers"]
    )
    result = await router.invoke(PlanRequest(query="customers", fields=["email", "name"]))
    assert result.records == [{"email": "ada@example.org", "name": "Ada", "id": "cus_1"}]  # id: identity


async def test_the_model_facing_schema_of_github_stays_bounded(
    router: SchemaRouter, github_spec: ToolSpec
) -> None:
    from schemarouter_integrations._framework import ToolSurface
    from schemarouter_integrations._framework.arguments import MAX_MODEL_ARGUMENTS, MAX_MODEL_SCHEMA_BYTES

    router.register(github_spec)
    surface = ToolSurface(router)
    schema = surface.arguments.json_schema()
    assert len(schema["properties"]) - 2 <= MAX_MODEL_ARGUMENTS  # query and filters on top
    assert len(json.dumps(schema)) <= MAX_MODEL_SCHEMA_BYTES  # from 66 KB when every argument was shown
    assert {"owner", "repo"} <= set(schema["properties"])
    assert "more optional argument(s)" in surface.description
