"""Availability stores: the local view planning reads, without any server."""

from __future__ import annotations

import importlib
import math
import sys

import pytest

from schemarouter_integrations.errors import ConfigurationError
from schemarouter_integrations.stores import AvailabilityMark, MemoryAvailabilityStore, RedisAvailabilityStore
from schemarouter_integrations.stores._redis_wire import MAX_TTL_MS, ttl_ms
from tests.support.fakes import FakeClock

PATH = "mp_api.search"


def test_memory_store_forgets_a_mark_when_it_expires() -> None:
    clock = FakeClock()
    store = MemoryAvailabilityStore()
    store.attach(clock)
    store.mark_unavailable(AvailabilityMark(PATH, until=clock() + 5))
    clock.advance(5)
    assert (store.get(PATH), store.active(), store.mark_available(PATH)) == (None, {}, False)


def test_redis_store_marks_the_local_view_at_once_before_it_starts() -> None:
    clock = FakeClock()
    store = RedisAvailabilityStore("redis://127.0.0.1:1/0", namespace="tests")
    store.attach(clock)
    mark = AvailabilityMark(PATH, until=clock() + 30, reason="timeout", failures=2)
    store.mark_unavailable(mark)
    assert store.get(PATH) == mark
    status = store.status()
    assert (status["connected"], status["pending_writes"], status["marks"]) == (False, 1, 1)


def test_redis_store_clears_the_local_view_at_once() -> None:
    clock = FakeClock()
    store = RedisAvailabilityStore("redis://127.0.0.1:1/0")
    store.attach(clock)
    store.mark_unavailable(AvailabilityMark(PATH, until=clock() + 30))
    assert store.mark_available(PATH) is True
    assert store.active() == {}


def test_redis_store_expires_marks_on_the_router_clock() -> None:
    clock = FakeClock()
    store = RedisAvailabilityStore("redis://127.0.0.1:1/0")
    store.attach(clock)
    store.mark_unavailable(AvailabilityMark(PATH, until=clock() + 30))
    clock.advance(30)
    assert store.get(PATH) is None


def test_redis_store_status_names_the_server_without_credentials() -> None:
    store = RedisAvailabilityStore("redis://admin:hunter2@cache.internal:6380/3", namespace="fleet")
    status = store.status()
    assert status["server"] == "redis://cache.internal:6380/3"
    assert "hunter2" not in repr(status) and "admin" not in repr(status)
    assert (status["kind"], status["shared"], status["namespace"]) == ("redis", True, "fleet")


@pytest.mark.parametrize("namespace", ["", "two words"])
def test_redis_store_refuses_a_blank_namespace(namespace: str) -> None:
    with pytest.raises(ConfigurationError, match="namespace"):
        RedisAvailabilityStore("redis://127.0.0.1:1/0", namespace=namespace)


@pytest.mark.parametrize(
    "setting", ["peer_grace_seconds", "connect_timeout_seconds", "reconnect_max_seconds"]
)
def test_redis_store_refuses_a_timing_that_is_not_a_finite_number(setting: str) -> None:
    with pytest.raises(ConfigurationError, match="finite"):
        RedisAvailabilityStore("redis://127.0.0.1:1/0", **{setting: math.nan})


@pytest.mark.parametrize(
    "url", ["http://cache.internal:6379/0", "cache.internal:6379", "redis://host:port/0"]
)
def test_redis_store_refuses_a_url_it_could_never_connect_with(url: str) -> None:
    with pytest.raises(ConfigurationError, match="Redis URL"):
        RedisAvailabilityStore(url)


def test_redis_store_never_shows_the_password_of_a_refused_url() -> None:
    with pytest.raises(ConfigurationError) as refused:
        RedisAvailabilityStore("http://admin:hunter2@cache.internal:6379/0")
    assert "hunter2" not in str(refused.value)


def test_redis_ttl_of_a_mark_is_rounded_up_to_the_millisecond() -> None:
    assert ttl_ms(until=101.0001, now=100.0) == 1001


def test_redis_ttl_of_a_very_long_application_mark_is_capped_where_redis_accepts_it() -> None:
    assert ttl_ms(until=1e300, now=0.0) == MAX_TTL_MS < 2**63 - 10**13


def test_redis_store_without_the_redis_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "redis" or m.startswith("redis.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "redis", None)
    monkeypatch.delitem(sys.modules, "schemarouter_integrations.stores._redis", raising=False)
    with pytest.raises(ImportError, match=r"schemarouter-integrations\[redis\]"):
        importlib.import_module("schemarouter_integrations.stores._redis")
