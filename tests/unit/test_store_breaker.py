"""The breaker of a shared store: closed until failures in a row reach the threshold, then open
for a pause that doubles each time the first try after it fails, closed again by a success."""

from __future__ import annotations

import pytest

from schemarouter_integrations.stores._breaker import Breaker, StoreUnavailable
from tests.support.fakes import FakeClock


def test_the_pause_grows_while_the_store_keeps_failing_and_resets_when_it_works() -> None:
    clock = FakeClock()
    breaker = Breaker(failures_to_open=3, first_pause_seconds=1.0, max_pause_seconds=3.0, clock=clock)
    breaker.failed()
    breaker.failed()
    breaker.check()  # two failures: still closed
    breaker.failed()
    with pytest.raises(StoreUnavailable):
        breaker.check()
    assert breaker.status()["state"] == "open" and breaker.status()["retry_in_seconds"] == 1.0
    clock.advance(1.0)
    breaker.check()  # half-open: the next question tries
    assert breaker.state == "half-open"
    breaker.failed()
    assert breaker.status()["retry_in_seconds"] == 2.0
    clock.advance(2.0)
    breaker.failed()
    assert breaker.status()["retry_in_seconds"] == 3.0  # capped at max_pause_seconds
    clock.advance(3.0)
    breaker.succeeded()
    assert breaker.status() | {"skipped": 0} == {
        "state": "closed",
        "consecutive_failures": 0,
        "retry_in_seconds": None,
        "opened": 3,
        "skipped": 0,
    }
