"""The hop list of routers of routers: which routers a call has passed through.

A router that calls another router's MCP server sends the routers the call has passed
through, itself last, in the request ``_meta`` under :data:`HOPS_META_KEY`. A router's MCP
server reads the list (:func:`read_hops`), refuses a call that already passed through its
router or through more than its ``max_hops`` routers (:func:`loop_refusal`), and otherwise
answers with the list current (:func:`receiving`), so the calls its own MCP routes make
carry it on (:func:`outgoing_hops`). Each router is named in the list by a random id
(:func:`new_hop_id`), which says nothing about where it runs.
"""

from __future__ import annotations

import secrets
from contextvars import ContextVar, Token
from typing import Any

from ..errors import ConfigurationError

__all__ = [
    "DEFAULT_MAX_HOPS",
    "HOPS_META_KEY",
    "check_max_hops",
    "loop_refusal",
    "new_hop_id",
    "outgoing_hops",
    "read_hops",
    "received",
    "receiving",
]

HOPS_META_KEY = "schemarouter/hops"
"""The request ``_meta`` key of the hop list: the ids of the routers passed through, in order."""
DEFAULT_MAX_HOPS = 4
"""How many routers a call may have passed through before a router refuses it."""
_MAX_READ = 64
"""Entries read from a hop list: more than any ``max_hops`` worth setting, so a longer list is refused."""
_MAX_ID = 64

_inbound: ContextVar[tuple[str, ...]] = ContextVar("schemarouter_inbound_hops", default=())


def new_hop_id() -> str:
    """A fresh random id for one router."""
    return secrets.token_hex(8)


def check_max_hops(value: Any) -> int:
    """*value* when it is a whole number of hops of at least 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigurationError(f"max_hops must be a whole number of routers, 1 or more, got {value!r}")
    return value


def read_hops(meta: Any) -> tuple[str, ...]:
    """The hop list in a request's ``_meta`` (empty when there is none or it is not a list).

    A list longer than anything readable is cut to just over the limit (it is refused
    anyway); entries that are not strings count as anonymous routers.
    """
    said = meta.get(HOPS_META_KEY) if isinstance(meta, dict) else None
    if not isinstance(said, list):
        return ()
    return tuple(item[:_MAX_ID] if isinstance(item, str) else "?" for item in said[: _MAX_READ + 1])


def loop_refusal(hops: tuple[str, ...], own: str, max_hops: int) -> str | None:
    """Why a call with *hops* is refused by router *own*, or None when it may be answered."""
    if own in hops:
        return f"routing loop: this router is already on the call's path ({len(hops)} router(s) before it)"
    if len(hops) > min(max_hops, _MAX_READ):
        return f"the call passed through {len(hops)} routers, more than max_hops={max_hops}"
    return None


def receiving(hops: tuple[str, ...]) -> Token[tuple[str, ...]]:
    """Make *hops* the current call's inbound hop list (reset with :func:`received`)."""
    return _inbound.set(hops)


def received(token: Token[tuple[str, ...]]) -> None:
    _inbound.reset(token)


def outgoing_hops(own: str) -> list[str]:
    """The hop list a call made now by router *own* carries: the inbound list, then *own*."""
    return [*_inbound.get(), own]
