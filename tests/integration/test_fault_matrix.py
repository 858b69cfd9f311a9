"""The fault matrix (issue 13): every way an HTTP route can fail, over real loopback HTTP.

Each row registers one faulty OpenAPI route (``faulty.search``, 2 attempts, no backoff,
0.3 s timeout) and a healthy Python callable of the same provider serving the same field
(``fallback``), asks for ``faulty`` first with ``fallback_scope="same_provider"`` and reads
the run's events: was the faulty route retried (``tool.retry``), cooled down
(``route.unavailable``), fallen back from (``tool.fallback``), which error did it end with
(``tool.error``), and how did the run end.

The expectations are the documented rule (docs/concepts/fallback.md "Fault matrix",
``adapters/_http_errors.py``): timeouts, connection failures and 408/425/429/500/502/503/504
are unavailable: retried, cooled down, fallen back from (a ``Retry-After`` past the backoff cap
cools at once, without a retry). Every other status and every body problem is a
``NonRetryableInvocationError``: no retry, no cooldown, no fallback, and the run ends with it.
A redirect is never followed.

The faults come from ``tests/servers/fault_server.py`` (raw sockets); the table below is
copied by hand into docs/concepts/fallback.md.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anyio.lowlevel
import pytest

from schemarouter_integrations import (
    CooldownPolicy,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    PlanRequest,
    RetryPolicy,
    RouterEvent,
    SchemaRouter,
)
from schemarouter_integrations.errors import AttemptRecord, InvocationError
from tests.servers.fault_server import (
    Chunked,
    CloseWithoutResponse,
    Fault,
    FaultServer,
    FullBacklogPort,
    Hang,
    NeverAccepted,
    Redirect,
    Refused,
    Reply,
    Status,
    Trickle,
    Truncated,
    http_date_in,
    json_body,
)

pytestmark = [pytest.mark.integration, pytest.mark.anyio]

LIMIT = 4096
"""``max_response_bytes`` of every router here (the documents are far smaller)."""
TIMEOUT = 0.3
RETRY = RetryPolicy(max_attempts=2, backoff_seconds=0, jitter=False)  # max_backoff_seconds=30
COOLDOWN = CooldownPolicy(base_seconds=30, max_seconds=300)
BASE, MAX = COOLDOWN.base_seconds, COOLDOWN.max_seconds
FALLBACK_RECORD = {"band_gap": 1.12}
REQUEST = PlanRequest(
    query="Si band gap",
    arguments={"formula": "Si"},
    preferred_tools=["faulty"],
    fallback_scope="same_provider",
)

JSON = {"content-type": "application/json"}
HTML = {"content-type": "text/html; charset=utf-8"}
GZIP_JSON = {**JSON, "content-encoding": "gzip"}
MAINTENANCE_PAGE = b"<!DOCTYPE html><html><body><h1>Back soon</h1></body></html>"

UNAVAILABLE = InvocationUnavailableError
NON_RETRYABLE = NonRetryableInvocationError
YES, NO = True, False


@dataclass(frozen=True)
class Row:
    """One fault and what the router must do about it."""

    name: str
    fault: Fault
    retried: bool
    cooled: bool
    fell_back: bool
    error: type[InvocationError]
    """The error the faulty route ends with (``tool.error`` ``error_type``)."""
    match: str = ""
    """A regex the faulty route's error message must contain (why it failed)."""
    delay: tuple[float, float] = (0.0, 0.0)
    """Bounds of the ``tool.retry`` delay, when retried (seconds; slept on a fake sleep)."""
    cooldown: float = BASE
    """``route.unavailable`` ``cooldown_seconds``, when cooled (first failure: the base)."""

    @property
    def ends(self) -> str:
        return "answered by fallback" if self.fell_back else self.error.__name__

    @property
    def status_code(self) -> int | None:
        return self.fault.status if isinstance(self.fault, Status | Redirect) else None

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")


