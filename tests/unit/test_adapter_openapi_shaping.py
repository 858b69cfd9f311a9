"""What an OpenAPI document says about parameter shapes: the field-selection parameter found
on its own (``projection=None``), list arguments joined for parameters that take one value
made of several, and the document read with its own timeout (httpx.MockTransport)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from schemarouter_integrations import (
    PlanRequest,
    RegistrationError,
    SchemaRouter,
    ServerProjectionSpec,
)
from schemarouter_integrations._framework import result_content
from schemarouter_integrations.adapters._url import build_url_route
from tests.support.openapi import DOC_URL, FakeApi, build, call, document, get, param

pytestmark = pytest.mark.anyio

RECORD = {
    "type": "object",
    "properties": {
        "material_id": {"type": "string"},
        "formula_pretty": {"type": "string"},
        "energy_above_hull": {"anyOf": [{"type": "number"}, {"type": "null"}]},
        "band_gap": {"type": "number", "description": "Band gap in eV"},
    },
}
ENVELOPE = {"type": "object", "properties": {"data": {"type": "array", "items": RECORD}}}
NULLABLE_TEXT = {"anyOf": [{"type": "string", "maxLength": 60}, {"type": "null"}]}


def summary(*parameters: dict[str, Any]) -> dict[str, Any]:
    """A one-operation document: ``GET /summary`` answering ``{"data": [RECORD...]}``."""
    return document({"/summary": get("summary", parameters=list(parameters), schema=ENVELOPE)})


SELECTING = param("_fields", description="Which fields each document carries, comma separated.")
ALL_FIELDS = param("_all_fields", schema={"type": "boolean"}, description="Include every field.")
ELEMENTS = param(
    "elements", schema=NULLABLE_TEXT, description="Elements that must be present, as a comma-separated list"
)


def sent(api: FakeApi) -> list[tuple[str, str]]:
    """The query of the last request the API received."""
    return list(api.requests[-1].url.params.multi_items())


# -- projection detected ---------------------------------------------------------------


async def test_a_fields_parameter_is_detected_as_the_projection() -> None:
    spec, _, _ = await build({DOC_URL: summary(SELECTING, ALL_FIELDS)})
    projection = spec.endpoints[0].projection
    assert projection is not None
    assert (projection.parameter, projection.separator) == ("_fields", ",")


async def test_a_boolean_all_fields_parameter_is_not_taken_for_the_projection() -> None:
    spec, _, _ = await build({DOC_URL: summary(ALL_FIELDS)})
    assert spec.endpoints[0].projection is None


@pytest.mark.parametrize("name", ["fields", "response_fields", "$select", "select", "_properties"])
async def test_each_documented_selection_name_is_detected(name: str) -> None:
    spec, _, _ = await build({DOC_URL: summary(param(name))})
    projection = spec.endpoints[0].projection
    assert projection is not None and projection.parameter == name


async def test_the_most_specific_selection_name_wins() -> None:
    spec, _, _ = await build({DOC_URL: summary(param("select"), param("fields"))})
    assert spec.endpoints[0].projection.parameter == "fields"  # type: ignore[union-attr]


async def test_a_parameter_whose_description_says_it_picks_the_returned_fields_is_detected() -> None:
    columns = param("columns", description="The columns to return, separated by commas.")
    spec, _, _ = await build({DOC_URL: summary(columns)})
    assert spec.endpoints[0].projection.parameter == "columns"  # type: ignore[union-attr]


async def test_a_parameter_about_fields_that_selects_nothing_is_not_detected() -> None:
    sort = param("sort_field", description="The field results are ordered by.")
    spec, _, _ = await build({DOC_URL: summary(sort)})
    assert spec.endpoints[0].projection is None


async def test_an_exploded_array_of_fields_is_not_detected() -> None:
    repeated = param("fields", schema={"type": "array", "items": {"type": "string"}})
    spec, _, _ = await build({DOC_URL: summary(repeated)})
    assert spec.endpoints[0].projection is None


async def test_an_array_of_fields_sent_as_one_value_is_detected() -> None:
    joined = param("fields", schema={"type": "array", "items": {"type": "string"}}, explode=False)
    spec, _, _ = await build({DOC_URL: summary(joined)})
    assert spec.endpoints[0].projection.parameter == "fields"  # type: ignore[union-attr]


async def test_a_required_fields_parameter_is_not_detected() -> None:
    spec, _, _ = await build({DOC_URL: summary(param("fields", required=True))})
    assert spec.endpoints[0].projection is None


async def test_the_detected_projection_parameter_is_not_an_argument() -> None:
    spec, _, _ = await build({DOC_URL: summary(SELECTING, ALL_FIELDS, ELEMENTS)})
    assert set(spec.endpoints[0].input_schema["properties"]) == {"_all_fields", "elements"}


async def test_projection_false_turns_detection_off() -> None:
    spec, _, _ = await build({DOC_URL: summary(SELECTING)}, projection=False)
    assert spec.endpoints[0].projection is None
    assert "_fields" in spec.endpoints[0].input_schema["properties"]


async def test_projection_false_for_one_operation_keeps_detection_for_the_others() -> None:
    doc = document(
        {
            "/summary": get("summary", parameters=[SELECTING], schema=ENVELOPE),
            "/other": get("other", parameters=[SELECTING], schema=ENVELOPE),
        }
    )
    spec, _, _ = await build({DOC_URL: doc}, projection={"other": False})
    assert spec.endpoint("summary").projection is not None  # type: ignore[union-attr]
    assert spec.endpoint("other").projection is None  # type: ignore[union-attr]


async def test_an_explicit_projection_is_used_as_given() -> None:
    explicit = ServerProjectionSpec(parameter="columns", separator=";", always=["material_id"])
    spec, _, _ = await build({DOC_URL: summary(SELECTING, param("columns"))}, projection=explicit)
    projection = spec.endpoints[0].projection
    assert projection is not None
    assert projection.parameter == "columns"
    assert (projection.separator, projection.always) == (";", ["material_id"])


async def test_a_detected_projection_sends_the_needed_fields_upstream() -> None:
    api = FakeApi({DOC_URL: summary(SELECTING, ALL_FIELDS)})
    api.answer = {"data": [{"material_id": "mp-19770", "energy_above_hull": 0.0}]}
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")
    result = await router.invoke(PlanRequest(query="energy above hull"))
    assert dict(sent(api))["_fields"] == "energy_above_hull,material_id,formula_pretty"  # the label too
    assert result.records == [{"energy_above_hull": 0.0, "material_id": "mp-19770"}]


# -- nulls never presented as values ---------------------------------------------------


async def test_a_field_the_source_left_out_is_absent_and_stated_not_printed_as_null() -> None:
    api = FakeApi({DOC_URL: summary(param("formula"))})
    api.answer = {"data": [{"material_id": "mp-19770"}]}
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")
    result = await router.invoke(PlanRequest(query="energy above hull", arguments={"formula": "Fe2O3"}))
    assert result.records == [{"material_id": "mp-19770"}]
    text = result_content(result)
    assert "The source did not return: energy_above_hull." in text.splitlines()
    assert "null" not in text


async def test_a_null_the_source_returned_is_kept_as_none() -> None:
    api = FakeApi({DOC_URL: summary(param("formula"))})
    api.answer = {"data": [{"material_id": "mp-19770", "energy_above_hull": None}]}
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")
    result = await router.invoke(PlanRequest(query="energy above hull", arguments={"formula": "Fe2O3"}))
    assert result.records == [{"material_id": "mp-19770", "energy_above_hull": None}]
    assert "No record has a value for: energy_above_hull." in result_content(result).splitlines()


# -- lists joined ----------------------------------------------------------------------


async def test_a_list_for_a_comma_separated_string_parameter_is_sent_joined() -> None:
    spec, invoker, api = await build({DOC_URL: summary(ELEMENTS)})
    await invoker(call(spec, "summary", {"elements": ["Ga", "As"]}))
    assert sent(api) == [("elements", "Ga,As")]


async def test_a_string_for_a_comma_separated_parameter_is_sent_as_given() -> None:
    spec, invoker, api = await build({DOC_URL: summary(ELEMENTS)})
    await invoker(call(spec, "summary", {"elements": "Ga,As"}))
    assert sent(api) == [("elements", "Ga,As")]


@pytest.mark.parametrize("words", ["comma-delimited", "comma delimited", "comma separated"])
async def test_descriptions_saying_comma_delimited_or_separated_are_joined(words: str) -> None:
    ids = param("material_ids", description=f"Material ids, {words}")
    spec, invoker, api = await build({DOC_URL: summary(ids)})
    await invoker(call(spec, "summary", {"material_ids": ["mp-1", "mp-2"]}))
    assert sent(api) == [("material_ids", "mp-1,mp-2")]


async def test_the_input_schema_of_a_comma_separated_parameter_accepts_a_list_of_its_values() -> None:
    spec, _, _ = await build({DOC_URL: summary(ELEMENTS)})
    schema = spec.endpoints[0].input_schema["properties"]["elements"]
    items = {"type": ["string", "integer", "number"], "maxLength": 60}
    assert schema["anyOf"] == [NULLABLE_TEXT, {"type": "array", "items": items}]
    assert schema["x-list-separator"] == ","
    assert schema["description"].startswith("Elements that must be present")


async def test_an_array_parameter_with_explode_false_is_sent_joined() -> None:
    listed = param("elements", schema={"type": "array", "items": {"type": "string"}}, explode=False)
    spec, invoker, api = await build({DOC_URL: summary(listed)})
    await invoker(call(spec, "summary", {"elements": ["Ga", "As"]}))
    assert sent(api) == [("elements", "Ga,As")]


async def test_an_exploded_array_parameter_repeats_the_parameter() -> None:
    listed = param("elements", schema={"type": "array", "items": {"type": "string"}})
    spec, invoker, api = await build({DOC_URL: summary(listed)})
    await invoker(call(spec, "summary", {"elements": ["Ga", "As"]}))
    assert sent(api) == [("elements", "Ga"), ("elements", "As")]


async def test_a_pipe_delimited_array_is_joined_with_pipes() -> None:
    listed = param("elements", schema={"type": "array", "items": {"type": "string"}}, style="pipeDelimited")
    spec, invoker, api = await build({DOC_URL: summary(listed)})
    await invoker(call(spec, "summary", {"elements": ["Ga", "As"]}))
    assert sent(api) == [("elements", "Ga|As")]


async def test_list_separators_joins_a_plain_string_parameter_with_its_separator() -> None:
    spec, invoker, api = await build({DOC_URL: summary(param("chemsys"))}, list_separators={"chemsys": "-"})
    await invoker(call(spec, "summary", {"chemsys": ["Ga", "As"]}))
    assert sent(api) == [("chemsys", "Ga-As")]


async def test_list_separators_overrides_what_the_description_says() -> None:
    spec, invoker, api = await build({DOC_URL: summary(ELEMENTS)}, list_separators={"elements": " "})
    await invoker(call(spec, "summary", {"elements": ["Ga", "As"]}))
    assert sent(api) == [("elements", "Ga As")]


async def test_list_separators_naming_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(RegistrationError, match="list_separators= names unknown query parameter"):
        await build({DOC_URL: summary(ELEMENTS)}, list_separators={"element": ","})


async def test_list_separators_with_an_empty_separator_is_refused() -> None:
    with pytest.raises(RegistrationError, match="no separator"):
        await build({DOC_URL: summary(ELEMENTS)}, list_separators={"elements": ""})


async def test_a_plain_string_parameter_does_not_accept_a_list() -> None:
    spec, _, _ = await build({DOC_URL: summary(param("formula"))})
    assert spec.endpoints[0].input_schema["properties"]["formula"] == {"type": "string"}


async def test_a_plan_with_a_list_for_a_comma_separated_parameter_says_it_is_joined() -> None:
    api = FakeApi({DOC_URL: summary(ELEMENTS)})
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")
    plan = router.plan(PlanRequest(query="band gap", arguments={"elements": ["Ga", "As"]}))
    assert plan.primary is not None
    assert "elements: list joined with ','" in plan.primary.explanation
    assert "elements: list joined with ','" in plan.explain()


async def test_a_list_for_an_integer_parameter_is_one_clear_rejection() -> None:
    nsites = param("nsites", schema={"type": "integer"})
    api = FakeApi({DOC_URL: summary(nsites)})
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")
    plan = router.plan(PlanRequest(query="band gap", arguments={"nsites": [1, 2]}))
    assert plan.primary is None
    (reason,) = [r.reason for r in plan.rejected]
    assert reason == (
        "arguments do not fit its input schema (argument 'nsites' is a list of integers; "
        "this route takes an integer)"
    )


@pytest.mark.parametrize("value", [[None], [[1]], [None, 1]], ids=["nulls", "nested", "mixed"])
async def test_any_list_for_an_integer_parameter_is_a_rejection_not_a_crash(value: list[Any]) -> None:
    api = FakeApi({DOC_URL: summary(param("nsites", schema={"type": "integer"}))})
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")

    plan = router.plan(PlanRequest(query="band gap", arguments={"nsites": value}))

    assert plan.primary is None
    (reason,) = [r.reason for r in plan.rejected]
    assert "argument 'nsites' is a list; this route takes an integer" in reason


async def test_a_list_of_numbers_for_a_comma_separated_text_parameter_is_sent_joined() -> None:
    counts = param("nsites_eq_any", description="Any of these numbers of sites, a comma separated list")
    spec, invoker, api = await build({DOC_URL: summary(counts)})
    await invoker(call(spec, "summary", {"nsites_eq_any": [4, 8]}))
    assert sent(api) == [("nsites_eq_any", "4,8")]


async def test_an_object_for_a_comma_separated_text_parameter_is_one_clear_rejection() -> None:
    api = FakeApi({DOC_URL: summary(ELEMENTS)})
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")
    plan = router.plan(PlanRequest(query="band gap", arguments={"elements": {"Ga": 1}}))
    (reason,) = [r.reason for r in plan.rejected]
    assert "argument 'elements' is an object; this route takes a string or a list" in reason


# -- the document's own timeout --------------------------------------------------------


class SlowDocument(FakeApi):
    """Records the read timeout each request was sent with."""

    def __init__(self, documents: dict[str, Any]) -> None:
        super().__init__(documents)
        self.timeouts: list[float | None] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.timeouts.append(request.extensions.get("timeout", {}).get("read"))
        return super().__call__(request)


async def test_the_document_is_read_with_document_timeout_seconds_and_calls_with_timeout_seconds() -> None:
    api = SlowDocument({DOC_URL: summary(ELEMENTS)})
    spec, invoker = await build_url_route(
        DOC_URL,
        kind="openapi",
        name="mp_api",
        client=api.client,
        timeout_seconds=2.0,
        document_timeout_seconds=45.0,
    )
    await invoker(call(spec, "summary", {"elements": "Ga"}))
    assert api.timeouts == [45.0, 2.0]


async def test_document_timeout_seconds_defaults_to_thirty_seconds() -> None:
    api = SlowDocument({DOC_URL: summary(ELEMENTS)})
    await build_url_route(DOC_URL, kind="openapi", name="mp_api", client=api.client, timeout_seconds=2.0)
    assert api.timeouts == [30.0]


@pytest.mark.parametrize("bad", [0.0, -1.0, float("inf")])
async def test_a_document_timeout_that_is_not_a_positive_finite_number_is_refused(bad: float) -> None:
    with pytest.raises(RegistrationError, match="document_timeout_seconds"):
        await build({DOC_URL: summary(ELEMENTS)}, document_timeout_seconds=bad)


async def test_one_value_for_a_repeated_array_parameter_is_accepted() -> None:
    ids = param("material_ids", schema={"type": "array", "items": {"type": "string"}})
    api = FakeApi({DOC_URL: summary(ids)})
    router = SchemaRouter(http_client=api.client)
    await router.add_url(DOC_URL, kind="openapi", name="mp_api")

    plan = router.plan(PlanRequest(query="band gap", arguments={"material_ids": "mp-149"}))

    assert plan.primary is not None


async def test_one_value_for_a_repeated_array_parameter_is_sent_as_a_list_of_one() -> None:
    ids = param("material_ids", schema={"type": "array", "items": {"type": "string"}})
    spec, invoker, api = await build({DOC_URL: summary(ids)})

    await invoker(call(spec, "summary", {"material_ids": "mp-149"}))

    assert sent(api) == [("material_ids", "mp-149")]
