"""Landscape files declare the answer cache, cache policies and rate limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from schemarouter_integrations import CachePolicy, MemoryAnswerCache, PlanRequest, RateLimit, SchemaRouter
from schemarouter_integrations.errors import ConfigurationError

pytestmark = pytest.mark.anyio
CALLS: list[str] = []


def lab_search(formula: str) -> list[dict[str, Any]]:
    CALLS.append(formula)
    return [{"formula": formula, "band_gap": 1.1}]


ROUTE = (
    '[routes.lab]\nkind = "python"\nfunction = "tests.unit.test_answer_cache_config:lab_search"\n'
    'provider = "lab"\nread_only = true\nfields = ["band_gap", "formula"]\n'
)


async def test_the_tool_cache_policy_and_a_memory_cache_come_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "lab.toml"
    path.write_text("[tool]\ncache = { ttl_seconds = 30, stale_if_error_seconds = 600 }\n\n" + ROUTE)
    CALLS.clear()
    async with await SchemaRouter.from_config(path) as router:
        assert isinstance(router.answer_cache, MemoryAnswerCache)
        assert router.cache_policy == CachePolicy(ttl_seconds=30, stale_if_error_seconds=600)
        request = PlanRequest(query="band gap", arguments={"formula": "Si"})
        await router.invoke(request)
        assert (await router.invoke(request)).cached
    assert CALLS == ["Si"]


async def test_a_route_declares_its_own_cache_and_rate_limit(tmp_path: Path) -> None:
    path = tmp_path / "lab.toml"
    path.write_text(
        ROUTE + "cache = { ttl_seconds = 5 }\nrate_limit = { per_second = 20, max_wait_seconds = 0.5 }\n\n"
        "[rate_limits]\nlab = { per_second = 50 }\n"
    )
    async with await SchemaRouter.from_config(path) as router:
        assert router.cache_policies.routes["lab"] == CachePolicy(ttl_seconds=5)
        assert router.rate_gate.routes["lab"] == RateLimit(20, max_wait_seconds=0.5)
        assert router.rate_gate.providers["lab"] == RateLimit(50)
        assert set(router.inspect().rate_limits["limits"]) == {"route:lab", "provider:lab"}


def test_a_bad_rate_limit_points_at_its_line(tmp_path: Path) -> None:
    from schemarouter_integrations.config import load_config

    path = tmp_path / "lab.toml"
    path.write_text(ROUTE + "rate_limit = { per_second = -1 }\n")
    with pytest.raises(ConfigurationError, match="rate_limit"):
        load_config(path)
