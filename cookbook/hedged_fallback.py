"""Hedged fallback at the onset of an outage: the first question does not wait for the timeout.

Runs offline: ``python cookbook/hedged_fallback.py``. It starts the MP-like REST API on
loopback and builds the router of ``cookbook/landscapes/rest_and_python.toml`` (the REST API
first, with a 2 s timeout; the Python client as its same-provider fallback). Then the REST
API starts hanging. Without hedging the first question pays the whole timeout before the
cooldown kicks in; with ``HedgePolicy(after_seconds=0.2)`` the Python client starts after
0.2 s and answers, while the hanging call finishes within its own timeout in the background
and still cools the REST API down, so the next question goes straight to the fallback.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.services.materials_api import MaterialsApiServer
from schemarouter_integrations import HedgePolicy, PlanRequest, RouterEvent, SchemaRouter
from schemarouter_integrations.config import load_config

LANDSCAPE = Path(__file__).resolve().parent / "landscapes" / "rest_and_python.toml"


async def ask(router: SchemaRouter, request: PlanRequest, label: str) -> None:
    started = time.perf_counter()
    result = await router.invoke(request)
    took = time.perf_counter() - started
    kinds = [e.type for e in result.events if e.type.startswith("tool.")]
    print(f"{label}: {took:.2f} s, answered by {result.access_path}, route {result.route}, {kinds}")


async def main() -> None:
    with MaterialsApiServer(api_key="cookbook-key", hang_seconds=10.0) as api:
        os.environ |= {"MP_API_URL": api.url, "MP_API_KEY": "cookbook-key"}
        config = load_config(LANDSCAPE)
        question = config.tool.request("What is the band gap of Si?", {"formula": "Si"})
        hedged = question.model_copy(update={"hedge": HedgePolicy(after_seconds=0.2)})
        for label, request in (("without hedging", question), ("hedged after 0.2 s", hedged)):
            async with await SchemaRouter.from_config(config) as router:
                cooled = anyio.Event()

                def sink(event: RouterEvent, cooled: anyio.Event = cooled) -> None:
                    if event.type == "route.unavailable":
                        cooled.set()

                router.subscribe(sink)
                api.faults.always("hang")
                await ask(router, request, f"first question of the outage, {label}")
                with anyio.fail_after(5):
                    await cooled.wait()  # hedged: the outrun call times out after the answer
                print(f"  cooling down: {sorted(router.inspect().execution.cooldowns)}")
                await ask(router, request, "  next question")
                api.faults.clear()


if __name__ == "__main__":
    anyio.run(main)
