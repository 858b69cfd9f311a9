"""Parameter glosses (``_registry/glosses.py``): a question word that no operation's texts
use, but that names a parameter whose short description says what it means, ranks the
operations by that meaning. The contract is ours: a lending library."""

from __future__ import annotations

from schemarouter_integrations import EndpointSpec, FieldSpec, PlanRequest, SchemaRouter, ToolSpec
from schemarouter_integrations._registry.glosses import parameter_glosses

BOOK = {"type": "object", "properties": {"book_id": {"type": "string"}}, "required": ["book_id"]}
BOOK_FIELDS = [FieldSpec(name="book_id", identity=True), FieldSpec(name="title", label=True)]


def _endpoint(name: str, description: str, schema: dict[str, object], *fields: FieldSpec) -> EndpointSpec:
    return EndpointSpec(
        name=name,
        description=description,
        read_only=True,
        input_schema=schema,
        fields=[*BOOK_FIELDS, *fields],
    )


BOOK_RECORD = _endpoint(
    "getBook", "Get a book. Returns the complete book record.", BOOK, FieldSpec(name="author")
)
HOLDS = _endpoint(
    "getHoldsForBook",
    "Get holds on a book. Returns the holds placed on a book.",
    BOOK,
    FieldSpec(name="patron"),
)
SEARCH = _endpoint(
    "searchBooks",
    "Search books of a branch.",
    {
        "type": "object",
        "properties": {
            "branch": {"type": "string"},
            "is_reserved": {"type": "boolean", "description": "Filter to books with active holds"},
        },
    },
)
RESERVED = PlanRequest(query="who has book 42 reserved", arguments={"book_id": "42"})


def library(*endpoints: EndpointSpec) -> SchemaRouter:
    out = SchemaRouter()
    out.register(ToolSpec(name="library", endpoints=list(endpoints)))
    return out


def test_a_parameter_word_ranks_the_operations_its_description_names() -> None:
    plan = library(BOOK_RECORD, HOLDS, SEARCH).plan(RESERVED)
    assert plan.primary is not None and plan.primary.endpoint == "getHoldsForBook"
    assert plan.unmatched == []


def test_removing_the_describing_tool_forgets_its_glosses() -> None:
    router = library(BOOK_RECORD, HOLDS)
    router.register(ToolSpec(name="catalogue", endpoints=[SEARCH]))
    router.remove_tool("catalogue")
    plan = router.plan(RESERVED)
    assert plan.primary is not None and plan.primary.endpoint == "getBook"


def test_a_gloss_leaves_out_the_filtered_resource_and_the_name_itself() -> None:
    schema = {"properties": {"is_reserved": {"description": "Filter to books with active holds"}}}
    assert parameter_glosses(schema, {"search", "books", "book"}) == (
        ("reserved", ("filter", "active", "holds")),
    )


def test_a_description_that_uses_the_name_word_glosses_nothing() -> None:
    schema = {"properties": {"is_reserved": {"description": "Filter to reserved books"}}}
    assert parameter_glosses(schema, set()) == ()


def test_a_long_description_glosses_nothing() -> None:
    text = "Filter to books with active holds placed by patrons of any branch within the last month"
    assert parameter_glosses({"properties": {"is_reserved": {"description": text}}}, set()) == ()
