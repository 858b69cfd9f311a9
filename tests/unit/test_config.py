"""Landscape files: what ``load_config`` accepts, and where it says a file is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import PlanRequest, RunBudget, SchemaRouter
from schemarouter_integrations.config import (
    LandscapeError,
    OpenApiRoute,
    PythonRoute,
    RouterConfig,
    load_config,
    parse_config,
)
from schemarouter_integrations.errors import ConfigurationError
from schemarouter_integrations.stores import MemoryAvailabilityStore

pytestmark = pytest.mark.anyio

COOKBOOK = Path(__file__).resolve().parents[2] / "cookbook" / "landscapes"

GOOD = """\
[availability]
store = "memory"

[cooldown]
base_seconds = 10
max_seconds = 60

[tool]
name = "materials"
scope = "cross_provider"
max_fallbacks = 2
preferred_tools = ["lab"]
budget = { max_tool_calls = 3 }

[routes.mp_api]
kind = "openapi"
url = "${API_URL}/openapi.json"
provider = "materials_project"
headers = { x-api-key = "${API_KEY}" }
fields = ["band_gap", { name = "formula", path = ["formula_pretty"] }]
retry = { max_attempts = 2 }
probe = "search"

[routes.lab]
kind = "python"
function = "tests.unit.test_config:lab_search"
provider = "lab"
read_only = true
fields = ["band_gap", "formula"]
"""
ENV = {"API_URL": "http://127.0.0.1:9", "API_KEY": "top-secret-value"}


def lab_search(formula: str) -> list[dict[str, Any]]:
    return [{"formula": formula, "band_gap": 1.1}]


def problem(text: str, environ: dict[str, str] | None = None) -> LandscapeError:
    with pytest.raises(LandscapeError) as caught:
        parse_config(text, source=Path("landscape.toml"), environ=ENV if environ is None else environ)
    return caught.value


def test_a_good_file_reads_every_section() -> None:
    config = parse_config(GOOD, environ=ENV)
    assert config.cooldown.base_seconds == 10
    assert config.tool.request("band gap", {"formula": "Si"}).fallback_scope == "cross_provider"
    assert config.tool.budget == RunBudget(max_tool_calls=3)
    route = config.routes["mp_api"]
    assert isinstance(route, OpenApiRoute)
    assert route.url == "http://127.0.0.1:9/openapi.json"
    assert route.secret_headers() == {"x-api-key": "top-secret-value"}
    assert [f.name for f in route.fields or []] == ["band_gap", "formula"]
    assert isinstance(config.routes["lab"], PythonRoute)
    assert isinstance(config.availability.build(), MemoryAvailabilityStore)


def test_header_values_never_show_in_repr_or_dumps() -> None:
    config = parse_config(GOOD, environ=ENV)
    assert "top-secret-value" not in repr(config)
    assert "top-secret-value" not in config.model_dump_json()


def test_a_missing_environment_variable_is_named_with_its_line_and_key() -> None:
    error = problem(GOOD, {"API_URL": "http://127.0.0.1:9"})
    assert isinstance(error, ConfigurationError)
    assert str(error) == (
        "landscape.toml:19: routes.mp_api.headers.x-api-key: environment variable API_KEY is not set"
    )
    assert (error.line, error.key) == (19, "routes.mp_api.headers.x-api-key")


def test_an_unknown_key_is_named_at_its_line() -> None:
    error = problem(GOOD.replace("retry = {", "retries = {"))
    assert str(error).startswith("landscape.toml:21: routes.mp_api.retries: unknown key")


def test_a_bad_value_is_named_at_its_line_and_no_secret_is_shown() -> None:
    error = problem(GOOD.replace("max_fallbacks = 2", "max_fallbacks = -1"))
    assert str(error).startswith(
        "landscape.toml:11: tool.max_fallbacks: Input should be greater than or equal"
    )
    assert "top-secret-value" not in str(error)


def test_a_missing_required_key_is_reported_at_its_table() -> None:
    error = problem(GOOD.replace('url = "${API_URL}/openapi.json"\n', ""))
    assert str(error).startswith("landscape.toml:15: routes.mp_api.url: required key is missing")


def test_an_unknown_kind_points_at_the_kind_line() -> None:
    error = problem(GOOD.replace('kind = "python"', 'kind = "graphql"'))
    assert error.line == 25
    assert error.key == "routes.lab.kind"


def test_every_problem_is_listed() -> None:
    error = problem(GOOD.replace("max_seconds = 60", "max_seconds = 1").replace("scope =", "scop ="))
    assert len(error.problems) == 2
    assert "(and 1 more problem(s))" in str(error)


def test_a_toml_syntax_error_names_its_line() -> None:
    error = problem(GOOD.replace("base_seconds = 10", "base_seconds = = 10"))
    assert error.line == 5
    assert str(error).startswith("landscape.toml:5: cooldown.base_seconds: invalid TOML")


def test_a_python_route_needs_a_module_colon_function_target() -> None:
    error = problem(GOOD.replace("tests.unit.test_config:lab_search", "lab_search"))
    assert str(error).startswith("landscape.toml:26: routes.lab.function: must be 'package.module:function'")


def test_a_redis_store_needs_a_redis_url() -> None:
    error = problem(GOOD.replace('store = "memory"', 'store = "postgres://db"'))
    assert error.key == "availability.store"


def test_an_unreadable_file_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(LandscapeError, match="cannot read the landscape file"):
        load_config(tmp_path / "missing.toml")


def test_load_config_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[tool]\nnmae = 'x'\n")
    with pytest.raises(LandscapeError) as caught:
        load_config(path)
    assert str(caught.value) == f"{path}:2: tool.nmae: unknown key (did you mean 'name'?)"
    assert caught.value.path == path


async def test_from_config_builds_python_routes_with_their_probe(tmp_path: Path) -> None:
    path = tmp_path / "lab.toml"
    path.write_text(
        '[routes.lab]\nkind = "python"\nfunction = "tests.unit.test_config:lab_search"\n'
        'read_only = true\nfields = ["band_gap", "formula"]\n'
        'probe = "tests.unit.test_config:always_up"\n'
    )
    async with await SchemaRouter.from_config(path) as router:
        result = await router.invoke(PlanRequest(query="band gap", arguments={"formula": "Si"}))
        assert (result.tool, result.records) == ("lab", [{"band_gap": 1.1, "formula": "Si"}])
        assert sorted(router.inspect().health.probes) == ["lab.lab_search"]


def always_up() -> bool:
    return True


async def test_a_route_that_cannot_be_imported_names_its_line_and_registers_nothing(tmp_path: Path) -> None:
    path = tmp_path / "lab.toml"
    path.write_text('[routes.lab]\nkind = "python"\nfunction = "no_such_module_here:search"\n')
    with pytest.raises(LandscapeError) as caught:
        await SchemaRouter.from_config(path)
    assert str(caught.value).startswith(
        f"{path}:3: routes.lab.function: cannot import no_such_module_here:search"
    )


def test_framework_options_are_the_tool_settings() -> None:
    config = parse_config(GOOD, environ=ENV)
    assert config.tool.framework_options() == {
        "name": "materials",
        "fallback_scope": "cross_provider",
        "max_fallbacks": 2,
        "preferred_tools": ["lab"],
        "budget": RunBudget(max_tool_calls=3),
    }


@pytest.mark.parametrize("name", ["materials.toml", "optimade_federation.toml", "local.toml"])
def test_the_cookbook_landscapes_are_valid(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("MP_API_KEY", "MP_API_URL", "OQMD_URL", "ALEXANDRIA_URL"):
        monkeypatch.setenv(variable, "http://127.0.0.1:1")
    config = load_config(COOKBOOK / name)
    assert isinstance(config, RouterConfig)
    assert config.routes


SHAPED = """\
[routes.mp_api]
kind = "openapi"
url = "http://127.0.0.1:9/openapi.json"
timeout_seconds = 2.0
document_timeout_seconds = 45.0
projection = false
list_separators = { elements = "," }
"""


class RecordingRouter:
    """Takes the ``add_url`` call a landscape route makes, and registers nothing."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    async def add_url(self, url: str, **options: Any) -> Any:
        self.calls.append({"url": url, **options})
        return None


