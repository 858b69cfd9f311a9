"""Per-run bookkeeping: ids, event sequence numbers and attempt records."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic_core import PydanticUndefined

from .._planning import Plan, ToolCall
from .._settling import LAZY
from .._trusted import Trusted
from ..errors import AttemptRecord
from ..events import (
    PlanCompiledEvent,
    Provenance,
    RouterEvent,
    RunEndEvent,
    RunErrorEvent,
    ToolFallbackEvent,
    ToolResult,
)

E = TypeVar("E", bound=RouterEvent)
_BUILDERS: dict[type[RouterEvent], Trusted[Any]] = {}


def trusted_event(cls: type[E], /, **payload: Any) -> E:
    """A *cls* event from the router's own, already typed values, built without validation.

    Only for payloads the router computed itself (run ids, counters, compiled calls, error
    texts, floats as floats); anything from outside goes through ``cls(**payload)``.
    """
    built: E = _builder(cls).of(payload)
    return built


def _builder(cls: type[E]) -> Trusted[E]:
    builder = _BUILDERS.get(cls)
    if builder is None:
        builder = _BUILDERS[cls] = Trusted(cls)
    return builder


trusted_result: Trusted[ToolResult] = Trusted(ToolResult)
"""Builds a run's :class:`ToolResult` from its own bookkeeping without validating it again."""
_RESULT_DEFAULTS = {
    name: None if info.default is PydanticUndefined else info.default
    for name, info in ToolResult.model_fields.items()
    if name != "events"
}
"""A quiet run's result without its events (immutable defaults: ``Trusted``'s template)."""
_new, _set_state = object.__new__, object.__setattr__


def _unsettled_result(values: dict[str, Any], events: Callable[[], list[RouterEvent]]) -> ToolResult:
    """What ``trusted_result.of({**values, "events": ...})`` and ``leave_for_later(built,
    "events", events)`` build, in one step: *values* are the run's own, every required
    field but ``events`` among them."""
    built = _new(ToolResult)
    _set_state(built, "__dict__", {**_RESULT_DEFAULTS, **values})
    _set_state(built, "__pydantic_fields_set__", {*values, "events"})
    _set_state(built, "__pydantic_extra__", None)
    _set_state(built, "__pydantic_private__", {LAZY: ("events", events)})
    return built


_FIRST_ANSWERED: dict[str, AttemptRecord] = {}
"""Access path -> the (frozen) record of a first attempt that answered, shared by runs."""

_FINAL: frozenset[type[RouterEvent]] = frozenset({RunEndEvent, RunErrorEvent})
"""Built at once even in a quiet run: the caller reads the run's result or error from them."""


