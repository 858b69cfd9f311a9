"""Work the answered call path does once instead of on every call, with the same outcome:
the Python invoker's argument check, an argument schema's reading, the response headers."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import httpx
import pytest
from pydantic import AfterValidator

from schemarouter_integrations._contracts.coercion import coerced_value, value_reader
from schemarouter_integrations.adapters._http import HttpTarget
from schemarouter_integrations.adapters._http_body import read_headers
from schemarouter_integrations.adapters._python import build_callable_route
from schemarouter_integrations.stores import AvailabilityMark, MemoryAvailabilityStore
from tests.support.execution import call_of_first_endpoint as call
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.anyio


CHECKED: list[Any] = []


def counted(value: Any) -> Any:
    CHECKED.append(value)
    return value.upper() if isinstance(value, str) else value


Shouted = Annotated[str, AfterValidator(counted)]
CountedTime = Annotated[datetime, AfterValidator(counted)]


async def test_the_same_plain_arguments_are_checked_once_and_reach_the_function_alike() -> None:
    CHECKED.clear()
    received: list[str] = []

    async def lookup(formula: Shouted) -> dict[str, Any]:
        received.append(formula)
        return {"formula": formula}

    spec, invoker = build_callable_route(lookup, name="t")
    for _ in range(3):
        assert await invoker(call(spec, {"formula": "si"})) == {"formula": "SI"}
    assert CHECKED == ["si"]
    assert received == ["SI", "SI", "SI"]
    await invoker(call(spec, {"formula": "ge"}))  # other arguments: checked again
    assert CHECKED == ["si", "ge"]


async def test_arguments_equal_but_of_another_type_or_sign_are_checked_again() -> None:
    seen: list[Any] = []

    async def scaled(x: float) -> dict[str, Any]:
        seen.append(x)
        return {"x": x}

    spec, invoker = build_callable_route(scaled, name="t")
    for value in (0.0, -0.0, 0.0, 1, 1.0):
        await invoker(call(spec, {"x": value}))
    assert [repr(v) for v in seen] == ["0.0", "-0.0", "0.0", "1.0", "1.0"]


async def test_a_value_checked_into_an_object_is_checked_on_every_call() -> None:
    CHECKED.clear()

    async def since(after: CountedTime) -> dict[str, Any]:
        return {"year": after.year}

    spec, invoker = build_callable_route(since, name="t")
    for _ in range(2):
        assert await invoker(call(spec, {"after": "2021-01-02T00:00:00"})) == {"year": 2021}
    assert len(CHECKED) == 2  # never one object shared by two calls


async def test_plain_records_come_back_equal_and_others_are_dumped() -> None:
    async def rows() -> list[dict[str, Any]]:
        return [{"a": 1, "b": None, "c": 0.5, "d": True, "e": "x"}]

    spec, invoker = build_callable_route(rows, name="t")
    assert await invoker(call(spec, {})) == [{"a": 1, "b": None, "c": 0.5, "d": True, "e": "x"}]

    async def nested() -> list[dict[str, Any]]:
        return [{"a": {"b": (1, 2)}}]

    spec, invoker = build_callable_route(nested, name="t")
    assert await invoker(call(spec, {})) == [{"a": {"b": (1, 2)}}]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer"},
        {"type": "array", "items": {"type": "string", "enum": ["Si", "Ge"]}},
        {"anyOf": [{"type": "number"}, {"type": "null"}]},
        {"type": "boolean"},
        {"type": "string"},
        {"type": ["number", "null"]},
        {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    ],
)
@pytest.mark.parametrize("value", ["2021", "si", 7, 1.0, 1.5, True, ["ge"], "true", "0.5"])
def test_a_value_reader_reads_as_coerced_value(schema: dict[str, Any], value: Any) -> None:
    assert value_reader(schema)(value) == coerced_value(schema, value)


def test_the_headers_read_are_those_httpx_gives_in_one_pass() -> None:
    headers = httpx.Headers(
        [("Cache-Control", "max-age=60"), ("ETag", '"v1"'), ("cache-control", "public"), ("X-Other", "1")]
    )
    assert read_headers(headers) == {"cache-control": headers["cache-control"], "etag": headers["etag"]}
    assert read_headers(headers)["cache-control"] == "max-age=60, public"


async def test_a_fetched_answer_keeps_repeated_caching_headers_joined() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            headers=[("Cache-Control", "max-age=60"), ("cache-control", "public"), ("ETag", '"v1"')],
            json={"ok": True},
        )

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    fetched = await HttpTarget(client, "http://api.test").fetch("GET", "http://api.test/x")
    assert fetched.caching == {"cache-control": "max-age=60, public"}
    assert fetched.validators == {"etag": '"v1"'}
    assert fetched.content_type == "application/json"


class CountingClock(FakeClock):
    reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return super().__call__()


def test_the_memory_store_reads_no_clock_for_a_path_without_a_mark() -> None:
    clock = CountingClock()
    store = MemoryAvailabilityStore()
    store.attach(clock)
    assert store.get("a.b") is None
    assert store.mark_available("a.b") is False
    assert clock.reads == 0


def test_the_memory_store_clears_a_live_mark_and_drops_an_expired_one() -> None:
    clock = FakeClock()
    store = MemoryAvailabilityStore()
    store.attach(clock)
    store.mark_unavailable(AvailabilityMark("a.b", until=clock() + 5))
    assert store.mark_available("a.b") is True
    store.mark_unavailable(AvailabilityMark("a.b", until=clock() + 5))
    clock.advance(5)
    assert store.mark_available("a.b") is False  # expired: nothing was cleared
    assert store.get("a.b") is None
