"""Resource words, scope words and the weighted lexical fields (issue 11's rules, on small
hand-written contracts)."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._registry.lexicon import split_description
from tests.support.questions import REPO_INPUT

REPO = {"owner": "octocat", "repo": "hello-world"}


def listing(name: str, description: str, keywords: list[str], *fields: str) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        keywords=keywords,
        input_schema=REPO_INPUT,
        fields=[FieldSpec(name=f) for f in fields],
        read_only=True,
    )


ISSUES = listing(
    "listIssues", "List repository issues. Only open issues are listed.", ["issues"], "title", "state"
)
EVENTS = listing("listIssueEvents", "List issue events.", ["issues", "events"], "event", "issue")
MILESTONES = listing("listMilestones", "List milestones.", ["issues", "milestones"], "title", "open_issues")
CUSTOMERS = listing("listCustomers", "List customers.", ["customers"], "email", "name")
INVOICES = listing("listInvoices", "List invoices.", ["invoices"], "customer_email", "customer", "total")


def router_of(*endpoints: EndpointSpec, provider: str | None = "p") -> SchemaRouter:
    router = SchemaRouter()
    router.register(ToolSpec(name="api", provider=provider, endpoints=list(endpoints)))
    return router


def ask(router: SchemaRouter, query: str, **options: object) -> tuple[str | None, list[str]]:
    plan = router.plan(PlanRequest(query=query, arguments=REPO, **options))  # type: ignore[arg-type]
    return (plan.primary.endpoint if plan.primary is not None else None), plan.need


def test_a_word_naming_the_resource_is_not_sent_to_a_record_that_merely_has_such_a_field() -> None:
    assert ask(router_of(ISSUES, EVENTS, MILESTONES), "issues") == ("listIssues", [])


def test_a_field_reading_still_wins_where_the_texts_say_so() -> None:
    assert ask(router_of(ISSUES, EVENTS), "the issue of each event") == (
        "listIssueEvents",
        ["issue", "event"],
    )


def test_a_resource_word_qualifies_the_field_after_it() -> None:
    assert ask(router_of(ISSUES, EVENTS, MILESTONES), "issue titles") == ("listIssues", ["title"])


def test_a_phrase_field_is_read_word_by_word_by_the_listing_it_names() -> None:
    assert ask(router_of(ISSUES, MILESTONES), "open issues") == ("listIssues", [])
    assert ask(router_of(INVOICES, CUSTOMERS), "customer emails") == ("listCustomers", ["email"])


def test_a_phrase_is_not_split_unless_the_route_explains_every_word() -> None:
    scan = listing("scan", "", [], "scan_band_gap")
    gaps = listing("gaps", "List gaps.", ["gaps"], "band_gap")
    router = router_of(scan, gaps)
    assert ask(router, "scan band gap") == ("scan", ["scan_band_gap"])
    assert (
        "exposes no field for 'scan_band_gap'"
        in {
            r.endpoint: r.reason
            for r in router.plan(PlanRequest(query="scan band gap", arguments=REPO)).rejected
        }["gaps"]
    )


def test_explicit_fields_are_only_ever_served_by_fields() -> None:
    assert ask(router_of(ISSUES, EVENTS), "issues", fields=["issue"]) == ("listIssueEvents", ["issue"])


def test_words_the_arguments_say_are_neither_need_nor_unmatched() -> None:
    router = router_of(ISSUES, listing("getRepo", "Get a repository.", ["repos"], "repository", "repo"))
    plan = router.plan(PlanRequest(query="issues of the repository of octocat", arguments=REPO))
    assert plan.primary is not None and plan.primary.endpoint == "listIssues"
    assert plan.need == [] and plan.unmatched == []


def test_a_short_argument_name_does_not_swallow_longer_words() -> None:
    router = router_of(listing("listIds", "List identities.", ["identities"], "identity"))
    plan = router.plan(PlanRequest(query="identity", arguments={"id": "1"}))
    assert plan.need == ["identity"]


def test_fallbacks_read_the_query_as_the_primary_does() -> None:
    router = SchemaRouter()
    router.register(ToolSpec(name="a", provider="p", endpoints=[ISSUES]))
    router.register(ToolSpec(name="b", provider="p", endpoints=[EVENTS]))
    plan = router.plan(PlanRequest(query="issues", arguments=REPO, fallback_scope="same_provider"))
    assert [c.tool for c in plan.calls] == ["a"]
    reasons = {r.tool: r.reason for r in plan.rejected}
    assert reasons["b"].startswith("reads the query as another need (issue)")


def test_the_name_and_summary_weigh_more_than_a_long_description() -> None:
    talkative = listing(
        "listThings", "List things. " + "Issues may be mentioned here. " * 3, ["things"], "title"
    )
    named = listing("listIssues", "List issues.", ["issues"], "title")
    assert ask(router_of(talkative, named), "issues")[0] == "listIssues"


def test_a_long_on_topic_description_is_not_outranked_by_a_short_off_topic_one() -> None:
    on_topic = listing(
        "a1", "List repository issues. " + "Issues and more issues, newest first. " * 8, ["issues"], "title"
    )
    off_topic = listing("a2", "List milestones.", ["issues", "milestones"], "title")
    assert ask(router_of(off_topic, on_topic), "issues", fields=["title"])[0] == "a1"


def test_the_summary_is_the_first_sentence_without_the_adapters_label() -> None:
    assert split_description("operationId issues/list-for-repo: List repository issues. More.") == (
        "List repository issues.",
        "More.",
    )
    assert split_description("GET /pets: List pets") == ("List pets", "")
