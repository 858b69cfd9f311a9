"""With strict=True, a landscape route whose document cannot be read fails with the route, file,
line and cause."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemarouter_integrations import RegistrationError, SchemaRouter
from tests.servers.fault_server import FaultServer, Reply, Status

pytestmark = [pytest.mark.integration, pytest.mark.anyio]


def _landscape(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "landscape.toml"
    path.write_text(
        '[tool]\nname = "materials"\n\n'
        "[routes.mp_api]\n"
        'kind = "openapi"\n'
        f'url = "{url}"\n'
        'provider = "materials_project"\n'
        "timeout_seconds = 2.0\n"
    )
    return path


async def _registration_error(path: Path) -> RegistrationError:
    with pytest.raises(RegistrationError) as raised:
        await SchemaRouter.from_config(path, strict=True)
    return raised.value


async def test_an_unreachable_document_names_the_route_file_line_and_cause(
    tmp_path: Path, refused_url: str
) -> None:
    path = _landscape(tmp_path, f"{refused_url}/openapi.json")

    error = await _registration_error(path)

    assert f"{path}:4" in str(error) and "routes.mp_api" in str(error)
    assert "could not connect" in str(error)


async def test_a_document_behind_a_401_names_the_status(tmp_path: Path, fault_server: FaultServer) -> None:
    document = fault_server.route("landscape-401", Status(401))
    path = _landscape(tmp_path, document.replace("openapi.json", "materials"))

    error = await _registration_error(path)

    assert "routes.mp_api" in str(error) and "401" in str(error)


async def test_a_document_that_is_not_openapi_says_so(tmp_path: Path, fault_server: FaultServer) -> None:
    page = Reply(200, {"content-type": "text/html"}, b"<html>maintenance</html>")
    document = fault_server.route("landscape-html", page)
    path = _landscape(tmp_path, document.replace("openapi.json", "materials"))

    error = await _registration_error(path)

    assert "routes.mp_api" in str(error) and "not an OpenAPI document" in str(error)
