"""Logging of the router's MCP server: the client's ``logging/setLevel``, and stderr without
URL query values.

* :class:`ClientLogLevels` keeps the level each client connection asked for with
  ``logging/setLevel`` (protocol versions up to 2025-11-25); a log notification is sent
  only at or above it (:meth:`ClientLogLevels.allows`). Until a client sets a level, every
  level is sent.
* :class:`QueryRedactingFilter` masks the query values of URLs in every log record that a
  handler of the root logger writes (the SDK logs to stderr, over stdio too, and HTTP
  clients log each request's URL at INFO): keys, tokens and the user's data stay in the
  router.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, get_args

from mcp.types import LoggingLevel

from .._redaction import redact_url_queries

__all__ = ["LEVELS", "ClientLogLevels", "QueryRedactingFilter", "install_redaction"]

LEVELS: tuple[LoggingLevel, ...] = get_args(LoggingLevel)
"""The MCP (RFC 5424) levels, least severe first."""


class ClientLogLevels:
    """The ``logging/setLevel`` of each client connection."""

    def __init__(self) -> None:
        self._levels: weakref.WeakKeyDictionary[Any, LoggingLevel] = weakref.WeakKeyDictionary()

    def remember(self, session: Any, level: LoggingLevel) -> None:
        """What ``logging/setLevel`` does: remember *level* for *session*'s connection."""
        self._levels[_connection(session)] = level

    def allows(self, session: Any, level: LoggingLevel) -> bool:
        """True when a log notification at *level* may be sent to *session*'s client."""
        floor = self._levels.get(_connection(session))
        return floor is None or LEVELS.index(level) >= LEVELS.index(floor)


def _connection(session: Any) -> Any:
    """What one client connection is keyed by: its SDK ``Connection``, else the session."""
    return getattr(session, "_connection", None) or session


class QueryRedactingFilter(logging.Filter):
    """Masks URL query values in the record's message (``?api_key=***&_fields=***``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken record is the logging module's to report
            return True
        redacted = redact_url_queries(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


_FILTER = QueryRedactingFilter()


def install_redaction() -> None:
    """Add the redacting filter to every handler of the root logger (once each)."""
    for handler in logging.getLogger().handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)
