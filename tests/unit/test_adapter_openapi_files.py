"""OpenAPI documents split across files: external ``$ref`` values (relative paths, URLs,
JSON pointer fragments) read with the document's limits and origin (httpx.MockTransport)."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import RegistrationError
from schemarouter_integrations.adapters._documents import MAX_REFERENCED_FILES
from tests.support.openapi import FakeApi, build, document, get

pytestmark = pytest.mark.anyio

ROOT = "http://api.test/spec/openapi.yaml"
SAMPLE = {"type": "object", "properties": {"sample_id": {"type": "string"}, "mass": {"type": "number"}}}


def listing(ref: str, operation_id: str = "listSamples") -> dict[str, Any]:
    return get(operation_id, schema={"type": "array", "items": {"$ref": ref}})


def root(paths: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return document(paths, **extra)


def requested(api: FakeApi) -> list[str]:
    return [str(r.url) for r in api.requests]


async def field_names(documents: dict[str, Any], endpoint: str = "listSamples", **options: Any) -> list[str]:
    spec, _, _ = await build(documents, ROOT, **options)
    found = spec.endpoint(endpoint)
    assert found is not None
    return [f.name for f in found.fields]


async def test_a_path_item_in_another_file_becomes_an_operation() -> None:
    documents = {
        ROOT: root({"/samples": {"$ref": "./paths/samples.yaml"}}),
        "http://api.test/spec/paths/samples.yaml": listing("#/Sample") | {"Sample": SAMPLE},
    }
    assert await field_names(documents) == ["sample_id", "mass"]


async def test_a_reference_inside_a_fetched_file_resolves_relative_to_that_file() -> None:
    documents = {
        ROOT: root({"/samples": {"$ref": "paths/samples.yaml"}}),
        "http://api.test/spec/paths/samples.yaml": listing("../schemas/sample.yaml"),
        "http://api.test/spec/schemas/sample.yaml": SAMPLE,
    }
    assert await field_names(documents) == ["sample_id", "mass"]


async def test_a_yaml_file_is_read_as_yaml() -> None:
    sample = "type: object\nproperties:\n  sample_id: {type: string}\n"
    documents = {
        ROOT: root({"/samples": listing("./sample.yaml")}),
        "http://api.test/spec/sample.yaml": sample,
    }
    assert await field_names(documents) == ["sample_id"]


async def test_a_json_pointer_fragment_picks_a_schema_inside_the_file() -> None:
    common = {"components": {"schemas": {"Sample": SAMPLE, "Other": {"type": "object"}}}}
    documents = {
        ROOT: root({"/samples": listing("common.yaml#/components/schemas/Sample")}),
        "http://api.test/spec/common.yaml": common,
    }
    assert await field_names(documents) == ["sample_id", "mass"]


async def test_an_absolute_url_on_the_documents_origin_is_read() -> None:
    documents = {
        ROOT: root({"/samples": listing("http://api.test/shared/sample.json")}),
        "http://api.test/shared/sample.json": SAMPLE,
    }
    assert await field_names(documents) == ["sample_id", "mass"]


async def test_a_file_named_twice_is_fetched_once() -> None:
    documents = {
        ROOT: root(
            {
                "/samples": listing("./sample.json"),
                "/more": listing("sample.json", "listMore"),
            }
        ),
        "http://api.test/spec/sample.json": SAMPLE,
    }
    _, _, api = await build(documents, ROOT)
    assert requested(api).count("http://api.test/spec/sample.json") == 1


async def test_files_that_refer_to_each_other_describe_a_recursive_schema() -> None:
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "leaves": {"type": "array", "items": {"$ref": "leaf.json"}},
        },
    }
    leaf = {"type": "object", "properties": {"weight": {"type": "number"}, "parent": {"$ref": "node.json"}}}
    documents = {
        ROOT: root({"/samples": listing("./node.json")}),
        "http://api.test/spec/node.json": node,
        "http://api.test/spec/leaf.json": leaf,
    }
    assert await field_names(documents) == ["name", "leaves"]


async def test_a_reference_cycle_without_content_across_files_is_a_short_error() -> None:
    documents = {
        ROOT: root({"/samples": listing("./a.json")}),
        "http://api.test/spec/a.json": {"$ref": "b.json"},
        "http://api.test/spec/b.json": {"$ref": "a.json"},
    }
    with pytest.raises(RegistrationError, match=r"\$ref cycle"):
        await build(documents, ROOT)


async def test_a_missing_file_is_a_registration_error_naming_the_reference() -> None:
    documents = {ROOT: root({"/samples": listing("./schemas/missing.yaml")})}
    with pytest.raises(
        RegistrationError, match=r"cannot resolve \$ref './schemas/missing.yaml'.*404"
    ) as raised:
        await build(documents, ROOT)
    assert len(str(raised.value)) < 400


async def test_a_missing_file_named_inside_another_file_is_named_with_that_file() -> None:
    documents = {
        ROOT: root({"/samples": {"$ref": "paths/samples.json"}}),
        "http://api.test/spec/paths/samples.json": listing("gone.json"),
    }
    with pytest.raises(
        RegistrationError, match=r"'gone.json' \(in http://api.test/spec/paths/samples.json\)"
    ):
        await build(documents, ROOT)


async def test_a_fragment_that_points_at_nothing_names_the_reference() -> None:
    documents = {
        ROOT: root({"/samples": listing("common.json#/components/schemas/Nope")}),
        "http://api.test/spec/common.json": {"components": {"schemas": {}}},
    }
    with pytest.raises(RegistrationError, match=r"common.json#/components/schemas/Nope.*points at nothing"):
        await build(documents, ROOT)


async def test_a_missing_file_of_an_operation_left_out_is_no_error() -> None:
    documents = {
        ROOT: root({"/samples": listing("./sample.json"), "/broken": listing("./gone.json", "broken")}),
        "http://api.test/spec/sample.json": SAMPLE,
    }
    assert await field_names(documents, operations=["listSamples"]) == ["sample_id", "mass"]


async def test_a_file_on_another_origin_is_refused_naming_the_option() -> None:
    documents = {
        ROOT: root({"/samples": listing("https://elsewhere.test/sample.json")}),
        "https://elsewhere.test/sample.json": SAMPLE,
    }
    with pytest.raises(RegistrationError, match=r"on https://elsewhere.test, not on .*allow_ref_origins"):
        await build(documents, ROOT)


async def test_a_file_on_another_origin_is_never_requested() -> None:
    documents = {
        ROOT: root(
            {"/samples": listing("./sample.json"), "/x": listing("https://elsewhere.test/s.json", "x")}
        ),
        "http://api.test/spec/sample.json": SAMPLE,
    }
    _, _, api = await build(documents, ROOT, operations=["listSamples"])
    assert not any("elsewhere" in url for url in requested(api))


async def test_allow_ref_origins_lets_files_come_from_another_origin() -> None:
    documents = {
        ROOT: root({"/samples": listing("https://schemas.test/v1/sample.json")}),
        "https://schemas.test/v1/sample.json": SAMPLE,
    }
    names = await field_names(documents, allow_ref_origins=["https://schemas.test"])
    assert names == ["sample_id", "mass"]


async def test_headers_never_go_to_an_allowed_other_origin() -> None:
    documents = {
        ROOT: root({"/samples": listing("https://schemas.test/sample.json"), "/x": listing("./s.json", "x")}),
        "https://schemas.test/sample.json": SAMPLE,
        "http://api.test/spec/s.json": SAMPLE,
    }
    headers = {"X-Api-Key": "secret-key"}
    _, _, api = await build(
        documents, ROOT, headers=headers, allow_ref_origins="https://schemas.test/any/path"
    )
    sent = {str(r.url): r.headers.get("x-api-key") for r in api.requests}
    assert sent["https://schemas.test/sample.json"] is None
    assert sent["http://api.test/spec/s.json"] == "secret-key"


async def test_allow_ref_origins_refuses_what_is_not_an_http_url() -> None:
    documents = {ROOT: root({"/samples": listing("./s.json")})}
    with pytest.raises(RegistrationError, match="allow_ref_origins= takes absolute http"):
        await build(documents, ROOT, allow_ref_origins=["schemas.test"])


async def test_a_reference_that_is_not_http_is_refused() -> None:
    documents = {ROOT: root({"/samples": listing("file:///etc/passwd")})}
    with pytest.raises(RegistrationError, match="not an http"):
        await build(documents, ROOT)


async def test_more_files_than_the_limit_are_refused() -> None:
    count = MAX_REFERENCED_FILES + 1
    paths = {f"/s{n}": listing(f"./s{n}.json", f"s{n}") for n in range(count)}
    documents: dict[str, Any] = {ROOT: root(paths)}
    documents |= {f"http://api.test/spec/s{n}.json": SAMPLE for n in range(count)}
    with pytest.raises(RegistrationError, match=f"more than {MAX_REFERENCED_FILES} other files"):
        await build(documents, ROOT)


async def test_the_files_together_stay_within_max_response_bytes() -> None:
    padding = {"description": "x" * 600}
    documents = {
        ROOT: root({"/samples": listing("./a.json"), "/more": listing("./b.json", "listMore")}),
        "http://api.test/spec/a.json": SAMPLE | padding,
        "http://api.test/spec/b.json": SAMPLE | padding,
    }
    with pytest.raises(RegistrationError, match="together"):
        await build(documents, ROOT, max_response_bytes=1000)


async def test_a_document_without_external_references_fetches_nothing_else() -> None:
    components = {"schemas": {"Sample": SAMPLE}}
    documents = {ROOT: root({"/samples": listing("#/components/schemas/Sample")}, components=components)}
    _, _, api = await build(documents, ROOT)
    assert requested(api) == [ROOT]


async def test_a_reference_to_the_document_itself_by_name_reads_the_document() -> None:
    components = {"schemas": {"Sample": SAMPLE}}
    documents = {
        ROOT: root({"/samples": listing("openapi.yaml#/components/schemas/Sample")}, components=components)
    }
    assert await field_names(documents) == ["sample_id", "mass"]