class RunContext:
    """Stamps events with the run id and a sequence number and keeps them in order.

    A *quiet* run (nobody listens: no sink, stream, scope or hedge) builds no event during
    the run: :meth:`event` records ``(class, payload)`` and returns that record, and
    :meth:`emit` / :meth:`heard` hand nothing on, so run code has one path for both kinds of
    run; its :class:`ToolResult` builds the events when they are first
    read (:func:`result`), the same events, in the same order, with the same fields.
    """

    __slots__ = (
        "attempts",
        "cache_down",
        "events",
        "failing_origins",
        "gathering",
        "max_records",
        "more",
        "provenance",
        "quiet",
        "records",
        "route",
        "run_id",
        "served",
        "total",
        "winner",
    )

    def __init__(self, run_id: str | None = None, *, quiet: bool = False) -> None:
        self.run_id = run_id or _uuid4_hex()
        self.quiet = quiet
        self.events: list[Any] = []
        """The run's events so far (in a quiet run, records of those not built yet)."""
        self.attempts: list[AttemptRecord] = []
        self.route: list[str] = []
        self.winner: ToolCall | None = None
        self.records: list[dict[str, Any]] = []
        self.provenance: Provenance | None = None
        """The winner's provenance, when it relayed another router's answer."""
        self.total: int | None = None
        self.more = False
        """The winner's count of matching records (when reported), and whether it holds more."""
        self.max_records: int | None = None
        """The request's ``max_records``: listings are paged up to it (None: not paged)."""
        self.failing_origins: set[str] = set()
        """Origins on which an access path failed as unavailable in this run."""
        self.gathering = False
        """True for a route of a gather: a transport failure is never retried, anything else
        at most once (:func:`~.chain.retries_left`)."""
        self.served: Any = None
        """How the answer came from the answer cache (``answers.Served``), or None."""
        self.cache_down = False
        """True once the answer cache failed in this run: its other operations are skipped."""

    def event(self, cls: type[E], /, **payload: Any) -> E:
        """Build, stamp, record and return a *cls* event.

        The payload is the router's own typed data (compiled calls, counters, error texts),
        so the event is built without validating it again (:func:`trusted_event`);
        unknown or missing fields still raise ``TypeError``.
        """
        payload["run_id"] = self.run_id  # the payload dict is this call's own
        payload["seq"] = len(self.events) + 1
        payload["timestamp"] = time.time()
        if self.quiet and cls not in _FINAL:
            record = (cls, payload)
            self.events.append(record)
            return record  # type: ignore[return-value]  # a quiet run only passes it along
        event = _builder(cls).of(payload)
        self.events.append(event)
        return event

    def emit(self, cls: type[E], /, **payload: Any) -> tuple[E, ...]:
        """:meth:`event`, returning what the run's listeners hear of it: the event, or nothing
        in a quiet run (which only records it). The one way run code hands events on."""
        payload["run_id"] = self.run_id  # as in :meth:`event`, without handing the payload on
        payload["seq"] = len(self.events) + 1
        payload["timestamp"] = time.time()
        if self.quiet and cls not in _FINAL:
            self.events.append((cls, payload))
            return ()
        event = _builder(cls).of(payload)
        self.events.append(event)
        return (event,)

    def heard(self, *events: E) -> tuple[E, ...]:
        """What listeners hear of *events* (made by :meth:`event`, or by a service stamping
        with it): all of them, or nothing in a quiet run."""
        return () if self.quiet else events

    def event_from(self, cls: type[E], fields: Callable[[], dict[str, Any]], /, **payload: Any) -> E:
        """:meth:`event` with more of the payload from *fields*, which a quiet run calls only
        when its events are read. Only for fields taken from immutable values (a compiled
        call's route names): they are the same whenever they are read."""
        if not self.quiet:
            return self.event(cls, **fields(), **payload)
        payload["run_id"] = self.run_id
        payload["seq"] = len(self.events) + 1
        payload["timestamp"] = time.time()
        record = (cls, payload, fields)
        self.events.append(record)
        return record  # type: ignore[return-value]  # a quiet run only passes it along

    def result(self, values: dict[str, Any]) -> ToolResult:
        """The run's :class:`ToolResult` of *values* (this call's own dict) with its events so
        far (built on first read when quiet)."""
        if not self.quiet:
            values["events"] = list(self.events)
            return trusted_result.of(values)
        return _unsettled_result(values, _Records(tuple(self.events)))

    def built_events(self) -> list[RouterEvent]:
        """The run's events so far, built from their records in a quiet run."""
        return _Records(tuple(self.events))()

    def fallbacks(self) -> int:
        """``ToolResult.fallbacks`` of the events so far, without building any."""
        count = 0
        for item in self.events:  # _kind inlined: this runs at the end of every run
            if (item[0] if type(item) is tuple else type(item)) is ToolFallbackEvent:
                count += 1
        return count

    def attempt(self, path: str, number: int, error: BaseException | None = None) -> None:
        """Record attempt *number* on *path*, failed with *error* when given (the record of a
        first attempt that answered is immutable and the same for every run: one is kept)."""
        if error is None and number == 1:
            record = _FIRST_ANSWERED.get(path)
            if record is None:
                record = AttemptRecord.of(path, 1)
                if len(_FIRST_ANSWERED) < 4096:  # bounded: paths beyond it build their own
                    _FIRST_ANSWERED[path] = record
            self.attempts.append(record)
            return
        self.attempts.append(AttemptRecord.of(path, number, error))

    def failed_attempts(self) -> list[AttemptRecord]:
        return [attempt for attempt in self.attempts if not attempt.ok]

    def error_event(
        self, exc: BaseException, *, error_type: str | None = None, error: str | None = None
    ) -> RunErrorEvent:
        """The run's ``run.error`` event for *exc*, with the route and attempts so far."""
        return self.event(
            RunErrorEvent,
            error_type=error_type or type(exc).__name__,
            error=str(exc) if error is None else error,
            route=list(self.route),
            attempts=list(self.attempts),
            exception=exc,
        )


