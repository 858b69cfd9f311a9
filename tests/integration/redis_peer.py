"""Another router in another process, sharing cooldowns through Redis.

Run as ``python tests/integration/redis_peer.py URL NAMESPACE [--down TOOL,...]`` with the
repository root on PYTHONPATH. It prints one JSON line when ready and answers one JSON
command per stdin line with one JSON line: ``plan``, ``invoke``, ``mark``, ``clear``,
``wait`` (for a path to appear or vanish), ``flush`` and ``quit``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import anyio
import anyio.to_thread

from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.stores import RedisAvailabilityStore
from tests.support.fleet import REQUEST
from tests.support.seed import seed_router


def state(router: SchemaRouter) -> dict[str, Any]:
    snapshot = router.inspect()
    primary = router.plan(REQUEST).primary
    return {
        "primary": primary.access_path if primary else None,
        "unavailable": snapshot.execution.unavailable_access_paths,
        "cooldowns": snapshot.execution.cooldowns,
        "store": snapshot.health.store,
    }


async def answer(
    router: SchemaRouter, store: RedisAvailabilityStore, command: dict[str, Any]
) -> dict[str, Any]:
    cmd = command["cmd"]
    if cmd == "plan":
        return state(router)
    if cmd == "invoke":
        result = await router.invoke(REQUEST)
        return {"tool": result.tool, "route": result.route, **state(router)}
    if cmd == "mark":
        router.mark_access_unavailable(command["tool"], command["endpoint"], seconds=command.get("seconds"))
        return state(router)
    if cmd == "clear":
        router.mark_access_available(command["tool"], command["endpoint"])
        return state(router)
    if cmd == "flush":
        with anyio.move_on_after(command.get("timeout", 5)):
            await store.flush()
        return state(router)
    if cmd == "wait":
        present = bool(command["present"])
        with anyio.move_on_after(command.get("timeout", 5)):
            while (command["path"] in router.inspect().execution.unavailable_access_paths) != present:  # noqa: ASYNC110 - set by another process
                await anyio.sleep(0.01)
        return {
            "ok": (command["path"] in router.inspect().execution.unavailable_access_paths) == present,
            **state(router),
        }
    return {"error": f"unknown command {cmd!r}"}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("namespace")
    parser.add_argument("--down", default="")
    args = parser.parse_args()
    store = RedisAvailabilityStore(
        args.url, args.namespace, reconnect_max_seconds=0.5, peer_grace_seconds=0.0
    )
    router, _ = seed_router(
        SchemaRouter(availability_store=store), down=tuple(filter(None, args.down.split(",")))
    )
    async with router:
        print(json.dumps({"ready": True, **state(router)}), flush=True)
        while True:
            line = await anyio.to_thread.run_sync(sys.stdin.readline)
            if not line or line.strip() == '{"cmd": "quit"}':
                break
            try:
                reply = await answer(router, store, json.loads(line))
            except Exception as exc:  # report, keep serving
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    anyio.run(main)
