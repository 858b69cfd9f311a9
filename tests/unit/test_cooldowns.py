"""Cooldowns grow with repeated failures, reset on success and always expire."""

from __future__ import annotations

import math

import pytest

from schemarouter_integrations import CooldownPolicy, PlanRequest, SchemaRouter
from schemarouter_integrations._availability import CooldownTracker
from schemarouter_integrations.errors import ConfigurationError
from schemarouter_integrations.stores import MemoryAvailabilityStore
from tests.support.fakes import FakeClock
from tests.support.seed import seed_router

PATH = "mp_api.search"
BAND_GAP = PlanRequest(query="Si band gap", arguments={"formula": "Si"}, preferred_tools=("mp_api",))


def tracker(clock: FakeClock, **policy: float) -> CooldownTracker:
    store = MemoryAvailabilityStore()
    store.attach(clock)
    settings = {"base_seconds": 10.0, "max_seconds": 60.0, **policy}
    return CooldownTracker(CooldownPolicy(**settings), store, clock)


def test_repeated_failures_double_the_cooldown() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    lengths = []
    for _ in range(3):
        mark = cooldowns.record_failure(PATH)
        lengths.append(mark.until - clock())
        clock.advance(mark.until - clock())  # the mark expires, the path fails again
    assert lengths == [10.0, 20.0, 40.0]


def test_cooldown_growth_stops_at_max_seconds() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    lengths = []
    for _ in range(6):
        mark = cooldowns.record_failure(PATH)
        lengths.append(mark.until - clock())
        clock.advance(lengths[-1])
    assert lengths == [10.0, 20.0, 40.0, 60.0, 60.0, 60.0]
    assert mark.failures == 6


def test_success_resets_growth() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    cooldowns.record_failure(PATH)
    cooldowns.record_failure(PATH)
    assert cooldowns.record_success(PATH) is True
    mark = cooldowns.record_failure(PATH)
    assert (mark.failures, mark.until - clock()) == (1, 10.0)


def test_success_on_an_open_path_reports_nothing_cleared() -> None:
    cooldowns = tracker(FakeClock())
    assert cooldowns.record_success(PATH) is False


@pytest.mark.parametrize("seconds", [math.inf, -1.0, math.nan, "60", True])
def test_an_application_mark_that_is_not_a_finite_nonnegative_number_is_refused(seconds: object) -> None:
    cooldowns = tracker(FakeClock())
    with pytest.raises(ConfigurationError):
        cooldowns.mark(PATH, seconds=seconds, reason="asked for forever")  # type: ignore[arg-type]
    assert cooldowns.cooldown_left(PATH) is None


def test_an_application_mark_longer_than_max_seconds_is_kept_and_expires() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)  # max_seconds=60
    cooldowns.mark(PATH, seconds=3600, reason="announced maintenance")
    clock.advance(3599.5)
    assert cooldowns.cooldown_left(PATH) == pytest.approx(0.5)
    clock.advance(0.5)
    assert cooldowns.cooldown_left(PATH) is None


def test_a_failure_never_shortens_an_application_mark_longer_than_max_seconds() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    cooldowns.mark(PATH, seconds=3600, reason="announced maintenance")
    clock.advance(100)
    mark = cooldowns.record_failure(PATH, reason="health probe failed")
    assert mark.until - clock() == 3500.0


def test_mark_without_seconds_uses_base_cooldown() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    assert cooldowns.mark(PATH, seconds=None, reason=None).until - clock() == 10.0


def test_nan_cooldown_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="NaN"):
        tracker(FakeClock()).mark(PATH, seconds=float("nan"), reason=None)


def test_failure_never_shortens_a_running_cooldown() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    cooldowns.mark(PATH, seconds=50, reason="maintenance window")
    mark = cooldowns.record_failure(PATH)
    assert mark.until - clock() == 50.0


def test_retry_after_hint_lengthens_cooldown_within_max() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    assert cooldowns.record_failure(PATH, at_least=25).until - clock() == 25.0
    assert cooldowns.record_failure("oqmd_api.search", at_least=3600).until - clock() == 60.0


