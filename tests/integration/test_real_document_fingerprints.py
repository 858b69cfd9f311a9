"""Fingerprints of real documents' contracts are what their definition says.

A contract's fingerprint is sha256 over the canonical JSON of ``model_dump(mode="json")``. It is
computed without that dump (``_contracts/views.py``), and a tool's from the texts its endpoints
were fingerprinted from: for GitHub's and Stripe's whole documents every fingerprint must equal
the one the definition gives, so answers cached and plans made before still match.
"""

from __future__ import annotations

import pytest

from schemarouter_integrations import ToolSpec
from schemarouter_integrations._contracts import fingerprint_of
from schemarouter_integrations._contracts.views import json_view


def _by_definition(contract: ToolSpec) -> list[str]:
    return [fingerprint_of(e.model_dump(mode="json")) for e in contract.endpoints]


@pytest.mark.parametrize("fixture", ["github_spec", "stripe_spec"])
def test_every_endpoint_fingerprint_is_the_one_its_dump_gives(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    spec: ToolSpec = request.getfixturevalue(fixture)
    assert [e.fingerprint for e in spec.endpoints] == _by_definition(spec)


@pytest.mark.parametrize("fixture", ["github_spec", "stripe_spec"])
def test_the_tool_fingerprint_is_the_one_its_dump_gives(fixture: str, request: pytest.FixtureRequest) -> None:
    spec: ToolSpec = request.getfixturevalue(fixture)
    assert spec.fingerprint == fingerprint_of(spec.model_dump(mode="json"))


def test_a_contract_view_is_its_json_dump(stripe_spec: ToolSpec) -> None:
    for endpoint in stripe_spec.endpoints[:50]:
        assert json_view(endpoint) == endpoint.model_dump(mode="json")


def test_a_tool_rebuilt_from_registered_endpoints_has_the_same_fingerprint(github_spec: ToolSpec) -> None:
    again = ToolSpec(
        name=github_spec.name,
        provider=github_spec.provider,
        access_mode=github_spec.access_mode,
        description=github_spec.description,
        endpoints=github_spec.endpoints,
        origin=github_spec.origin,
    )
    assert again.fingerprint == github_spec.fingerprint
