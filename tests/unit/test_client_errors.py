"""A Python client's outage is unavailable: its transport and 429/5xx errors, by class."""

from __future__ import annotations

import socket
import urllib.error
from email.message import Message
from typing import Any

import httpx
import pytest
import requests

from schemarouter_integrations import InvocationUnavailableError, PlanRequest, SchemaRouter
from schemarouter_integrations.adapters._client_errors import unavailable_error
from schemarouter_integrations.errors import InvokerCrashedError, RegistrationError
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.anyio


def _requests_status_error(status: int) -> requests.HTTPError:
    response = requests.Response()
    response.status_code = status
    return requests.HTTPError(f"{status} Server Error", response=response)


def _httpx_status_error(status: int) -> httpx.HTTPStatusError:
    request = httpx.Request("GET", "https://api.example.org/x")
    return httpx.HTTPStatusError("boom", request=request, response=httpx.Response(status, request=request))


TRANSPORT = [
    ConnectionRefusedError(111, "Connection refused"),
    ConnectionResetError(104, "Connection reset by peer"),
    TimeoutError("timed out"),
    socket.gaierror(-2, "Name or service not known"),
    urllib.error.URLError("connection refused"),
    requests.exceptions.ConnectionError("Max retries exceeded"),
    requests.exceptions.ReadTimeout("read timed out"),
    httpx.ConnectError("refused"),
    httpx.ReadTimeout("slow"),
    httpx.RemoteProtocolError("server disconnected"),
]


@pytest.mark.parametrize("error", TRANSPORT, ids=lambda e: type(e).__qualname__)
def test_transport_errors_of_the_standard_library_and_http_clients_are_unavailable(error: Exception) -> None:
    found = unavailable_error(error, "mp_python.search")

    assert found is not None and found.transport is True
    assert found.__cause__ is error


def test_urllib3_and_aiohttp_errors_are_recognised_without_importing_them_here() -> None:
    urllib3 = pytest.importorskip("urllib3")
    aiohttp = pytest.importorskip("aiohttp")

    for error in (urllib3.exceptions.MaxRetryError(None, "/x"), aiohttp.ServerDisconnectedError()):
        found = unavailable_error(error, "mp_python.search")
        assert found is not None and found.transport is True


@pytest.mark.parametrize(
    "error",
    [
        _requests_status_error(503),
        _httpx_status_error(429),
        urllib.error.HTTPError("https://x", 502, "Bad Gateway", Message(), None),
    ],
    ids=["requests-503", "httpx-429", "urllib-502"],
)
def test_status_errors_meaning_try_later_are_unavailable_but_not_transport(error: Exception) -> None:
    found = unavailable_error(error, "mp_python.search")

    assert found is not None and found.transport is False and found.status_code in {429, 502, 503}


@pytest.mark.parametrize(
    "error",
    [
        _requests_status_error(404),
        _httpx_status_error(400),
        urllib.error.HTTPError("https://x", 401, "Unauthorized", Message(), None),
        KeyError("version"),
        ValueError("bad"),
    ],
    ids=["requests-404", "httpx-400", "urllib-401", "KeyError", "ValueError"],
)
def test_other_errors_are_not_unavailable(error: Exception) -> None:
    assert unavailable_error(error, "mp_python.search") is None


def test_a_client_error_wrapping_a_transport_error_is_unavailable() -> None:
    try:
        try:
            raise requests.exceptions.ConnectionError("refused")
        except requests.exceptions.ConnectionError as inner:
            raise RuntimeError("the client gave up") from inner
    except RuntimeError as outer:
        found = unavailable_error(outer, "mp_python.search")

    assert found is not None and found.transport is True


def test_a_client_error_raised_while_handling_a_transport_error_is_unavailable() -> None:
    try:
        try:
            raise requests.exceptions.ConnectionError("refused")
        except requests.exceptions.ConnectionError:
            raise RuntimeError("REST query returned no response")  # noqa: B904 - as MPRester does
    except RuntimeError as outer:
        found = unavailable_error(outer, "mp_python.search")

    assert found is not None and found.transport is True


def test_a_client_error_raised_with_its_context_suppressed_is_not_unavailable() -> None:
    try:
        try:
            raise requests.exceptions.ConnectionError("refused")
        except requests.exceptions.ConnectionError:
            raise RuntimeError("something else") from None
    except RuntimeError as outer:
        assert unavailable_error(outer, "mp_python.search") is None


