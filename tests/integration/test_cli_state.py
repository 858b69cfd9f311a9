"""State that outlives one command: two ``query`` processes sharing ``--state FILE`` (the second
skips the route the first found down and says where its state lives), the landscape's
``[router] store = "sqlite:///..."``, and a corrupted state file (answered, never a crash)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from schemarouter_integrations.testing import Down, MaterialsApi
from tests.integration.test_cli import as_json, cli

pytestmark = pytest.mark.integration

SI = ["What is the band gap of Si?", "--arg", "formula=Si"]
LANDSCAPE = """
[tool]
name = "materials"
scope = "same_provider"
preferred_tools = ["mp_api"]
{router}
[routes.mp_api]
kind = "openapi"
url = "${{MP_API_URL}}/openapi.json"
provider = "materials_project"
operations = ["search"]
headers = {{ x-api-key = "${{MP_API_KEY}}" }}

[routes.mp_python]
kind = "python"
function = "schemarouter_integrations.testing:materials_search"
provider = "materials_project"
endpoint = "search"
read_only = true
"""


@pytest.fixture
def down_api() -> Iterator[MaterialsApi]:
    with MaterialsApi(api_key="k", fault=Down()) as api:  # the REST route answers 503
        yield api


def landscape(folder: Path, router: str = "") -> str:
    path = folder / "landscape.toml"
    path.write_text(LANDSCAPE.format(router=router))
    return str(path)


def query(config: str, api: MaterialsApi, *options: str) -> dict[str, object]:
    done = cli(
        "query", *SI, "--config", config, "--json", *options, env={"MP_API_URL": api.url, "MP_API_KEY": "k"}
    )
    assert done.returncode == 0, done.stderr
    return {"json": as_json(done), "stderr": done.stderr}


def test_the_second_query_skips_the_route_the_first_found_down(
    tmp_path: Path, down_api: MaterialsApi
) -> None:
    config, state = landscape(tmp_path), tmp_path / "state.db"
    first = query(config, down_api, "--state", str(state))
    calls_after_first = down_api.calls
    second = query(config, down_api, "--state", str(state))
    assert first["json"]["route"] == ["mp_api.search", "mp_python.search"]  # type: ignore[index]
    assert second["json"]["route"] == ["mp_python.search"]  # type: ignore[index]
    assert down_api.calls == calls_after_first  # the down route was not asked again
    assert f"state: sqlite {state}" in str(second["stderr"])
    assert "cooling down: mp_api.search" in str(second["stderr"])


def test_without_state_the_next_command_tries_the_failed_route_again(
    tmp_path: Path, down_api: MaterialsApi
) -> None:
    config = landscape(tmp_path)
    query(config, down_api)
    again = query(config, down_api)
    assert again["json"]["route"] == ["mp_api.search", "mp_python.search"]  # type: ignore[index]


def test_the_landscape_store_keeps_state_next_to_the_file(tmp_path: Path, down_api: MaterialsApi) -> None:
    config = landscape(tmp_path, '\n[router]\nstore = "sqlite:///state/router.db"\n')
    query(config, down_api)
    second = query(config, down_api)
    assert second["json"]["route"] == ["mp_python.search"]  # type: ignore[index]
    assert (tmp_path / "state" / "router.db").is_file()


def test_a_corrupted_state_file_is_answered_through_and_named(tmp_path: Path, down_api: MaterialsApi) -> None:
    config, state = landscape(tmp_path), tmp_path / "state.db"
    state.write_bytes(b"\x00garbage, not SQLite\x00" * 500)
    done = query(config, down_api, "--state", str(state))
    assert done["json"]["route"] == ["mp_api.search", "mp_python.search"]  # type: ignore[index]
    assert "not usable: DatabaseError" in str(done["stderr"])
    assert "Traceback" not in str(done["stderr"])
