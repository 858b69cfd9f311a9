"""The CLI's work, one async function per command; each returns the process exit code.

Exit codes: 0 answered / ok, 1 failed, 2 usage or configuration error, 3 no route or every
route unavailable.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio

from .._contracts import CachePolicy
from .._redaction import redact
from .._router import SchemaRouter
from ..config import LandscapeError, PythonRoute, RouterConfig, load_config, resolve_target
from ..errors import AllRoutesUnavailableError, ConfigurationError, NoRouteError, SchemaRouterError
from ..events import RouterEvent
from . import _render as render
from ._arguments import check_argument_names, parse_arguments
from ._output import Output

__all__ = ["FAILED", "NO_ROUTE", "OK", "USAGE", "Output", "parse_arguments"]

OK, FAILED, USAGE, NO_ROUTE = 0, 1, 2, 3
MCP_HOST, MCP_PATH = "127.0.0.1", "/mcp"


def exit_code(error: BaseException) -> int:
    if isinstance(error, NoRouteError | AllRoutesUnavailableError):
        return NO_ROUTE
    if isinstance(error, ConfigurationError):
        return USAGE
    return FAILED


def load_landscape(path: Path, document_cache: Path | None = None) -> RouterConfig:
    """The checked landscape at *path*; one without routes is a configuration error."""
    config = with_document_cache(load_config(path), document_cache)
    if not config.routes:
        raise LandscapeError(
            f"{path}: the landscape has no routes: add a [routes.<name>] table with its kind",
            path=path,
            line=None,
            key="routes",
        )
    return config


def with_document_cache(config: RouterConfig, folder: Path | None) -> RouterConfig:
    """*config* with ``document_cache`` set to *folder* (``--document-cache``) when given."""
    if folder is None:
        return config
    return config.with_router(document_cache=str(folder.expanduser().resolve()))


def with_state(config: RouterConfig, state: Path | None) -> RouterConfig:
    """*config* with its state in the SQLite file *state* (``--state``) when given."""
    if state is None:
        return config
    return config.with_router(store=f"sqlite:///{state.expanduser().resolve()}")


@asynccontextmanager
async def opened(config: RouterConfig, output: Output) -> AsyncIterator[SchemaRouter]:
    with output.progress(f"Registering {len(config.routes)} route(s) of {config.source} ..."):
        router = await SchemaRouter.from_config(config, strict=output.strict)
    async with router:
        _say_state(router, output)
        yield router


def _say_state(router: SchemaRouter, output: Output) -> None:
    """Where the state of a ``--state`` / ``[router] store`` lives and what it holds (stderr)."""
    store = router.inspect().health.store
    if not store.get("path") and store.get("kind") == "memory":
        return
    where = store.get("path") or store.get("server")
    cooling = router.inspect().execution.cooldowns
    line = f"state: {store.get('kind')} {where} (cooldowns, answers, rate limits)"
    if cooling:
        line += "; cooling down: " + ", ".join(
            f"{path} ({left:.0f} s left)" for path, left in sorted(cooling.items())
        )
    if store.get("last_error"):
        line += f"; not usable: {store['last_error']}"
    output.err.print(line, markup=False, highlight=False)


def validate(path: Path, output: Output, *, connect: bool = False, document_cache: Path | None = None) -> int:
    """Check the file offline; with *connect*, also read every route (pending ones listed)."""
    try:
        config = load_landscape(path, document_cache)
        for name, route in config.routes.items():
            if isinstance(route, PythonRoute):
                _check_import(config, name, route)
    except ConfigurationError as exc:
        return output.error(USAGE, exc)
    loaded: dict[str, Any] = {}
    if connect:
        try:
            loaded = anyio.run(_loaded, config, output)
        except Exception as exc:  # every error ends as a message and an exit code
            return output.error(exit_code(exc), exc)
    secrets = config.substituted_values
    if output.as_json:
        routes = {
            name: route.model_dump(mode="json", exclude={"headers"})
            | {"headers": sorted(getattr(route, "headers", {}))}
            for name, route in config.routes.items()
        }
        document = {
            "ok": True,
            "file": str(path),
            "tool": config.tool.model_dump(mode="json"),
            "routes": routes,
            **loaded,
        }
        render.print_json(_masked(document, secrets))
    else:
        render.show(output.out, render.routes_table(config, mask=lambda text: redact(text, secrets)))
        if connect:
            _print_pending(output, _masked(loaded["pending"], secrets), _masked(loaded["documents"], secrets))
        output.out.print(f"{path}: ok ({len(config.routes)} route(s))", markup=False)
    return OK


async def _loaded(config: RouterConfig, output: Output) -> dict[str, Any]:
    """What reading every route gave: the tools registered, the routes pending, cached copies."""
    with output.progress(f"Registering {len(config.routes)} route(s) of {config.source} ..."):
        router = await SchemaRouter.from_config(config, strict=output.strict)
    async with router:
        snapshot = router.inspect()
    return {
        "registered": sorted(snapshot.tools),
        "pending": snapshot.pending,
        "documents": snapshot.documents.model_dump(mode="json"),
    }


def _print_pending(output: Output, pending: dict[str, str], documents: dict[str, Any]) -> None:
    """One line per pending route and per cached copy standing in for its source."""
    for name, reason in pending.items():
        output.out.print(f"pending: {name}: {reason} (retried in the background)", markup=False)
    for url, copy in documents.get("from_cache", {}).items():
        age = copy["age_seconds"]
        output.out.print(f"from cache: {url} (stored {age:.0f} s ago): {copy['reason']}", markup=False)


def config_secrets(config: RouterConfig) -> tuple[str, ...]:
    """Every value of *config* that may be a secret: what the environment gave, and each
    header value written in the file (masked wherever a server echoes it)."""
    values = list(config.substituted_values)
    for route in config.routes.values():
        for value in getattr(route, "headers", {}).values():
            sent = value.values() if isinstance(value, dict) else [value]  # federation: per provider
            values += [secret.get_secret_value() for secret in sent]
    return tuple(values)


def _masked(value: Any, secrets: tuple[str, ...]) -> Any:
    """*value* with every string redacted of *secrets* (values taken from the environment)."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {key: _masked(item, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item, secrets) for item in value]
    return value


