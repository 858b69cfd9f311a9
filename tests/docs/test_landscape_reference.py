"""The landscape file reference documents every key of the configuration models, and only keys
that exist; its example file is a valid landscape."""

from __future__ import annotations

import re

import pytest
from pydantic import BaseModel

from schemarouter_integrations import (
    CachePolicy,
    CooldownPolicy,
    FieldSpec,
    HedgePolicy,
    RateLimit,
    RetryPolicy,
    RunBudget,
    ServerProjectionSpec,
)
from schemarouter_integrations.config import (
    AvailabilitySettings,
    OpenApiRoute,
    OptimadeFederationRoute,
    OptimadeRoute,
    PythonRoute,
    RouterConfig,
    ToolSettings,
    parse_config,
)
from schemarouter_integrations.config._models import AnswerCacheSettings, McpRoute, RouterSettings
from tests.docs.blocks import ROOT

PAGE = (ROOT / "docs" / "reference" / "landscape.md").read_text()

SECTIONS: dict[str, type[BaseModel]] = {
    "## Top level": RouterConfig,
    "## `[router]`": RouterSettings,
    "## `[availability]`": AvailabilitySettings,
    "## `[cooldown]`": CooldownPolicy,
    "## `[tool]`": ToolSettings,
    '## `[routes.<name>]`, `kind = "openapi"`': OpenApiRoute,
    '## `[routes.<name>]`, `kind = "optimade"`': OptimadeRoute,
    '## `[routes.<name>]`, `kind = "optimade_federation"`': OptimadeFederationRoute,
    '## `[routes.<name>]`, `kind = "python"`': PythonRoute,
    '## `[routes.<name>]`, `kind = "mcp"`': McpRoute,
    "## `[answer_cache]`": AnswerCacheSettings,
    "### `cache`": CachePolicy,
    "### `rate_limit`": RateLimit,
    "### `retry`": RetryPolicy,
    "### `budget`": RunBudget,
    "### `hedge`": HedgePolicy,
    "### `projection`": ServerProjectionSpec,
    "### `fields` entries": FieldSpec,
}


def documented_keys(heading: str) -> set[str]:
    lines = PAGE.splitlines()
    assert heading in lines, f"the reference has no section {heading!r}"
    start = lines.index(heading) + 1
    keys = set()
    for line in lines[start:]:
        if line.startswith("#"):
            break
        found = re.match(r"^\| `([a-z_]+)` \|", line)
        if found:
            keys.add(found.group(1))
    return keys


@pytest.mark.parametrize("heading", sorted(SECTIONS))
def test_every_key_of_the_model_is_documented(heading: str) -> None:
    missing = set(SECTIONS[heading].model_fields) - documented_keys(heading)
    assert not missing, f"{heading}: undocumented keys {sorted(missing)}"


@pytest.mark.parametrize("heading", sorted(SECTIONS))
def test_every_documented_key_exists(heading: str) -> None:
    unknown = documented_keys(heading) - set(SECTIONS[heading].model_fields)
    assert not unknown, f"{heading}: documented keys the model does not have {sorted(unknown)}"


def test_every_route_kind_has_a_section() -> None:
    kinds = {
        model.model_fields["kind"].annotation.__args__[0]
        for model in SECTIONS.values()
        if "kind" in model.model_fields
    }  # type: ignore[union-attr]
    assert kinds == {"openapi", "optimade", "optimade_federation", "python", "mcp"}


def test_the_example_landscape_is_valid() -> None:
    example = PAGE.split("```toml\n", 1)[1].split("```", 1)[0]
    environ = {"MP_API_URL": "http://127.0.0.1:9", "MP_API_KEY": "k", "OQMD_URL": "http://127.0.0.1:9/oqmd"}
    config = parse_config(example, environ=environ)
    assert list(config.routes) == ["mp_api", "oqmd", "mp_python", "federation", "materials_mcp"]
