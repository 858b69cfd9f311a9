"""The commands that check a landscape and report its state: ``validate``, ``inspect``, ``probe``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from .._redaction import redact
from .._router import SchemaRouter
from ..config import LandscapeError, PythonRoute, RouterConfig, resolve_target
from ..errors import ConfigurationError
from ..events import RouterEvent
from . import _render as render
from ._output import Output
from ._session import (
    FAILED,
    OK,
    USAGE,
    config_secrets,
    exit_code,
    load_landscape,
    masked,
    opened,
    print_pending,
)

__all__ = ["inspect", "probe", "validate"]


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
        render.print_json(masked(document, secrets))
    else:
        render.show(output.out, render.routes_table(config, mask=lambda text: redact(text, secrets)))
        if connect:
            print_pending(output, masked(loaded["pending"], secrets), masked(loaded["documents"], secrets))
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


async def inspect(config: RouterConfig, output: Output) -> int:
    async with opened(config, output) as router:
        snapshot = router.inspect()
    secrets = config_secrets(config)
    if output.as_json:
        document = snapshot.model_dump(mode="json")
        for path, probe_status in snapshot.health.probes.items():  # wall clock, not the monotonic one
            document["health"]["probes"][path]["last_run"] = render.iso_utc(probe_status.last_run)
        render.print_json(masked({"ok": True, "checked_at": render.now_utc()} | document, secrets))
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
    print_pending(output, masked(snapshot.pending, secrets), masked(documents, secrets))
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
    outcomes = masked(outcomes, secrets)
    pending = masked(snapshot.pending, secrets)
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
        print_pending(output, pending, masked(snapshot.documents.model_dump(mode="json"), secrets))
    return OK if healthy else FAILED
