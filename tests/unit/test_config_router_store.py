"""``[router] store``: a SQLite file next to the landscape (or absolute) or a Redis URL, one store
for cooldowns, answers and rate limits; a wrong scheme or two stores are configuration errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.config import LandscapeError, load_config, parse_config
from schemarouter_integrations.stores import RedisStore, SqliteStore

pytestmark = pytest.mark.anyio
ROUTE = """
[routes.mp]
kind = "python"
function = "schemarouter_integrations.testing:materials_search"
endpoint = "search"
"""


def write(folder: Path, store: str) -> Path:
    path = folder / "landscape.toml"
    path.write_text(f'[router]\nstore = "{store}"\n' + ROUTE)
    return path


async def test_a_relative_sqlite_store_lives_next_to_the_landscape(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "sqlite:///state/router.db"))
    async with await SchemaRouter.from_config(config) as router:
        store = router.availability_store
        assert isinstance(store, SqliteStore) and store.path == tmp_path / "state" / "router.db"
        assert router.answer_cache is store.answers and router.rate_gate.backend is store.rate_limits


def test_an_absolute_sqlite_store_and_a_redis_store(tmp_path: Path) -> None:
    absolute = load_config(write(tmp_path, f"sqlite:///{tmp_path}/abs.db")).router_store()
    assert isinstance(absolute, SqliteStore) and absolute.path == tmp_path / "abs.db"
    assert isinstance(load_config(write(tmp_path, "redis://127.0.0.1:6390/0")).router_store(), RedisStore)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[router]\nstore = "sqlite:/x.db"\n', "must be sqlite:///<path> or a Redis URL"),
        ('[router]\nstore = "sqlite:///x.db"\n[availability]\nstore = "redis://h:1/0"\n', "both set"),
    ],
)
def test_a_store_the_router_cannot_use_is_a_configuration_error(text: str, says: str) -> None:
    with pytest.raises(LandscapeError, match=says):
        parse_config(text + ROUTE)
