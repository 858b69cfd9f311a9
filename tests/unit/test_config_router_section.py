"""A landscape file's ``[router]`` section: the ``SchemaRouter(...)`` settings
``allow_private_networks``, ``document_cache`` and ``max_hops``, checked like every other key."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations._cli._session import with_document_cache
from schemarouter_integrations.config import LandscapeError, RouterSettings, load_config, parse_config
from schemarouter_integrations.errors import ConfigurationError

pytestmark = pytest.mark.anyio

ROUTE = '[routes.lab]\nkind = "python"\nfunction = "tests.unit.test_config:lab_search"\nread_only = true\n'


def landscape(folder: Path, text: str) -> Path:
    path = folder / "landscape.toml"
    path.write_text(text + "\n" + ROUTE)
    return path


def problem(text: str) -> LandscapeError:
    with pytest.raises(LandscapeError) as caught:
        parse_config(text, source=Path("landscape.toml"), environ={})
    return caught.value


def test_without_a_router_section_the_router_defaults_apply() -> None:
    config = parse_config(ROUTE, environ={})
    assert config.router == RouterSettings()
    assert config.router_options() == {"allow_private_networks": False, "document_cache": None, "max_hops": 4}


async def test_allow_private_networks_reaches_the_router(tmp_path: Path) -> None:
    path = landscape(tmp_path, "[router]\nallow_private_networks = true\n")
    async with await SchemaRouter.from_config(path) as router:
        assert router.allow_private_networks is True


async def test_private_networks_stay_closed_unless_the_file_says_so(tmp_path: Path) -> None:
    async with await SchemaRouter.from_config(landscape(tmp_path, "[router]\n")) as router:
        assert router.allow_private_networks is False


def test_allow_private_networks_must_be_a_boolean_named_at_its_line() -> None:
    error = problem('[tool]\nname = "x"\n\n[router]\nallow_private_networks = "yes"\n')
    assert isinstance(error, ConfigurationError)
    assert (error.path, error.line, error.key) == (Path("landscape.toml"), 5, "router.allow_private_networks")
    assert str(error).startswith(
        "landscape.toml:5: router.allow_private_networks: Input should be a valid boolean"
    )


def test_an_unknown_router_key_is_named_at_its_line_with_the_key_it_resembles() -> None:
    error = problem("[router]\nallow_private_network = true\n")
    assert (error.line, error.key) == (2, "router.allow_private_network")
    assert str(error) == (
        "landscape.toml:2: router.allow_private_network: unknown key (did you mean 'allow_private_networks'?)"
    )


def test_an_empty_document_cache_is_refused_at_its_line() -> None:
    error = problem('[router]\ndocument_cache = ""\n')
    assert (error.line, error.key) == (2, "router.document_cache")


async def test_the_router_document_cache_is_relative_to_the_file(tmp_path: Path) -> None:
    path = landscape(tmp_path, '[router]\ndocument_cache = "cache/documents"\n')
    folder = (tmp_path / "cache" / "documents").resolve()
    assert load_config(path).document_cache_path == folder
    async with await SchemaRouter.from_config(path) as router:
        assert router.inspect().documents.cache == str(folder)


def test_the_top_level_document_cache_is_the_same_setting(tmp_path: Path) -> None:
    path = landscape(tmp_path, 'document_cache = "cache"\n')
    assert load_config(path).router_options()["document_cache"] == (tmp_path / "cache").resolve()


def test_a_document_cache_set_in_both_places_is_named_at_the_top_level_key() -> None:
    error = problem('document_cache = "a"\n\n[router]\ndocument_cache = "b"\n')
    assert (error.line, error.key) == (1, "document_cache")
    assert "also set as [router] document_cache" in str(error)


def test_the_cli_document_cache_option_replaces_the_files(tmp_path: Path) -> None:
    for text in ('[router]\ndocument_cache = "from-file"\n', 'document_cache = "from-file"\n'):
        config = with_document_cache(load_config(landscape(tmp_path, text)), tmp_path / "given")
        assert config.document_cache_path == (tmp_path / "given").resolve()
        assert config.source == tmp_path / "landscape.toml"


def test_the_cli_document_cache_option_keeps_allow_private_networks(tmp_path: Path) -> None:
    path = landscape(tmp_path, "[router]\nallow_private_networks = true\n")
    config = with_document_cache(load_config(path), tmp_path / "given")
    assert config.router_options() == {
        "allow_private_networks": True,
        "document_cache": (tmp_path / "given").resolve(),
        "max_hops": 4,
    }


async def test_max_hops_reaches_the_router(tmp_path: Path) -> None:
    async with await SchemaRouter.from_config(landscape(tmp_path, "[router]\nmax_hops = 2\n")) as router:
        assert router.max_hops == 2


def test_max_hops_must_be_a_whole_number_of_one_or_more_named_at_its_line() -> None:
    for value in ("0", "1.5", '"4"', "true"):
        error = problem(f"[router]\nmax_hops = {value}\n")
        assert (error.line, error.key) == (2, "router.max_hops")
