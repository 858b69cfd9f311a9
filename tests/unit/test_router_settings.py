"""One frozen settings object: ``SchemaRouter(...)`` keywords and a landscape file's sections
give equal :class:`SchemaRouterSettings`, checked once, kept as ``router.settings``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import CooldownPolicy, SchemaRouter
from schemarouter_integrations.config import SchemaRouterSettings, load_config, parse_config
from schemarouter_integrations.errors import ConfigurationError, InvalidCallbackError
from schemarouter_integrations.stores import SqliteStore

pytestmark = pytest.mark.anyio

ROUTE = '[routes.lab]\nkind = "python"\nfunction = "tests.unit.test_config:lab_search"\nread_only = true\n'
SECTIONS = (
    '[router]\nallow_private_networks = true\nmax_hops = 2\ndocument_cache = "documents"\n\n'
    "[cooldown]\nbase_seconds = 5\nmax_seconds = 60\n\n"
)


def landscape(folder: Path, text: str) -> Path:
    path = folder / "landscape.toml"
    path.write_text(text + "\n" + ROUTE)
    return path


def test_keywords_and_landscape_sections_give_equal_settings(tmp_path: Path) -> None:
    from_file = load_config(landscape(tmp_path, SECTIONS)).settings()
    from_keywords = SchemaRouter(
        cooldown=CooldownPolicy(base_seconds=5, max_seconds=60),
        allow_private_networks=True,
        max_hops=2,
        document_cache=(tmp_path / "documents").resolve(),
    ).settings
    assert from_file == from_keywords


def test_a_file_without_router_sections_gives_the_default_settings() -> None:
    assert parse_config(ROUTE, environ={}).settings() == SchemaRouterSettings() == SchemaRouter().settings


async def test_a_router_from_a_landscape_file_carries_the_files_settings(tmp_path: Path) -> None:
    path = landscape(tmp_path, SECTIONS)
    async with await SchemaRouter.from_config(path) as router:
        assert router.settings == load_config(path).settings()
        assert router.max_hops == 2 and router.network_policy.allow_private_networks is True


def test_a_router_built_from_a_settings_object_keeps_it_and_uses_it() -> None:
    settings = SchemaRouterSettings(max_hops=3, allow_private_networks=True, max_response_bytes=1024)
    router = SchemaRouter(settings=settings)
    assert router.settings is settings
    assert (router.max_hops, router.max_response_bytes) == (3, 1024)
    assert router.network_policy.allow_private_networks is True


def test_settings_cannot_change_after_construction() -> None:
    router = SchemaRouter(max_hops=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        router.settings.max_hops = 3  # type: ignore[misc]


def test_a_settings_object_and_keyword_settings_together_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="not both"):
        SchemaRouter(settings=SchemaRouterSettings(), max_hops=2)


def test_settings_of_another_type_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="settings must be SchemaRouterSettings"):
        SchemaRouter(settings={"max_hops": 2})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("cooldown", {"base_seconds": 5}),
        ("availability_store", "redis://127.0.0.1:6379/0"),
        ("max_response_bytes", 0),
        ("allow_private_networks", "yes"),
        ("document_cache", 12),
        ("answer_cache", "memory"),
        ("rate_limiter", "memory"),
        ("max_hops", 0),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_naming_the_setting(setting: str, value: Any) -> None:
    with pytest.raises(ConfigurationError, match=setting):
        SchemaRouterSettings(**{setting: value})


@pytest.mark.parametrize("setting", ["clock", "sleep", "resolver"])
def test_a_callback_that_cannot_be_called_is_refused_naming_it(setting: str) -> None:
    with pytest.raises(InvalidCallbackError, match=setting):
        SchemaRouterSettings(**{setting: 12.0})


def test_a_changed_copy_is_checked_again() -> None:
    with pytest.raises(ConfigurationError, match="max_hops"):
        SchemaRouterSettings().replace(max_hops=0)


def test_a_document_cache_given_as_text_is_the_same_setting_as_a_path() -> None:
    assert SchemaRouterSettings(document_cache="documents") == SchemaRouterSettings(  # type: ignore[arg-type]
        document_cache=Path("documents")
    )


def test_a_router_store_is_the_settings_store_of_cooldowns_and_answers(tmp_path: Path) -> None:
    """``[router] store``, which the CLI's ``--state FILE`` sets through ``with_router``."""
    config = load_config(landscape(tmp_path, "")).with_router(store=f"sqlite:///{tmp_path / 'state.db'}")
    settings = config.settings()
    assert isinstance(settings.availability_store, SqliteStore)
    assert settings.answer_cache is settings.availability_store.answers
