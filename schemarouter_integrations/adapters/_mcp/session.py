"""One MCP client session per target, kept open between calls and re-established after failure.

An ``mcp.Client`` runs task groups that must be entered and left by the same task, while
the router calls an invoker from whichever task runs the question. So each session lives in
a task of its own (the *owner*), spawned on the running event loop (asyncio, or a trio
system task): it enters the client, reports it ready and waits to be cancelled. Calls from
any task of that loop use the client; a failure that means the session is gone (the
process died, the connection closed, a call timed out) cancels the owner, and the next call
opens a new session. A loop that has ended (``invoke_sync``) takes its session with it.

The one error map of the MCP adapter lives here (:func:`mcp_failure`): connection
failures, a dead subprocess, timeouts and transport errors are
``InvocationUnavailableError``; protocol refusals are ``NonRetryableInvocationError``; a
result that breaks the tool's declared output schema is a ``SchemaValidationError``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from typing import Any, TypeVar

import anyio
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

from ..._detached import loop_key, spawn
from ...errors import (
    InvocationError,
    InvocationUnavailableError,
    NonRetryableInvocationError,
    RegistrationError,
    SchemaValidationError,
)
from .sdk import LINE, Client, HttpTarget, MCPError, MCPServer, StdioServerParameters, error_code

__all__ = ["McpSession", "McpTarget", "describe_target", "mcp_failure"]

logger = logging.getLogger(__name__)

McpTarget = Sequence[str] | str | MCPServer
"""A command line (stdio subprocess), a URL (streamable HTTP) or an in-process server."""

T = TypeVar("T")
_UNAVAILABLE_CODES = frozenset({CONNECTION_CLOSED, REQUEST_TIMEOUT})
_CLOSE_GRACE_SECONDS = 5.0


def describe_target(target: McpTarget) -> str:
    """The target as a short text for messages (a URL without credentials, or the command)."""
    if isinstance(target, MCPServer):
        return f"in-process server {target.name!r}"
    if isinstance(target, str):
        head, sep, rest = target.partition("://")
        return head + sep + rest.rpartition("@")[2] if sep else target
    return "command " + " ".join(target)[:120]


def check_target(target: Any) -> McpTarget:
    """*target* when it is a non-empty command line, an http(s) URL or an ``MCPServer``."""
    if isinstance(target, MCPServer):
        return target
    if isinstance(target, str):
        if not target.startswith(("http://", "https://")):
            raise RegistrationError(
                f"add_mcp() target must be an http(s) URL, a command line or an MCPServer: {target!r}"
            )
        return target
    if (
        isinstance(target, Sequence)
        and target
        and all(isinstance(part, str) and part and "\0" not in part for part in target)
    ):
        return tuple(target)
    raise RegistrationError(
        "add_mcp() target must be a command line (a list of strings), an http(s) URL or an MCPServer"
    )


class _Owned:
    """The state of one owner task: its client once ready, its scope, how it ended."""

    def __init__(self) -> None:
        self.client: Client | None = None
        self.error: BaseException | None = None
        self.ready = anyio.Event()
        self.done = anyio.Event()
        self.scope = anyio.CancelScope()


class McpSession:
    """The session with one MCP server, opened on first use and again after a failure."""

    def __init__(
        self,
        target: McpTarget,
        *,
        headers: Mapping[str, str] | None = None,
        timeout_seconds: float = 30.0,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.target = target
        self.headers = dict(headers or {})
        self.env = dict(env or {})
        """Environment variables of a stdio server, over the SDK's default environment."""
        self.timeout_seconds = timeout_seconds
        self.what = describe_target(target)
        self._owned: _Owned | None = None
        self._loop: object | None = None
        self._lock: anyio.Lock | None = None

    # -- using the session -----------------------------------------------------------
    async def run(self, action: Callable[[Client], Awaitable[T]], *, doing: str) -> T:
        """``await action(client)`` on the open session, bounded by the timeout, errors mapped."""
        client = await self._client()
        try:
            with anyio.fail_after(self.timeout_seconds):
                return await action(client)
        except Exception as exc:
            error = mcp_failure(exc, what=f"{self.what} ({doing})", timeout=self.timeout_seconds)
            if isinstance(error, InvocationUnavailableError):
                await self.reset()  # the next call opens a new session
            raise error from exc

    async def reset(self) -> None:
        """End the current session (if any); the next call opens a new one."""
        owned, self._owned = self._owned, None
        if owned is not None and self._loop == loop_key():
            owned.scope.cancel()
            with anyio.move_on_after(_CLOSE_GRACE_SECONDS, shield=True):
                await owned.done.wait()

    async def aclose(self) -> None:
        """Close the session (the router's ``aclose()`` calls it)."""
        await self.reset()

    # -- opening ---------------------------------------------------------------------
    async def _client(self) -> Client:
        key = loop_key()
        if self._loop != key:  # a new event loop: the old session went with its loop
            self._owned, self._loop, self._lock = None, key, anyio.Lock()
        assert self._lock is not None
        async with self._lock:
            owned = self._owned
            if owned is not None and owned.client is not None and not owned.done.is_set():
                return owned.client
            self._owned = owned = _Owned()
            spawn(lambda: self._own(owned))
            with anyio.move_on_after(self.timeout_seconds) as waited:
                await owned.ready.wait()
            if waited.cancelled_caught or owned.client is None:
                await self.reset()
                if owned.error is not None:
                    raise mcp_failure(
                        owned.error, what=f"{self.what} (connect)", timeout=None
                    ) from owned.error
                raise InvocationUnavailableError(
                    f"{self.what}: no MCP session within {self.timeout_seconds:g}s"
                )
            return owned.client

    async def _own(self, owned: _Owned) -> None:
        """The owner task: enter the client, hand it out, hold it until cancelled."""
        try:
            with owned.scope:
                async with AsyncExitStack() as stack:
                    client = Client(await self._server(stack), read_timeout_seconds=self.timeout_seconds)
                    owned.client = await stack.enter_async_context(client)
                    owned.ready.set()
                    await anyio.sleep_forever()
        except Exception as exc:  # reported to the caller waiting for it, never lost
            owned.error = exc
            logger.debug("MCP session with %s ended", self.what, exc_info=True)
        finally:
            owned.client = None
            owned.ready.set()
            owned.done.set()

    async def _server(self, stack: AsyncExitStack) -> Any:
        target = self.target
        if isinstance(target, MCPServer):
            return target
        if isinstance(target, str) and LINE == 1:  # 1.x's transport makes its own httpx client
            return HttpTarget(target, self.headers, self.timeout_seconds)
        if isinstance(target, str):
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            http = await stack.enter_async_context(
                httpx2.AsyncClient(headers=self.headers, timeout=self.timeout_seconds)
            )
            return streamable_http_client(target, http_client=http)
        from mcp.client.stdio import get_default_environment

        command, *args = target
        return StdioServerParameters(
            command=command, args=args, env={**get_default_environment(), **self.env}
        )