def test_document_timeout_seconds_defaults_to_thirty_seconds_in_a_landscape() -> None:
    route = parse_config(GOOD, environ=ENV).routes["mp_api"]
    assert isinstance(route, OpenApiRoute)
    assert route.document_timeout_seconds == 30.0


async def test_a_landscape_route_passes_document_timeout_projection_false_and_list_separators() -> None:
    from schemarouter_integrations.config._build import _add_url

    route = parse_config(SHAPED).routes["mp_api"]
    assert isinstance(route, OpenApiRoute)
    router = RecordingRouter()
    await _add_url(router, "mp_api", route)
    (sent,) = router.calls
    assert (sent["timeout_seconds"], sent["document_timeout_seconds"]) == (2.0, 45.0)
    assert sent["projection"] is False
    assert sent["list_separators"] == {"elements": ","}


def test_a_route_error_is_relabelled_with_its_class_and_attributes_kept() -> None:
    from schemarouter_integrations.adapters._documents import DocumentError
    from schemarouter_integrations.config._build import _relabelled

    error = DocumentError(
        "GET /openapi.json: could not connect", reason="could not connect", unavailable=True
    )

    relabelled = _relabelled(error, "landscape.toml:4: routes.mp_api: GET /openapi.json: could not connect")

    assert type(relabelled) is DocumentError
    assert (relabelled.reason, relabelled.unavailable) == ("could not connect", True)
    assert str(relabelled).startswith("landscape.toml:4: routes.mp_api")


