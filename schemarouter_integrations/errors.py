"""The exception tree of schemarouter-integrations.

Every error the package raises is a :class:`SchemaRouterError`::

    SchemaRouterError
    ├── ConfigurationError           a setting the router cannot use: NaN or negative
    │   │                            seconds, a zero monitor interval (also a ValueError)
    │   └── InvalidCallbackError     a callback the router cannot call as it will, e.g. an
    │                                event sink that takes no event (also a TypeError)
    ├── LifecycleError               a service started twice or where it cannot run
    │                                (also a RuntimeError)
    ├── InvalidContractError         a contract or request built from invalid values (also a
    │                                pydantic ValidationError, with its ``errors()``)
    ├── RegistrationError            a contract or document that cannot be registered
    ├── PlanningError                a request that cannot be planned
    │   └── NoRouteError             no eligible primary route right now
    ├── PolicyViolationError         a mutating route in a fallback chain, a probe on a
    │                                non-read-only path
    ├── SchemaValidationError        input or output that breaks its JSON Schema
    ├── StaleFingerprintError        a plan compiled against an older contract or binding
    ├── BudgetExceededError          the next call or attempt would pass the run budget
    └── InvocationError              an invoker failed
        ├── InvocationUnavailableError      transient: retried, cooled down, fallen back from
        │   ├── AllRoutesUnavailableError   every route of the chain was unavailable
        │   ├── RateLimitedError            the route's rate limit had no turn within its
        │   │                               max wait: passed over for the run (no cooldown)
        │   └── RoutingLoopError            another router refused the call: it had passed
        │                                   through that router already, or through more
        │                                   than max_hops routers (passed over, no cooldown)
        ├── NonRetryableInvocationError     deterministic: ends the run at once
        │   └── InvokerCrashedError         an invoker raised something that is no router error
        └── LocalCapacityError              the router's own HTTP connections stayed busy: the
                                            upstream was never asked (no cooldown, no fallback)

Only :class:`InvocationUnavailableError` raised by an invoker leads to retry, cooldown
and fallback. Misuse by the application (:class:`ConfigurationError`,
:class:`LifecycleError`) also derives from the matching built-in exception, so code written
against ``ValueError``, ``TypeError`` or ``RuntimeError`` keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ._trusted import Trusted as _Trusted

__all__ = [
    "AllRoutesUnavailableError",
    "AttemptRecord",
    "BudgetExceededError",
    "ConfigurationError",
    "InvalidCallbackError",
    "InvalidContractError",
    "InvocationError",
    "InvocationUnavailableError",
    "InvokerCrashedError",
    "LifecycleError",
    "LocalCapacityError",
    "NoRouteError",
    "NonRetryableInvocationError",
    "PlanningError",
    "PolicyViolationError",
    "RateLimitedError",
    "RegistrationError",
    "RoutingLoopError",
    "SchemaRouterError",
    "SchemaValidationError",
    "StaleFingerprintError",
]


class SchemaRouterError(Exception):
    """Base class of every error raised by schemarouter-integrations."""


class ConfigurationError(SchemaRouterError, ValueError):
    """A setting given to the router or one of its services is out of range; nothing changed."""


class InvalidCallbackError(ConfigurationError, TypeError):
    """A callback (an event sink) cannot be called the way the router will call it."""


class LifecycleError(SchemaRouterError, RuntimeError):
    """A service was started, stopped or used in a state or environment it cannot run in."""


class InvalidContractError(ValidationError, SchemaRouterError):
    """A contract (``ToolSpec``, ``EndpointSpec``, ``FieldSpec``, ...) or a ``PlanRequest``
    was built from values it cannot hold. It is the pydantic ``ValidationError`` of that
    model (``errors()`` lists each problem), so both ``except SchemaRouterError`` and
    ``except ValidationError`` catch it."""

    @classmethod
    def of(cls, error: ValidationError) -> InvalidContractError:
        """The same problems as *error*, raised as this class."""
        lines = error.errors()
        try:
            return cls.from_exception_data(error.title, lines)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):  # an error type pydantic cannot rebuild
            plain = [
                {
                    "type": "value_error",
                    "loc": line["loc"],
                    "input": line.get("input"),
                    "ctx": {"error": line["msg"]},
                }
                for line in lines
            ]
            return cls.from_exception_data(error.title, plain)  # type: ignore[arg-type]


class RegistrationError(SchemaRouterError):
    """A contract, document or callable could not be registered; nothing was registered."""


class PlanningError(SchemaRouterError):
    """A request could not be planned."""


class NoRouteError(PlanningError):
    """The plan has no eligible primary route right now.

    ``cooling_down`` names the access paths that were left out only because they are in
    cooldown, and ``reopens_in_seconds`` says when the first of them becomes eligible again
    (``None`` when no path is cooling down, so waiting will not help). ``unmatched`` names the
    phrases of a query that matched no field and no endpoint (the reason there is no route),
    and ``answerable`` the fields the sources that take the request's arguments can answer.
    """

    def __init__(
        self,
        message: str,
        *,
        cooling_down: Sequence[str] = (),
        reopens_in_seconds: float | None = None,
        unmatched: Sequence[str] = (),
        answerable: Sequence[str] = (),
    ) -> None:
        super().__init__(message)
        self.cooling_down = tuple(cooling_down)
        self.reopens_in_seconds = reopens_in_seconds
        self.unmatched = tuple(unmatched)
        self.answerable = tuple(answerable)


class PolicyViolationError(SchemaRouterError):
    """A call or probe breaks the local policy (for example a mutating fallback route)."""


class SchemaValidationError(SchemaRouterError):
    """Arguments or a raw response do not satisfy their JSON Schema.

    ``subject`` says which: ``"arguments"`` (the caller can fix them) or ``"response"``
    (the source answered outside its contract; asking again the same way will not help).
    """

    def __init__(
        self,
        message: str,
        *,
        errors: Sequence[str] = (),
        subject: Literal["arguments", "response"] = "arguments",
    ) -> None:
        super().__init__(message)
        self.errors = tuple(errors)
        self.subject = subject


class StaleFingerprintError(SchemaRouterError):
    """A plan's fingerprints, or the primary's binding, no longer match the registry."""


class BudgetExceededError(SchemaRouterError):
    """The next call or attempt would pass the run budget."""


class InvocationError(SchemaRouterError):
    """An invoker failed."""


class InvocationUnavailableError(InvocationError):
    """The access path is unavailable right now (timeout, connect error, 429, transient 5xx).

    ``retry_after`` carries the server's Retry-After hint in seconds when it sent one.
    ``transport`` is True when the service could not be reached at all (connection refused
    or reset, name resolution, a timeout): then the route's whole origin cools down, not only
    the access path.
    """

    def __init__(
        self,
        message: str,
        *,
        retry_after: float | None = None,
        status_code: int | None = None,
        transport: bool = False,
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.status_code = status_code
        self.transport = transport


class RateLimitedError(InvocationUnavailableError):
    """The route's ``RateLimit`` gave no turn within ``max_wait_seconds``: the call was never
    sent. The run passes the route over (``tool.fallback`` reason ``"rate_limited"``) without
    retrying it or cooling it down. ``reason`` is ``"rate_limited"``."""

    reason = "rate_limited"


class RoutingLoopError(InvocationUnavailableError):
    """A router behind an MCP route refused the call as a loop: the call had passed through
    that router already, or through more than its ``max_hops`` routers (the hop list in the
    request ``_meta``). The run passes the route over (``tool.fallback`` reason ``"loop"``)
    without retrying it or cooling it down: the route is not down, this call's path is
    circular. ``reason`` is ``"loop"``."""

    reason = "loop"


class NonRetryableInvocationError(InvocationError):
    """A deterministic failure (4xx, malformed body): no retry, no cooldown, no fallback."""

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class InvokerCrashedError(NonRetryableInvocationError):
    """An invoker raised an exception that is not a router error (a bug, not an answer).

    The original exception is the ``__cause__``. Framework tools let it propagate instead of
    showing it to the model.
    """


class LocalCapacityError(InvocationError):
    """No connection of the router's HTTP pool became free in time; the request was never sent.

    Waiting for local capacity is not the upstream being slow: the route is not cooled down
    and the run does not fall back (every HTTP route shares the pool). Run fewer questions
    at once or give the router a client with more connections (``http_client=``).
    """


class AttemptRecord(BaseModel):
    """One attempt on one access path and how it ended: the one record of an attempt.

    Results, ``run.error`` events and :class:`AllRoutesUnavailableError` all carry these.
    ``error_type`` and ``error`` describe a failure as text (they survive JSON);
    ``exception`` is the raised error itself, kept in memory only (never serialised).
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    access_path: str
    attempt: int
    ok: bool
    error_type: str | None = None
    error: str | None = None
    exception: BaseException | None = Field(default=None, exclude=True, repr=False)

    @classmethod
    def of(cls, access_path: str, attempt: int, error: BaseException | None = None) -> AttemptRecord:
        """The record of attempt *attempt* on *access_path*, failed with *error* when given."""
        if error is None:
            values = {"access_path": access_path, "attempt": attempt, "ok": True}
        else:
            values = {
                "access_path": access_path,
                "attempt": attempt,
                "ok": False,
                "error_type": type(error).__name__,
                "error": str(error),
                "exception": error,
            }
        return _trusted_attempt.of(values) if cls is AttemptRecord else cls(**values)

    def describe(self) -> str:
        outcome = f"{self.error_type}: {self.error}" if not self.ok else "ok"
        return f"{self.access_path} attempt {self.attempt}: {outcome}"


_trusted_attempt: _Trusted[AttemptRecord] = _Trusted(AttemptRecord)
"""The router's own attempt records (a path, a count, an exception's type and text) need no validation."""


class AllRoutesUnavailableError(InvocationUnavailableError):
    """Every route in the chain was unavailable; ``attempts`` holds each attempt's error.

    ``refused_arguments`` maps each route the plan left out because it cannot take the
    request's arguments (a filter it does not have) to that reason, so the caller can ask
    again without the filter."""

    def __init__(self, message: str, *, attempts: Sequence[AttemptRecord]) -> None:
        super().__init__(message)
        self.attempts = tuple(attempts)
        self.refused_arguments: dict[str, str] = {}

    def __str__(self) -> str:
        lines = [super().__str__()]
        lines.extend(f"  - {attempt.describe()}" for attempt in self.attempts)
        if self.refused_arguments:
            lines.append("not tried, since they cannot take the arguments asked with:")
            lines.extend(f"  - {path}: {reason}" for path, reason in self.refused_arguments.items())
        return "\n".join(lines)
