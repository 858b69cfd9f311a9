"""Two routers in two processes share one outage through a real redis-server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import pytest

from schemarouter_integrations import SchemaRouter
from tests.servers.redis_server import RedisServer
from tests.support.fleet import PATH, REQUEST, router_on

pytestmark = [pytest.mark.integration, pytest.mark.redis, pytest.mark.anyio]

ROOT = Path(__file__).resolve().parents[2]
PEER = Path(__file__).with_name("redis_peer.py")


class Peer:
    """A router in a child process (``redis_peer.py``), driven by JSON lines."""

    def __init__(self, url: str, namespace: str, *, down: tuple[str, ...] = ()) -> None:
        self._log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 - lives as long as the process, closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, str(PEER), url, namespace, "--down", ",".join(down)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    async def read(self, within: float = 30.0) -> dict[str, Any]:
        assert self.proc.stdout is not None
        with anyio.fail_after(within):
            line = await anyio.to_thread.run_sync(self.proc.stdout.readline, abandon_on_cancel=True)
        if not line:
            self._log.seek(0)
            raise AssertionError(f"the peer process exited:\n{self._log.read()}")
        reply: dict[str, Any] = json.loads(line)
        assert "error" not in reply, reply
        return reply

    async def ask(self, cmd: str, **options: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"cmd": cmd, **options}) + "\n")
        self.proc.stdin.flush()
        return await self.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.close()
                self.proc.wait(15)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()


async def eventually_unavailable(router: SchemaRouter, path: str, within: float = 10.0) -> None:
    with anyio.fail_after(within):
        while path not in router.inspect().execution.unavailable_access_paths:  # noqa: ASYNC110 - set by another process
            await anyio.sleep(0.01)


async def test_an_outage_met_in_this_process_reaches_a_router_in_another(redis_server: RedisServer) -> None:
    peer = Peer(redis_server.url, "fleet")
    try:
        ready = await peer.read()
        assert (ready["primary"], ready["store"]["connected"]) == (PATH, True)
        router = router_on(redis_server, down=("mp_api",))
        async with router:
            assert (await router.invoke(REQUEST)).tool == "mp_optimade"
            seen = await peer.ask("wait", path=PATH, present=True, timeout=10)
        assert seen["ok"] is True
        assert seen["primary"] == "mp_optimade.search"
        assert 0 < seen["cooldowns"][PATH] <= 30
    finally:
        peer.close()


async def test_an_outage_met_in_another_process_reaches_this_router(redis_server: RedisServer) -> None:
    peer = Peer(redis_server.url, "fleet", down=("mp_api",))
    router = router_on(redis_server)
    try:
        await peer.read()
        async with router:
            reply = await peer.ask("invoke")
            assert reply["route"] == [PATH, "mp_optimade.search"]
            await eventually_unavailable(router, PATH)
            call = router.plan(REQUEST).primary
            assert call is not None and call.access_path == "mp_optimade.search"
    finally:
        peer.close()


async def test_a_process_started_late_loads_the_marks_at_start(redis_server: RedisServer) -> None:
    router = router_on(redis_server)
    async with router:
        router.mark_access_unavailable("mp_api", "search", seconds=120, reason="provider outage")
        with anyio.fail_after(5):
            await router.availability_store.flush()
        peer = Peer(redis_server.url, "fleet")
        try:
            ready = await peer.read()
        finally:
            peer.close()
    assert ready["unavailable"] == [PATH]
    assert ready["primary"] == "mp_optimade.search"
    assert 0 < ready["cooldowns"][PATH] <= 120


async def test_processes_keep_working_through_a_redis_restart_and_resync(redis_server: RedisServer) -> None:
    peer = Peer(redis_server.url, "fleet")
    router = router_on(redis_server)
    try:
        await peer.read()
        async with router:
            redis_server.stop()
            router.mark_access_unavailable("mp_api", "search", seconds=120)
            during = await peer.ask("mark", tool="oqmd_api", endpoint="search", seconds=120)
            assert during["unavailable"] == ["oqmd_api.search"]  # its own view keeps working
            redis_server.start()
            await eventually_unavailable(router, "oqmd_api.search", within=15)
            after = await peer.ask("wait", path=PATH, present=True, timeout=15)
        assert after["ok"] is True
        assert after["unavailable"] == [PATH, "oqmd_api.search"]
        assert after["store"]["connected"] is True
    finally:
        peer.close()
