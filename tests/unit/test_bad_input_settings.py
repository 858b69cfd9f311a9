"""Router settings of the wrong kind are refused at construction, as router errors."""

from __future__ import annotations

from typing import Any

import pytest

from schemarouter_integrations import SchemaRouter, SchemaRouterError
from schemarouter_integrations.errors import ConfigurationError, InvalidCallbackError


@pytest.mark.parametrize(
    "settings",
    [
        {"cooldown": {"base_seconds": 5}},
        {"availability_store": "redis://127.0.0.1:6379/0"},
        {"max_response_bytes": 0},
        {"max_response_bytes": 1.5},
    ],
    ids=["cooldown_dict", "store_url", "zero_bytes", "fractional_bytes"],
)
def test_router_refuses_settings_of_the_wrong_kind(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError):
        SchemaRouter(**settings)


@pytest.mark.parametrize("setting", ["clock", "sleep"])
def test_router_refuses_a_clock_or_sleep_that_cannot_be_called(setting: str) -> None:
    with pytest.raises(InvalidCallbackError, match=setting) as raised:
        SchemaRouter(**{setting: 12.0})
    assert isinstance(raised.value, SchemaRouterError) and isinstance(raised.value, TypeError)