# fmt: off
ROWS = [
    #   behaviour                            fault                       retried cooled fallback error
    Row("connection refused",                Refused(),                  YES, YES, YES, UNAVAILABLE,
        match="could not connect"),
    Row("connect timeout (accept queue full)", NeverAccepted(),          YES, YES, YES, UNAVAILABLE,
        match="timed out"),
    Row("read timeout (no answer)",          Hang(),                     YES, YES, YES, UNAVAILABLE,
        match="timed out"),
    Row("closed without response",           CloseWithoutResponse(),     YES, YES, YES, UNAVAILABLE),
    Row("trickle body that never ends",      Trickle(),                  YES, YES, YES, UNAVAILABLE,
        match="timed out"),
    Row("408",                               Status(408),                YES, YES, YES, UNAVAILABLE, "408"),
    Row("425",                               Status(425),                YES, YES, YES, UNAVAILABLE, "425"),
    Row("429 Retry-After 1 s",               Status(429, {"retry-after": "1"}),
                                                                         YES, YES, YES, UNAVAILABLE, "429",
        delay=(1.0, 1.0)),
    Row("429 Retry-After 3600 s (past the backoff cap)", Status(429, {"retry-after": "3600"}),
                                                                         NO,  YES, YES, UNAVAILABLE, "429",
        cooldown=MAX),
    Row("429 Retry-After HTTP-date in 10 s", Status(429, {"retry-after": http_date_in(10)}),
                                                                         YES, YES, YES, UNAVAILABLE, "429",
        delay=(8.0, 10.0)),
    Row("429 Retry-After HTTP-date in 1 h (past the backoff cap)",
                                             Status(429, {"retry-after": http_date_in(3600)}),
                                                                         NO,  YES, YES, UNAVAILABLE, "429",
        cooldown=MAX),
    Row("429 without Retry-After",           Status(429),                YES, YES, YES, UNAVAILABLE, "429"),
    Row("500",                               Status(500),                YES, YES, YES, UNAVAILABLE, "500"),
    Row("501",                               Status(501),                NO,  NO,  NO,  NON_RETRYABLE, "501"),
    Row("502",                               Status(502),                YES, YES, YES, UNAVAILABLE, "502"),
    Row("503",                               Status(503),                YES, YES, YES, UNAVAILABLE, "503"),
    Row("504",                               Status(504),                YES, YES, YES, UNAVAILABLE, "504"),
    Row("400",                               Status(400),                NO,  NO,  NO,  NON_RETRYABLE, "400"),
    Row("401",                               Status(401),                NO,  NO,  NO,  NON_RETRYABLE, "401"),
    Row("403",                               Status(403),                NO,  NO,  NO,  NON_RETRYABLE, "403"),
    Row("404",                               Status(404),                NO,  NO,  NO,  NON_RETRYABLE, "404"),
    Row("422",                               Status(422),                NO,  NO,  NO,  NON_RETRYABLE, "422"),
    Row("invalid JSON",                      Reply(200, JSON, b'{"data": [{"band_gap": 0.6'),
                                                                         NO,  NO,  NO,  NON_RETRYABLE,
        match="not valid JSON"),
    Row("truncated body (content-length larger than sent)", Truncated(),
                                                                         NO,  NO,  NO,  NON_RETRYABLE,
        match="truncated"),
    Row("oversized body (declared content-length)", Reply(200, JSON, json_body(4 * LIMIT)),
                                                                         NO,  NO,  NO,  NON_RETRYABLE,
        match="larger than the limit"),
    Row("oversized body (chunked, no length)", Chunked(json_body(4 * LIMIT)),
                                                                         NO,  NO,  NO,  NON_RETRYABLE,
        match="larger than the limit"),
    Row("gzip bomb",                         Reply(200, GZIP_JSON, gzip.compress(json_body(1_000_000))),
                                                                         NO,  NO,  NO,  NON_RETRYABLE,
        match="larger than the limit"),
    Row("wrong content type (HTML page)",    Reply(200, HTML, MAINTENANCE_PAGE),
                                                                         NO,  NO,  NO,  NON_RETRYABLE,
        match="not valid JSON"),
    Row("empty 200",                         Reply(200, JSON),           NO,  NO,  NO,  NON_RETRYABLE,
        match="empty body"),
    Row("302 redirect to another host",      Redirect(302),              NO,  NO,  NO,  NON_RETRYABLE, "302"),
    Row("307 redirect to another host",      Redirect(307),              NO,  NO,  NO,  NON_RETRYABLE, "307"),
]
# fmt: on


@dataclass(frozen=True)
class Outcome:
    retried: bool
    cooled: bool
    fell_back: bool
    error: str | None
    ends: str


def expected(row: Row) -> Outcome:
    return Outcome(row.retried, row.cooled, row.fell_back, row.error.__name__, row.ends)


def observed(events: Sequence[RouterEvent]) -> Outcome:
    errors = of_faulty(events, "tool.error")
    assert len(errors) <= 1, errors
    last: Any = events[-1]
    if last.type == "run.end":
        answered_by = last.result.tool
        ends = "answered by fallback" if answered_by == "fallback" else f"answered by {answered_by}"
    else:
        ends = last.error_type
    return Outcome(
        retried=bool(of_faulty(events, "tool.retry")),
        cooled=bool(of_faulty(events, "route.unavailable")),
        fell_back=any(
            e.type == "tool.fallback" and (e.from_tool, e.to_tool) == ("faulty", "fallback")  # type: ignore[attr-defined]
            for e in events
        ),
        error=errors[0].error_type if errors else None,  # type: ignore[attr-defined]
        ends=ends,
    )


