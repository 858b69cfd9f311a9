"""Which exceptions of a Python client mean "the service is unavailable".

A registered function usually calls a service through a client library, and a client's
outage surfaces as that library's own exception. These are recognised by class, through
the module-qualified names of the exception's classes (its MRO), so no client library is
imported here:

======================================  ===========================================
standard library                        ``ConnectionError`` (refused, reset, aborted,
                                        broken pipe), ``TimeoutError``,
                                        ``socket.gaierror``, ``urllib.error.URLError``
requests                                ``ConnectionError``, ``Timeout``
urllib3                                 ``MaxRetryError``, ``NewConnectionError``,
                                        ``NameResolutionError``, ``TimeoutError``,
                                        ``ProtocolError``
httpx                                   ``TimeoutException``, ``NetworkError``,
                                        ``RemoteProtocolError``
aiohttp                                 ``ClientConnectionError``, ``ServerTimeoutError``
======================================  ===========================================

These are *transport* failures: the service could not be reached, so the route's origin
cools down as a whole. An HTTP status error of a client (``requests.HTTPError``,
``httpx.HTTPStatusError``, ``urllib.error.HTTPError``, ``aiohttp.ClientResponseError``)
is unavailable when its status is one of
:data:`~schemarouter_integrations.adapters._http_errors.UNAVAILABLE_STATUSES` (429, 503,
...), with the response's Retry-After hint; retries that ran out on such statuses
(``requests.RetryError``, a ``MaxRetryError`` whose reason is a ``ResponseError``) are
unavailable without cooling the origin. The application's ``unavailable_on`` types are
looked at first. The exception's cause is looked at too, a few levels deep, for clients that wrap the
transport error in their own: the explicit one (``raise ... from``) or, as a traceback shows
it, the exception being handled when it was raised.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvocationUnavailableError
from ._http_errors import UNAVAILABLE_STATUSES, parse_retry_after

__all__ = ["TRANSPORT_ERRORS", "unavailable_error"]

TRANSPORT_ERRORS = frozenset(
    {
        "builtins.ConnectionError",
        "builtins.TimeoutError",
        "socket.gaierror",
        "urllib.error.URLError",
        "requests.exceptions.ConnectionError",
        "requests.exceptions.Timeout",
        "urllib3.exceptions.MaxRetryError",
        "urllib3.exceptions.NewConnectionError",
        "urllib3.exceptions.NameResolutionError",
        "urllib3.exceptions.TimeoutError",
        "urllib3.exceptions.ProtocolError",
        "httpx.TimeoutException",
        "httpx.NetworkError",
        "httpx.RemoteProtocolError",
        "aiohttp.client_exceptions.ClientConnectionError",
        "aiohttp.client_exceptions.ServerTimeoutError",
    }
)
"""Module-qualified class names whose instances (and subclasses') mean the service was not reached."""

_STATUS_ERRORS = {
    "requests.exceptions.HTTPError": ("response", "status_code"),
    "httpx.HTTPStatusError": ("response", "status_code"),
    "urllib.error.HTTPError": ("code",),
    "aiohttp.client_exceptions.ClientResponseError": ("status",),
}
"""Client status errors and where each keeps the status code."""

_STATUS_RETRIES = frozenset({"requests.exceptions.RetryError"})
"""A client's retries ran out on retryable statuses: unavailable, but the service answered."""
_RETRIES_EXHAUSTED = frozenset({"urllib3.exceptions.MaxRetryError"})
"""urllib3's retries ran out: on statuses when its ``reason`` is a ``ResponseError``, else on
transport failures."""

_CAUSE_DEPTH = 3


def unavailable_error(
    exc: BaseException, what: str, *, unavailable_on: Sequence[type[BaseException]] = ()
) -> InvocationUnavailableError | None:
    """The :class:`InvocationUnavailableError` that *exc*, raised by *what*, stands for, or None.

    *unavailable_on* are the application's own exception types that mean unavailable.
    """
    seen = exc
    for _ in range(_CAUSE_DEPTH + 1):
        found = _classify(seen, what, unavailable_on)
        if found is not None:
            found.__cause__ = exc
            return found
        cause = seen.__cause__
        if cause is None and not seen.__suppress_context__:
            cause = seen.__context__  # raised while handling it, as a traceback shows it
        if cause is None:
            return None
        seen = cause
    return None


def _classify(
    exc: BaseException, what: str, unavailable_on: Sequence[type[BaseException]]
) -> InvocationUnavailableError | None:
    text = f"{what} raised {type(exc).__name__}: {_first_line(exc)}"
    if unavailable_on and isinstance(exc, tuple(unavailable_on)):  # the application's word first
        return InvocationUnavailableError(text)
    names = [f"{cls.__module__}.{cls.__qualname__}" for cls in type(exc).__mro__]
    for name in names:
        where = _STATUS_ERRORS.get(name)
        if where is not None:
            status = _status(exc, where)
            if status in UNAVAILABLE_STATUSES:
                retry_after = parse_retry_after(_header(exc, "retry-after"))
                return InvocationUnavailableError(text, status_code=status, retry_after=retry_after)
            return None
        if name in _STATUS_RETRIES or (name in _RETRIES_EXHAUSTED and _gave_up_on_statuses(exc)):
            return InvocationUnavailableError(text)  # the server answered, with retryable statuses
    if any(name in TRANSPORT_ERRORS for name in names):
        return InvocationUnavailableError(text, transport=True)
    return None


def _gave_up_on_statuses(exc: BaseException) -> bool:
    """True when urllib3's retries ran out on statuses (``reason`` a ``ResponseError``)."""
    reason = getattr(exc, "reason", None)
    return reason is not None and any(
        f"{cls.__module__}.{cls.__qualname__}" == "urllib3.exceptions.ResponseError"
        for cls in type(reason).__mro__
    )


def _header(exc: BaseException, name: str) -> str | None:
    """A header of the response a client status error carries, if it can be read."""
    for holder in (getattr(exc, "response", None), exc):
        headers = getattr(holder, "headers", None)
        getter = getattr(headers, "get", None)
        if callable(getter):
            try:
                value = getter(name)
            except Exception:  # an unusual headers object: no hint then
                return None
            return value if isinstance(value, str) else None
    return None


def _status(exc: BaseException, where: tuple[str, ...]) -> int | None:
    value: object = exc
    for attribute in where:
        value = getattr(value, attribute, None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= 300 else line[:299] + "…"