def test_growth_continues_from_a_shared_mark() -> None:
    clock = FakeClock()
    cooldowns = tracker(clock)
    other = CooldownTracker(cooldowns.policy, cooldowns.store, clock)  # a second router, same store
    other.record_failure(PATH)
    other.record_failure(PATH)
    assert cooldowns.record_failure(PATH).failures == 3


def test_expired_cooldown_reopens_the_path_for_planning() -> None:
    clock = FakeClock()
    router, _ = seed_router(
        SchemaRouter(cooldown=CooldownPolicy(base_seconds=30, max_seconds=300), clock=clock)
    )
    router.mark_access_unavailable("mp_api", "search")
    assert router.plan(BAND_GAP).primary.access_path != PATH  # type: ignore[union-attr]
    clock.advance(30)
    assert router.plan(BAND_GAP).primary.access_path == PATH  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_failed_invocations_grow_the_cooldown_through_the_router() -> None:
    clock = FakeClock()
    router, _ = seed_router(
        SchemaRouter(
            cooldown=CooldownPolicy(base_seconds=30, max_seconds=300), clock=clock, sleep=clock.sleep
        ),
        down=("mp_api",),
    )
    request = BAND_GAP.model_copy(update={"fallback_scope": "same_provider"})
    seen = []
    for _ in range(2):
        result = await router.invoke(request)
        seen.append(router.inspect().execution.cooldowns[PATH])
        clock.advance(seen[-1])
    assert result.tool == "mp_optimade"
    assert seen == [30.0, 60.0]


def test_router_clock_drives_the_seconds_left() -> None:
    clock = FakeClock()
    router, _ = seed_router(SchemaRouter(clock=clock))
    router.mark_access_unavailable("mp_api", "search", seconds=40)
    clock.advance(15)
    assert router.inspect().execution.cooldowns == {PATH: 25.0}


def test_failures_landing_during_an_active_cooldown_do_not_grow_it() -> None:
    from schemarouter_integrations import CooldownPolicy
    from schemarouter_integrations._availability import CooldownTracker
    from schemarouter_integrations.stores import MemoryAvailabilityStore
    from tests.support.fakes import FakeClock

    clock = FakeClock()
    store = MemoryAvailabilityStore()
    store.attach(clock)
    tracker = CooldownTracker(CooldownPolicy(base_seconds=30, max_seconds=300), store, clock)
    first = tracker.record_failure("a.search", escalate=False)
    for _ in range(9):
        again = tracker.record_failure("a.search", escalate=False)
    assert again == first and tracker.cooldown_left("a.search") == 30.0
    clock.advance(30)
    assert tracker.record_failure("a.search", escalate=False).until - clock() == 60.0


def test_application_can_mark_a_known_one_hour_outage_beyond_max_seconds() -> None:
    clock = FakeClock()
    router, _ = seed_router(
        SchemaRouter(cooldown=CooldownPolicy(base_seconds=30, max_seconds=300), clock=clock)
    )
    router.mark_access_unavailable("mp_api", "search", seconds=3600, reason="provider maintenance")
    assert router.inspect().execution.cooldowns == {PATH: 3600.0}
    clock.advance(3599)
    assert router.plan(BAND_GAP).primary.access_path != PATH  # type: ignore[union-attr]
    clock.advance(1)
    assert router.plan(BAND_GAP).primary.access_path == PATH  # type: ignore[union-attr]


@pytest.mark.parametrize("seconds", [-5.0, math.inf])
def test_router_refuses_a_negative_or_endless_mark_and_marks_nothing(seconds: float) -> None:
    router, _ = seed_router(SchemaRouter(clock=FakeClock()))
    with pytest.raises(ConfigurationError, match="finite and non-negative"):
        router.mark_access_unavailable("mp_api", "search", seconds=seconds)
    assert router.inspect().execution.unavailable_access_paths == []