@pytest.mark.parametrize("opening", ["[", "{x = "], ids=["arrays", "inline_tables"])
def test_a_landscape_nested_fifty_thousand_deep_is_a_landscape_error(tmp_path: Path, opening: str) -> None:
    closing = "]" if opening == "[" else "}"
    path = tmp_path / "deep.toml"
    path.write_text("a = " + opening * 50_000 + "1" + closing * 50_000 + "\n")

    with pytest.raises(LandscapeError, match="nests tables or arrays too deeply"):
        load_config(path)


async def test_a_landscape_route_passes_allow_ref_origins() -> None:
    from schemarouter_integrations.config._build import _add_url

    text = SHAPED + 'allow_ref_origins = ["https://schemas.example.org"]\n'
    route = parse_config(text).routes["mp_api"]
    assert isinstance(route, OpenApiRoute)
    router = RecordingRouter()
    await _add_url(router, "mp_api", route)
    (sent,) = router.calls
    assert sent["allow_ref_origins"] == ["https://schemas.example.org"]


async def test_a_landscape_optimade_route_passes_its_page_limit() -> None:
    from schemarouter_integrations.config._build import _add_url

    text = '[routes.oqmd]\nkind = "optimade"\nurl = "http://127.0.0.1:9"\npage_limit = 25\n'
    route = parse_config(text).routes["oqmd"]
    router = RecordingRouter()
    await _add_url(router, "oqmd", route)  # type: ignore[arg-type]
    (sent,) = router.calls
    assert sent["page_limit"] == 25


async def test_a_landscape_optimade_route_passes_its_field_aliases() -> None:
    from schemarouter_integrations.config._build import _add_url

    text = '[routes.oqmd]\nkind = "optimade"\nurl = "http://127.0.0.1:9"\n'
    text += 'field_aliases = { band_gap = ["_mydb_gap"] }\n'
    route = parse_config(text).routes["oqmd"]
    router = RecordingRouter()
    await _add_url(router, "oqmd", route)  # type: ignore[arg-type]
    (sent,) = router.calls
    assert sent["field_aliases"] == {"band_gap": ["_mydb_gap"]}
