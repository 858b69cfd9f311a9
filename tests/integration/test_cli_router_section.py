"""The command line honours a landscape's ``[router] allow_private_networks``: the bundled
providers list counts as a public document, so a provider it names on loopback is skipped
unless the file lifts the rule; then its databases register.

The CLI runs in this process (Typer's runner) so the bundled list can be replaced by one
naming a real loopback federation: no packet leaves loopback, no DNS query is sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from schemarouter_integrations._cli._app import app
from tests.servers.tiny_optimade import child, provider, tiny_federation
from tests.servers.uvicorn_thread import UvicornThread

pytestmark = pytest.mark.integration

ROUTE = '[routes.fed]\nkind = "optimade_federation"\nprobes = false\n'


@pytest.fixture
def loopback_provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The bundled providers list names one provider, ``lab``, whose index is on loopback."""
    from schemarouter_integrations.adapters._optimade import walk as federation_walk

    links = {"lab": [child("main", "{base}/labdb")]}
    app = tiny_federation([], links, {"labdb": "lab"}, [])
    thread = UvicornThread(app).start()
    try:
        monkeypatch.setattr(
            federation_walk, "bundled_providers", lambda: [provider("lab", f"{thread.url}/lab")]
        )
        yield thread.url
    finally:
        thread.stop()


def validate(folder: Path, text: str) -> tuple[int, Any]:
    path = folder / "landscape.toml"
    path.write_text(text + ROUTE)
    done = CliRunner().invoke(app, ["validate", "--config", str(path), "--connect", "--json"])
    return done.exit_code, json.loads(done.stdout)


def test_the_cli_skips_a_loopback_provider_of_the_bundled_list_by_default(
    loopback_provider: str, tmp_path: Path
) -> None:
    code, document = validate(tmp_path, "")
    assert code == 0, document
    assert document["registered"] == []


def test_the_cli_registers_it_when_the_landscape_allows_private_networks(
    loopback_provider: str, tmp_path: Path
) -> None:
    code, document = validate(tmp_path, "[router]\nallow_private_networks = true\n\n")
    assert code == 0, document
    assert document["registered"] == ["lab_main"]


def test_the_cli_names_a_bad_router_value_at_its_line_and_exits_2(tmp_path: Path) -> None:
    code, document = validate(tmp_path, "[router]\nallow_private_networks = 1\n\n")
    assert code == 2
    assert (document["error_type"], document["line"], document["key"]) == (
        "LandscapeError",
        2,
        "router.allow_private_networks",
    )
    assert document["error"].endswith(
        "landscape.toml:2: router.allow_private_networks: Input should be a valid boolean"
    )
