"""The default (libyaml) parse reads the published YAML documents in one pass from the nodes,
giving the data of the safe loader followed by ``plain_data`` (same values, same key order)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemarouter_integrations.adapters import _yaml, _yaml_nodes

pytestmark = pytest.mark.integration
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
LIMIT = 2_000_000


@pytest.mark.parametrize("name", ["github.yaml", "stripe.yaml", "petstore.yaml", "petstore-v3.yaml"])
def test_a_published_yaml_document_is_read_from_its_nodes_as_the_loader_reads_it(
    documents: dict[str, Path], name: str
) -> None:
    body = documents[name].read_bytes()
    loader = LOADER(body)
    try:
        assert (
            _yaml_nodes.plain_tree(loader, loader.get_single_node(), max_nodes=LIMIT)
            is not _yaml_nodes.UNSURE
        )
    finally:
        loader.dispose()
    expected = _yaml.plain_data(yaml.load(body, Loader=LOADER), [LIMIT])
    assert json.dumps(_yaml.with_libyaml(body, max_nodes=LIMIT)) == json.dumps(expected)