def of_faulty(events: Sequence[RouterEvent], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind and getattr(e, "tool", None) == "faulty"]


def attempts_of_faulty(events: Sequence[RouterEvent]) -> list[AttemptRecord]:
    last: Any = events[-1]
    attempts = last.result.attempts if last.type == "run.end" else last.attempts
    return [a for a in attempts if a.access_path == "faulty.search"]


def base_url_for(row: Row, refused_url: str, backlog: FullBacklogPort) -> str | None:
    """Where the route's requests go: the fault server (None) or a port that fails to connect."""
    if isinstance(row.fault, Refused):
        return f"{refused_url}/{row.slug}"
    if isinstance(row.fault, NeverAccepted):
        if not backlog.full:
            pytest.skip("this kernel completed every loopback handshake: no connect timeout to be had")
        return f"{backlog.url}/{row.slug}"
    return None


async def run_row(
    row: Row, server: FaultServer, base_url: str | None
) -> tuple[list[RouterEvent], list[float], list[str], dict[str, float]]:
    """One run of REQUEST against the faulty route of *row*; events, sleeps, fallback calls, cooldowns."""
    slept: list[float] = []
    fallback_calls: list[str] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await anyio.lowlevel.checkpoint()

    def band_gap_table(formula: str) -> dict[str, float]:
        fallback_calls.append(formula)
        return FALLBACK_RECORD

    async with SchemaRouter(cooldown=COOLDOWN, sleep=sleep, max_response_bytes=LIMIT) as router:
        await router.add_url(
            server.route(row.slug, row.fault),
            kind="openapi",
            name="faulty",
            provider="p",
            base_url=base_url,
            retry=RETRY,
            timeout_seconds=TIMEOUT,
        )
        router.add_callable(
            band_gap_table, name="fallback", provider="p", read_only=True, fields=["band_gap"]
        )
        events = [event async for event in router.stream(REQUEST)]
        cooldowns = dict(router.inspect().execution.cooldowns)
    return events, slept, fallback_calls, cooldowns


@pytest.mark.parametrize("row", ROWS, ids=[row.slug for row in ROWS])
async def test_fault_matrix(
    row: Row, fault_server: FaultServer, refused_url: str, full_backlog: FullBacklogPort
) -> None:
    base_url = base_url_for(row, refused_url, full_backlog)
    events, slept, fallback_calls, cooldowns = await run_row(row, fault_server, base_url)

    assert observed(events) == expected(row)

    # every attempt of the faulty route ended with the row's error, for the row's reason
    attempts = attempts_of_faulty(events)
    assert [a.attempt for a in attempts] == ([1, 2] if row.retried else [1])
    for attempt in attempts:
        assert type(attempt.exception) is row.error, attempt.describe()
        assert re.search(row.match, attempt.error or ""), attempt.describe()
        if row.status_code is not None:
            assert attempt.exception.status_code == row.status_code  # type: ignore[union-attr]
    if base_url is None:  # the faulty server saw each attempt, and nothing else was fetched
        assert len(fault_server.received(row.slug)) == len(attempts)
    assert fault_server.received_at("/collect") == []  # no redirect was followed

    retries = of_faulty(events, "tool.retry")
    assert [r.delay_seconds for r in retries] == slept
    low, high = row.delay
    assert all(low <= r.delay_seconds <= high for r in retries), retries

    cooled = of_faulty(events, "route.unavailable")
    if row.cooled:
        # seconds left when the event was made: the full cooldown, less what the run took since
        assert [c.cooldown_seconds for c in cooled] == [pytest.approx(row.cooldown, abs=1.0)]
        assert "faulty.search" in cooldowns
    else:
        assert "faulty.search" not in cooldowns

    last: Any = events[-1]
    if row.fell_back:
        assert last.type == "run.end"
        assert (last.result.tool, last.result.records) == ("fallback", [FALLBACK_RECORD])
        assert last.result.route == ["faulty.search", "fallback.band_gap_table"]
        assert fallback_calls == ["Si"]
    else:
        assert last.type == "run.error"
        assert type(last.exception) is row.error
        assert fallback_calls == []


async def test_the_faulty_route_answers_when_its_server_does(fault_server: FaultServer) -> None:
    """The control row: the same route, an honest 200, answered by the route itself."""
    row = Row("honest 200", Reply(200, JSON, json_body()), NO, NO, NO, NON_RETRYABLE)
    events, slept, fallback_calls, cooldowns = await run_row(row, fault_server, None)
    last: Any = events[-1]
    assert last.type == "run.end"
    assert (last.result.tool, last.result.records) == ("faulty", [{"band_gap": 0.61}])
    assert (slept, fallback_calls, cooldowns) == ([], [], {})
    assert len(fault_server.received(row.slug)) == 1