def _check_import(config: RouterConfig, name: str, route: PythonRoute) -> None:
    from ..config._build import _python_path

    with _python_path(config):
        for key in ("function", "probe"):
            target = getattr(route, key)
            if target is None:
                continue
            try:
                resolve_target(target)
            except Exception as exc:  # the module's own code ran: anything may come out of it
                detail = redact(f"{type(exc).__name__}: {exc}", config.substituted_values)
                raise LandscapeError(
                    f"{config.where('routes', name, key)}: cannot import {target}: {detail}",
                    path=config.source,
                    line=None,
                    key=f"routes.{name}.{key}",
                ) from None


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


async def inspect(config: RouterConfig, output: Output) -> int:
    async with opened(config, output) as router:
        snapshot = router.inspect()
    secrets = config_secrets(config)
    if output.as_json:
        document = snapshot.model_dump(mode="json")
        for path, probe_status in snapshot.health.probes.items():  # wall clock, not the monotonic one
            document["health"]["probes"][path]["last_run"] = render.iso_utc(probe_status.last_run)
        render.print_json(_masked({"ok": True, "checked_at": render.now_utc()} | document, secrets))
        return OK
    from rich.table import Table

    table = Table(title="Tools")
    for column in ("tool", "provider", "access mode", "binding", "endpoints (read-only)"):
        table.add_column(column)
    for name, tool in snapshot.tools.items():
        endpoints = ", ".join(f"{e}{'' if tool.read_only.get(e) else ' (writes)'}" for e in tool.endpoints)
        binding = snapshot.execution.binding_states.get(name, "-")
        table.add_row(name, tool.provider or "-", tool.access_mode or "-", binding, endpoints)
    render.show(output.out, table)
    documents = snapshot.documents.model_dump(mode="json")
    _print_pending(output, _masked(snapshot.pending, secrets), _masked(documents, secrets))
    output.out.print(f"probes: {sorted(snapshot.health.probes) or 'none'}", markup=False)
    store = snapshot.health.store
    where = store.get("path") or store.get("server")
    output.out.print(
        f"availability store: {store.get('kind', '?')}{f' ({where})' if where else ''}", markup=False
    )
    if snapshot.cache is not None:
        cache = snapshot.cache
        rate = cache.get("hit_rate")
        output.out.print(
            f"answer cache: {cache.get('kind')}, {cache.get('entries')} entries, hits {cache.get('hits')}, "
            f"misses {cache.get('misses')}, hit rate {'-' if rate is None else f'{rate:.0%}'}, "
            f"stale {cache.get('stale')}",
            markup=False,
        )
    for key, limit in snapshot.rate_limits.get("limits", {}).items():
        output.out.print(
            f"rate limit {key}: {limit['per_second']:g}/s (burst {limit['burst']:g}), waited "
            f"{limit['waited']} times ({limit['wait_seconds']:.2f} s), passed over {limit['passed_over']}",
            markup=False,
        )
    return OK


async def probe(config: RouterConfig, output: Output, timeout_seconds: float = 10.0) -> int:
    async with opened(config, output) as router:
        probes = router.inspect().health.probes
        if probes:
            done, heard = anyio.Event(), set()

            def count(event: RouterEvent) -> None:
                if event.type == "health.probe":
                    heard.add(f"{event.tool}.{event.endpoint}")  # type: ignore[attr-defined]
                    if heard >= set(probes):
                        done.set()

            unsubscribe = router.subscribe(count)
            with output.progress(f"Probing {len(probes)} access path(s) ..."):
                await router.start_health_monitor(
                    interval_seconds=3600, probe_timeout_seconds=timeout_seconds
                )
                with anyio.move_on_after(timeout_seconds + 5):
                    await done.wait()
                await router.stop_health_monitor()
            unsubscribe()
        snapshot = router.inspect()
    outcomes = {
        path: p.model_dump(mode="json") | {"last_run": render.iso_utc(p.last_run)}
        for path, p in snapshot.health.probes.items()
    }
    healthy = all(p["last_outcome"] == "ok" for p in outcomes.values()) and not snapshot.pending
    secrets = config_secrets(config)
    outcomes = _masked(outcomes, secrets)
    pending = _masked(snapshot.pending, secrets)
    if output.as_json:
        document = {
            "ok": healthy,
            "checked_at": render.now_utc(),
            "probes": outcomes,
            "cooldowns": snapshot.execution.cooldowns,
        }
        render.print_json(document | {"pending": pending})
    else:
        if not outcomes and not snapshot.pending:
            output.out.print("no probes declared (add probe = ... to a route)", markup=False)
        for path, data in outcomes.items():
            detail = data["last_error"] or ""
            output.out.print(f"{path}: {data['last_outcome']} {detail}".rstrip(), markup=False)
        _print_pending(output, pending, _masked(snapshot.documents.model_dump(mode="json"), secrets))
    return OK if healthy else FAILED


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
