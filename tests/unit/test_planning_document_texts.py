"""What a document says of its operations outside them is evidence for them: a tag's
description says what the tag's resources are ("comments are a kind of event"), and an
operation's own success-response description says what its records are ("an array of
country codes"). A response description every operation repeats says nothing."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, SchemaRouter
from tests.support.openapi import DOC_URL, build, document, get, param

pytestmark = pytest.mark.anyio

ISSUE = {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}}}
EVENTS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}


def tagged(path_item: dict[str, Any], summary: str, tag: str) -> dict[str, Any]:
    path_item["get"] |= {"summary": summary, "tags": [tag]}
    return path_item


def tracker_document() -> dict[str, Any]:
    """An issue tracker whose tag descriptions say what events are."""
    issue_id = [param("issue_id", "path", required=True)]
    return document(
        {
            "/issues/{issue_id}": tagged(
                get("getIssue", parameters=issue_id, schema=ISSUE), "Get an issue", "Issues"
            ),
            "/issues/{issue_id}/events": tagged(
                get("getEventsForIssue", parameters=issue_id, schema=EVENTS),
                "Get events of an issue",
                "Events",
            ),
        },
        tags=[
            {"name": "Issues", "description": "An issue is a unit of work in a tracker."},
            {
                "name": "Events",
                "description": "An event records an activity on an issue. Comments are a kind of event.",
            },
        ],
    )


async def tracker_primary(query: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: tracker_document()}, provider="tracker")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query, arguments={"issue_id": "7"})).primary
    return primary.endpoint if primary is not None else None


async def test_a_word_the_tag_description_uses_goes_to_the_operations_of_that_tag() -> None:
    assert await tracker_primary("comments on issue 7") == "getEventsForIssue"


async def test_a_question_about_the_record_itself_keeps_the_record() -> None:
    assert await tracker_primary("issue 7") == "getIssue"


PROFILE = {"type": "object", "properties": {"country": {"type": "string"}, "name": {"type": "string"}}}
REGIONS = {"type": "object", "properties": {"regions": {"type": "array", "items": {"type": "string"}}}}


def shop_document(region_answer: str) -> dict[str, Any]:
    """A shop's regions listing, whose records only its response description calls countries,
    beside the user's profile, whose record has a ``country`` field."""
    regions = get("getRegions", schema=REGIONS)
    regions["get"]["summary"] = "Get the list of regions where the shop is available"
    regions["get"]["responses"]["200"]["description"] = region_answer
    profile = get("getProfile", schema=PROFILE)
    profile["get"]["summary"] = "Get the profile of the current user"
    return document({"/regions": regions, "/me": profile})


async def shop_primary(query: str, region_answer: str) -> str | None:
    spec, invoker, _ = await build({DOC_URL: shop_document(region_answer)}, provider="shop")
    router = SchemaRouter()
    router.register(spec, invoker)
    primary = router.plan(PlanRequest(query)).primary
    return primary.endpoint if primary is not None else None


async def test_the_response_description_names_what_the_records_are() -> None:
    answer = "A regions object with an array of country codes"
    assert await shop_primary("countries where the shop is available", answer) == "getRegions"


async def test_without_such_a_description_the_field_reading_stays() -> None:
    assert await shop_primary("countries where the shop is available", "A list") == "getProfile"


async def test_an_operations_own_response_description_is_a_keyword_and_a_repeated_one_is_not() -> None:
    paths = {f"/things{n}": get(f"getThings{n}", schema=EVENTS) for n in range(4)}
    for item in paths.values():
        item["get"]["responses"]["200"]["description"] = "Successful Response"
    paths["/things3"]["get"]["responses"]["200"]["description"] = "A set of widgets"
    spec, _, _ = await build({DOC_URL: document(paths)})
    keywords = {endpoint.name: endpoint.keywords for endpoint in spec.endpoints}
    assert "A set of widgets" in keywords["getThings3"]
    assert all("Successful Response" not in words for words in keywords.values())


async def test_a_tag_description_word_the_operations_are_named_by_is_no_context() -> None:
    report = tagged(get("getGenomeReport", schema=EVENTS), "Get a genome report", "Genome")
    package = tagged(get("downloadGenomePackage", schema=EVENTS), "Download a genome package", "Genome")
    doc = document(
        {"/genome/report": report, "/genome/download": package},
        tags=[{"name": "Genome", "description": "Get genome data as a report, or download transcripts."}],
    )
    spec, _, _ = await build({DOC_URL: doc})
    contexts = {endpoint.name: endpoint.context.split() for endpoint in spec.endpoints}
    assert contexts == {
        "getGenomeReport": ["transcripts"],
        "downloadGenomePackage": ["transcripts"],
    }