def _kind(item: Any) -> type[RouterEvent]:
    kind: type[RouterEvent] = item[0] if type(item) is tuple else type(item)
    return kind


class _Records:
    """Builds the events of a quiet run from their records (events built already stay)."""

    __slots__ = ("kinds", "records")

    def __init__(self, records: tuple[Any, ...]) -> None:
        self.records = records
        self.kinds: set[type[RouterEvent]] | None = None
        """The event classes among the records (taken on the first :meth:`of_kind`: a face
        reads the fallbacks and hedges of every answer, and most answers have neither)."""

    def __call__(self) -> list[RouterEvent]:
        return [_built(item) if type(item) is tuple else item for item in self.records]

    def of_kind(self, kind: type[E]) -> list[E]:
        """The events of class *kind* only, built from their records (each a new object)."""
        kinds = self.kinds
        if kinds is None:
            kinds = self.kinds = {item[0] if type(item) is tuple else type(item) for item in self.records}
        if kind not in kinds:
            return []
        return [_built(item) if type(item) is tuple else item for item in self.records if _kind(item) is kind]


def _built(record: tuple[Any, ...]) -> Any:
    """The event of a quiet record: ``(class, payload)``, or ``(class, payload, fields)``
    from :meth:`RunContext.event_from`."""
    payload = record[1] if len(record) == 2 else {**record[2](), **record[1]}
    return _builder(record[0]).of(payload)


def events_of(result: ToolResult, kind: type[E]) -> list[E]:
    """``[e for e in result.events if type(e) is kind]``, in order, building only those when
    the result's events are still unbuilt (a quiet run): the faces read the fallbacks and
    hedges of every answer, which should not cost the other events."""
    private = result.__pydantic_private__
    lazy = private.get(LAZY) if private else None
    if lazy is not None and isinstance(lazy[1], _Records):
        return lazy[1].of_kind(kind)
    return [event for event in result.events if type(event) is kind]


def _uuid4_hex() -> str:
    """``uuid.uuid4().hex`` without building a UUID object or a system call: 128 random bits
    (``random``, reseeded in a forked child), version 4 and the RFC 4122 variant set. A run
    id only tells runs apart; it is no secret."""
    return f"{_random_bits(128) & _UUID_CLEAR | _UUID4:032x}"


_random_bits = random.getrandbits
_UUID_CLEAR = ~((0xF << 76) | (0x3 << 62))
_UUID4 = (0x4 << 76) | (0x2 << 62)


def compiled_event(plan: Plan, ctx: RunContext) -> PlanCompiledEvent:
    """The run's ``plan.compiled`` event (its fields taken now: a caller may change the plan
    it is handed later, ``ToolResult.plan`` included)."""
    return ctx.event(PlanCompiledEvent, **_compiled_fields(plan))


def _compiled_fields(plan: Plan) -> dict[str, Any]:
    return {
        "need": list(plan.need),
        "primary": plan.primary.access_path if plan.primary else None,
        "fallbacks": [c.access_path for c in plan.fallbacks],
        "rejected": plan.rejected_count(),
    }


def served_fields(ctx: RunContext) -> dict[str, object]:
    """The result's ``cached``/``stale``/``age_seconds`` when the answer came from the cache."""
    served = ctx.served
    if served is None:
        return {}
    return {"cached": True, "stale": served.stale, "age_seconds": round(served.age_seconds, 6)}


def bounded_records(ctx: RunContext, max_records: int) -> tuple[list[dict[str, Any]], dict[str, object]]:
    """The records of *ctx* cut at *max_records*, and the result's ``total``/``truncated`` when
    the source reported a count or records were left out (here, or by the source)."""
    records, total = ctx.records, ctx.total
    kept = records if len(records) <= max_records else records[:max_records]
    truncated = len(kept) < len(records) or ctx.more or (total is not None and total > len(kept))
    if truncated or total is not None:
        return kept, {"total": total, "truncated": truncated}
    return kept, {}
