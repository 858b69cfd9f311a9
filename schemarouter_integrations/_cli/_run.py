"""The CLI's questions, one async function per command (``plan``, ``query``, ``gather``,
``serve-mcp``); each returns the process exit code (the checks are in ``_status.py``).

Exit codes: 0 answered / ok, 1 failed, 2 usage or configuration error, 3 no route or every
route unavailable.
"""

from __future__ import annotations

import time
from typing import Any

from .._contracts import CachePolicy
from .._router import SchemaRouter
from ..config import RouterConfig
from ..errors import ConfigurationError, SchemaRouterError
from . import _render as render
from ._arguments import check_argument_names, parse_arguments
from ._output import Output
from ._session import FAILED, NO_ROUTE, OK, USAGE, exit_code, opened

__all__ = ["FAILED", "NO_ROUTE", "OK", "USAGE", "Output", "parse_arguments"]

MCP_HOST, MCP_PATH = "127.0.0.1", "/mcp"


async def plan(config: RouterConfig, query: str, arguments: dict[str, Any], output: Output) -> int:
    async with opened(config, output) as router:
        check_argument_names(router, arguments)
        compiled = router.plan_executable(config.tool.request(query, arguments))
    if output.as_json:
        render.print_json({"ok": compiled.primary is not None} | render.plan_data(compiled))
    else:
        for table in render.plan_tables(compiled):
            render.show(output.out, table)
    return OK if compiled.primary is not None else NO_ROUTE


async def query(
    config: RouterConfig, question: str, arguments: dict[str, Any], output: Output, *, no_cache: bool = False
) -> int:
    request = config.tool.request(question, arguments)
    if no_cache:  # a policy of nothing: no fresh or stale answer, nothing stored
        request = request.model_copy(update={"cache": CachePolicy(ttl_seconds=0)})
    async with opened(config, output) as router:
        check_argument_names(router, arguments)
        started = time.monotonic()
        with output.progress(f"Asking {question!r} ..."):
            async for event in router.stream(request, budget=config.tool.budget):
                line = render.event_line(event)
                if line is not None and not output.as_json:
                    output.err.print(f"  {line}", markup=False, highlight=False)
                if event.type == "run.error":
                    error = getattr(event, "exception", None) or SchemaRouterError(event.payload()["error"])
                    return output.error(exit_code(error), error)
                if event.type == "run.end":
                    result = event.result  # type: ignore[attr-defined]
    seconds = time.monotonic() - started
    if output.as_json:
        render.print_json(
            render.result_data(result) | {"seconds": round(seconds, 3), "answered_at": render.now_utc()}
        )
    else:
        answer = render.records_table(result.records, f"Answer ({len(result.records)} record(s))")
        render.show(output.out, answer)
        output.out.print(
            f"Answered by {result.tool}.{result.endpoint} ({result.provider}, {result.access_mode})"
            f" after trying {' -> '.join(result.route)} in {seconds:.2f} s",
            markup=False,
        )
        if result.cached:
            kind = "a stale answer (every source unavailable)" if result.stale else "a fresh answer"
            output.out.print(
                f"from the answer cache: {kind}, {result.age_seconds or 0:.1f} s old", markup=False
            )
    return OK


async def gather(config: RouterConfig, question: str, arguments: dict[str, Any], output: Output) -> int:
    request = config.tool.request(question, arguments)
    async with opened(config, output) as router:
        check_argument_names(router, arguments)
        try:
            with output.progress(f"Gathering {question!r} ..."):
                result = await router.gather(request, budget=config.tool.budget)
        except SchemaRouterError as exc:
            return output.error(exit_code(exc), exc)
    failures = {path: f"{type(e).__name__}: {e}" for path, e in result.failures.items()}
    if output.as_json:
        answered = [f"{r.tool}.{r.endpoint}" for r in result.results]
        document = {"ok": True, "records": result.records, "answered": answered, "failures": failures}
        render.print_json(document | {"answered_at": render.now_utc()})
    else:
        gathered = render.records_table(result.records, f"Gathered {len(result.records)} record(s)")
        render.show(output.out, gathered)
        for path, reason in failures.items():
            output.out.print(f"failed: {path}: {reason}", markup=False)
    return OK


async def serve_mcp(config: RouterConfig, transport: str, port: int, output: Output) -> int:
    """Serve the landscape's router over MCP until the client (stdio) or a signal (http) ends it."""
    if transport not in ("stdio", "http"):
        raise ConfigurationError(f"--transport must be 'stdio' or 'http', got {transport!r}")
    try:
        from ..mcp import serve_mcp as serve
    except ImportError as exc:
        raise ConfigurationError(str(exc)) from None
    router = await SchemaRouter.from_config(config, strict=output.strict)
    if transport == "http":  # stdout stays free for stdio; the address goes to stderr either way
        url = f"http://{MCP_HOST}:{port}{MCP_PATH}"
        output.err.print(f"serving MCP over streamable HTTP at {url}", markup=False)
    await serve(
        router,
        transport=transport,  # type: ignore[arg-type]
        host=MCP_HOST,
        port=port,
        path=MCP_PATH,
        **config.tool.mcp_options(),
    )
    return OK