def mcp_failure(
    exc: BaseException, *, what: str, timeout: float | None
) -> InvocationError | SchemaValidationError:
    """The router error for what an MCP session raised (the adapter's one error map)."""
    if isinstance(exc, InvocationError | SchemaValidationError):
        return exc
    if isinstance(exc, TimeoutError):
        return InvocationUnavailableError(f"{what}: no answer within {timeout or 0:g}s")
    if isinstance(exc, MCPError):
        if error_code(exc) in _UNAVAILABLE_CODES:
            return InvocationUnavailableError(f"{what}: {exc.error.message}")
        return NonRetryableInvocationError(f"{what}: the server refused the request: {exc.error.message}")
    if isinstance(exc, RuntimeError) and "structured content" in str(exc).lower():
        return SchemaValidationError(f"{what}: {_first_line(exc)}", subject="response")
    if isinstance(exc, BaseExceptionGroup):
        inner = exc.exceptions[0] if exc.exceptions else exc
        return mcp_failure(inner, what=what, timeout=timeout) if inner is not exc else _unavailable(exc, what)
    return _unavailable(exc, what)


def _unavailable(exc: BaseException, what: str) -> InvocationUnavailableError:
    """Connection, process and transport failures (OSError, closed streams, HTTP errors)."""
    return InvocationUnavailableError(f"{what}: {type(exc).__name__}: {_first_line(exc)}")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else "")[:300]
