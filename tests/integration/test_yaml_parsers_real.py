"""rapidyaml (the ``fast`` extra) reads the real documents we register exactly as libyaml does.

The YAML documents as published (GitHub, Stripe, the Petstores, Open-Meteo), the split-file
test documents, and the JSON documents (the Materials Project-like API, the science APIs)
written out as YAML by PyYAML: the same data in the same key order, read by rapidyaml itself
(not left to libyaml).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter_integrations.adapters import _yaml

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(_yaml.parser_in_use() != "rapidyaml", reason="the fast extra is not installed"),
]
LIMIT = 2_000_000


def assert_read_alike(body: bytes) -> None:
    fast = _yaml.with_rapidyaml(body, max_nodes=LIMIT)
    assert fast is not _yaml.UNSURE, "rapidyaml left the document to libyaml"
    assert json.dumps(fast) == json.dumps(_yaml.with_libyaml(body, max_nodes=LIMIT))


@pytest.mark.parametrize("name", ["github.yaml", "stripe.yaml", "petstore.yaml", "petstore-v3.yaml"])
def test_a_published_yaml_document_reads_alike(documents: dict[str, Path], name: str) -> None:
    assert_read_alike(documents[name].read_bytes())


def test_the_science_documents_read_alike_as_published_or_written_as_yaml(
    science_documents: dict[str, Path],
) -> None:
    for path in science_documents.values():
        body = path.read_bytes()
        if path.suffix == ".json":
            body = yaml.safe_dump(json.loads(body), sort_keys=False, allow_unicode=True).encode()
        assert_read_alike(body)


def test_the_split_file_documents_read_alike() -> None:
    from tests.servers.split_documents import FILES, FOREIGN

    for text in [*FILES.values(), FOREIGN]:
        assert_read_alike(text.encode())


def test_the_materials_api_document_written_as_yaml_reads_alike() -> None:
    from cookbook.services.materials_api import create_materials_app, openapi_document

    document: dict[str, Any] = openapi_document(create_materials_app())
    assert_read_alike(yaml.safe_dump(document, sort_keys=False).encode())


def test_a_document_in_wrapped_flow_style_is_read_by_libyaml() -> None:
    from cookbook.services.materials_api import create_materials_app, openapi_document

    body = yaml.safe_dump(openapi_document(create_materials_app()), default_flow_style=None).encode()
    assert _yaml.with_rapidyaml(body, max_nodes=LIMIT) is _yaml.UNSURE
    read = _yaml.load_yaml(body, max_nodes=LIMIT)
    assert json.dumps(read) == json.dumps(_yaml.with_libyaml(body, max_nodes=LIMIT))
