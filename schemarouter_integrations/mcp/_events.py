"""The events of the router's streamable-HTTP streams, kept for a client that reconnects.

The MCP specification (2025-11-25, streamable HTTP) has the server open each SSE stream with a
priming event (an event id and empty data) so that a client whose connection drops can
reconnect with ``Last-Event-ID`` and get what it missed; the ``retry`` field of that event
tells it how long to wait first. The SDK sends both only when the server has an event store:
:class:`MemoryEventStore` is a bounded one in memory (the oldest events are dropped first), and
:data:`RETRY_MILLISECONDS` the ``retry`` the router's server suggests.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from typing import Any

from mcp.server.streamable_http import EventCallback, EventMessage, EventStore

__all__ = ["MAX_EVENTS", "RETRY_MILLISECONDS", "MemoryEventStore"]

MAX_EVENTS = 2000
"""How many events (over every stream) the router's server keeps for replay."""
RETRY_MILLISECONDS = 1000
"""The ``retry`` of the priming event: how long a client waits before it reconnects."""


class MemoryEventStore(EventStore):
    """At most *max_events* events; a client is replayed only its own request's events.

    The SDK keys a stream by its JSON-RPC request id, which clients of different sessions
    share (each starts at 1), while one store serves every session. So each priming event
    opens a *chain* for its stream, a message joins the stream's chain only while exactly one
    is open (its response closes it), and a chain that ever met another one open on the same
    stream is never replayed: a client may miss what it lost, but never gets another's.
    """

    def __init__(self, max_events: int = MAX_EVENTS) -> None:
        self.max_events = max_events
        self._events: OrderedDict[str, tuple[str | None, Any]] = OrderedDict()  # id -> (chain, message)
        self._open: dict[str, list[str]] = {}  # stream -> its chains waiting for their response
        self._mixed: set[str] = set()
        self._numbers = itertools.count(1)

    async def store_event(self, stream_id: str, message: Any) -> str:
        """Keep *message* (None for a priming event) and answer its event id."""
        number = next(self._numbers)
        open_chains = self._open.setdefault(stream_id, [])
        chain: str | None = f"{stream_id}#{number}"
        if message is None:  # a priming event: a new chain
            open_chains.append(f"{stream_id}#{number}")
        elif len(open_chains) == 1:
            chain = open_chains[0]
            if _is_response(message):
                open_chains.clear()
        else:  # none open, or several: whose it is cannot be told
            chain = None
            self._mixed.update(open_chains)
        if len(open_chains) > 1:
            self._mixed.update(open_chains)
        if not open_chains:
            del self._open[stream_id]
        event_id = f"{stream_id}/{number}"
        self._events[event_id] = (chain, message)
        while len(self._events) > self.max_events:
            self._forget(*self._events.popitem(last=False)[1])
        return event_id

    async def replay_events_after(self, last_event_id: str, send_callback: EventCallback) -> str | None:
        """Send the messages of *last_event_id*'s chain stored after it; answer its stream
        (None when the event is unknown, was dropped, or its chain met another)."""
        found = self._events.get(last_event_id)
        if found is None or found[0] is None or found[0] in self._mixed:
            return None
        chain = found[0]
        after = False
        for event_id, (of, message) in list(self._events.items()):
            if event_id == last_event_id:
                after = True
            elif after and of == chain and message is not None:
                await send_callback(EventMessage(message, event_id))
        return chain.rpartition("#")[0]

    def _forget(self, chain: str | None, message: Any) -> None:
        """A dropped priming event ends its chain (bounded bookkeeping)."""
        if chain is None or message is not None:
            return
        stream = chain.rpartition("#")[0]
        chains = self._open.get(stream, [])
        if chain in chains:
            chains.remove(chain)
            if not chains:
                del self._open[stream]
        self._mixed.discard(chain)


def _is_response(message: Any) -> bool:
    """True for a JSON-RPC result or error (the end of its request's stream)."""
    inner = getattr(message, "root", message)
    return getattr(inner, "id", None) is not None and (hasattr(inner, "result") or hasattr(inner, "error"))