def test_the_applications_types_come_before_a_client_status_error_that_is_not_retryable() -> None:
    not_found = urllib.error.HTTPError("https://x", 404, "Not Found", Message(), None)

    assert unavailable_error(not_found, "x", unavailable_on=(urllib.error.HTTPError,)) is not None


def test_a_client_status_error_carries_the_retry_after_hint() -> None:
    error = _requests_status_error(429)
    error.response.headers["Retry-After"] = "7"

    found = unavailable_error(error, "x")

    assert found is not None and found.retry_after == 7.0


def test_retries_that_ran_out_on_statuses_are_unavailable_without_cooling_the_origin() -> None:
    urllib3 = pytest.importorskip("urllib3")
    gave_up = urllib3.exceptions.MaxRetryError(None, "/x", urllib3.exceptions.ResponseError("too many 503"))

    for error in (gave_up, requests.exceptions.RetryError("too many 503 error responses")):
        found = unavailable_error(error, "x")
        assert found is not None and found.transport is False


def test_retries_that_ran_out_on_connections_are_transport_failures() -> None:
    urllib3 = pytest.importorskip("urllib3")
    refused = urllib3.exceptions.NewConnectionError(None, "refused")  # type: ignore[arg-type]

    found = unavailable_error(urllib3.exceptions.MaxRetryError(None, "/x", refused), "x")

    assert found is not None and found.transport is True


def test_the_application_names_its_own_unavailable_types() -> None:
    assert unavailable_error(KeyError("version"), "x", unavailable_on=(KeyError,)) is not None


def _router_with(fn: Any, **options: Any) -> SchemaRouter:
    router = SchemaRouter(clock=FakeClock())
    router.add_callable(fn, name="mp_python", provider="mp", read_only=True, fields=["band_gap"], **options)

    def fallback(formula: str) -> list[dict[str, Any]]:
        return [{"band_gap": 1.1}]

    router.add_callable(fallback, name="oqmd", provider="oqmd", read_only=True, fields=["band_gap"])
    return router


REQUEST = PlanRequest(
    query="band gap",
    arguments={"formula": "Si"},
    preferred_tools=["mp_python"],
    fallback_scope="cross_provider",
)


async def test_a_callable_whose_client_cannot_connect_falls_back() -> None:
    def mp_python(formula: str) -> list[dict[str, Any]]:
        raise requests.exceptions.ConnectionError("Max retries exceeded with url: /materials/summary/")

    result = await _router_with(mp_python).invoke(REQUEST)

    assert result.route == ["mp_python.mp_python", "oqmd.fallback"]


async def test_unavailable_on_makes_a_callable_error_a_fallback() -> None:
    def mp_python(formula: str) -> list[dict[str, Any]]:
        raise KeyError("version")

    result = await _router_with(mp_python, unavailable_on=(KeyError,)).invoke(REQUEST)

    assert result.tool == "oqmd"


async def test_a_callable_bug_still_ends_the_run() -> None:
    def mp_python(formula: str) -> list[dict[str, Any]]:
        raise KeyError("version")

    with pytest.raises(InvokerCrashedError):
        await _router_with(mp_python).invoke(REQUEST)


async def test_a_callable_with_an_origin_is_skipped_while_that_origin_cools() -> None:
    calls: list[str] = []

    def mp_python(formula: str) -> list[dict[str, Any]]:
        calls.append(formula)
        return [{"band_gap": 0.6}]

    router = _router_with(mp_python, origin="https://api.materialsproject.org")
    router.register(router.tools["mp_python"].model_copy(update={"name": "mp_rest"}), _refusing)
    request = REQUEST.model_copy(update={"preferred_tools": ["mp_rest", "mp_python"]})

    result = await router.invoke(request)

    assert result.tool == "oqmd" and calls == []
    assert router.tools["mp_python"].origin == "https://api.materialsproject.org"


async def _refusing(call: Any) -> Any:
    raise InvocationUnavailableError("GET /materials/summary/: could not connect", transport=True)


def test_unavailable_on_takes_only_exception_types() -> None:
    router = SchemaRouter()

    with pytest.raises(RegistrationError, match="unavailable_on"):
        router.add_callable(lambda: [], name="x", unavailable_on=("KeyError",))
