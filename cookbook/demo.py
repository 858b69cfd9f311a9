"""End-to-end demo: one question, four access paths, a real outage, fallback and recovery.

Everything runs offline on loopback:

* a Materials-Project-like REST API (FastAPI/uvicorn) registered from its OpenAPI URL;
* a Materials Project "Python client" registered as a callable;
* the OPTIMADE reference server (``optimade[server]``) with OQMD-style provider fields,
  registered from its base URL.

The two local services are the test doubles the integration tests use (``tests/servers``).

Run: ``make demo`` (or ``.venv/bin/python cookbook/demo.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemarouter_integrations import (
    CooldownPolicy,
    FieldSpec,
    InvocationUnavailableError,
    PlanRequest,
    RouterEvent,
    SchemaRouter,
    ServerProjectionSpec,
)
from schemarouter_integrations.adapters import openapi_operation_probe
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer

QUESTION = PlanRequest(
    query="What is the band gap of Si?",
    arguments={"formula": "Si"},
    preferred_tools=["mp_api"],
    fallback_scope="cross_provider",
    max_fallbacks=3,
)


class MaterialsProjectClient:
    """Stands in for the MP Python client: same data, its own way of failing."""

    def __init__(self) -> None:
        self.online = True

    def summary_search(self, formula: str) -> list[dict[str, Any]]:
        if not self.online:
            raise InvocationUnavailableError("mp-api client: cannot reach api.materialsproject.org")
        return [{"material_id": "mp-149", "formula_pretty": formula, "band_gap": 0.6105}]


def show(event: RouterEvent) -> None:
    payload = event.payload()
    if event.type == "tool.fallback":
        detail = (
            f"{payload['from_tool']}.{payload['from_endpoint']} -> "
            f"{payload['to_tool']}.{payload['to_endpoint']}  scope={payload['scope']}"
            f" reason={payload['reason']}"
        )
    elif event.type in {"tool.start", "tool.end", "tool.error", "route.unavailable", "route.available"}:
        detail = f"{payload['tool']}.{payload['endpoint']}"
        if event.type == "tool.error":
            detail += f"  {payload['error_type']}: {payload['error'][:70]}"
        if event.type == "route.unavailable":
            detail += f"  cooldown {payload['cooldown_seconds']:.0f}s"
    elif event.type == "run.end":
        detail = (
            f"answered by {payload['tool']}.{payload['endpoint']} after {payload['fallbacks']} fallback(s)"
        )
    else:
        return
    print(f"  {event.type:<18} {detail}")


async def ask(router: SchemaRouter, title: str) -> None:
    print(f"\n## {title}")
    async for event in router.stream(QUESTION):
        show(event)
        if event.type == "run.end":
            print(f"  records: {event.result.records}")  # type: ignore[attr-defined]
        if event.type == "run.error":
            print(f"  error: {event.payload()['error']}")


async def main() -> None:
    print("Starting a local materials REST API and the OPTIMADE reference server ...")
    api = MaterialsApiServer(api_key="demo-secret").start()
    optimade = OptimadeServer().start()
    client = MaterialsProjectClient()
    try:
        async with SchemaRouter(cooldown=CooldownPolicy(base_seconds=60, max_seconds=600)) as router:
            await router.add_url(
                api.openapi_url,
                kind="openapi",
                name="mp_api",
                provider="materials_project",
                access_mode="openapi",
                headers={"x-api-key": "demo-secret"},
                projection=ServerProjectionSpec(parameter="_fields", field_map={"formula": "formula_pretty"}),
                fields=[FieldSpec(name="formula", path=["formula_pretty"])],
                operations=["search"],
                timeout_seconds=2.0,
            )
            router.add_callable(
                client.summary_search,
                name="mp_python",
                provider="materials_project",
                access_mode="python",
                read_only=True,
                fields=[FieldSpec(name="band_gap"), FieldSpec(name="formula", path=["formula_pretty"])],
            )
            await router.add_url(
                optimade.url, kind="optimade", name="oqmd_optimade", provider="oqmd", access_mode="optimade"
            )
            plan = router.plan_executable(QUESTION)
            print("\n## The compiled plan")
            print(plan.explain())

            await ask(router, "Everything healthy")

            print("\n(the REST API now answers 503 and the Python client cannot connect)")
            api.faults.always("503")
            client.online = False
            await ask(router, "Outage: same question")

            snapshot = router.inspect().execution
            print("\n## inspect()")
            print(f"  binding_states: {snapshot.binding_states}")
            print(f"  cooldowns: {snapshot.cooldowns}")

            await ask(router, "Next question: cooled-down paths are skipped, no failed wait")

            print("\n(the API recovers; a trusted probe reopens it before its cooldown ends)")
            api.faults.clear()
            router.register_health_probe(
                "mp_api",
                "search",
                openapi_operation_probe(router, "mp_api", "search", arguments={"formula": "Si"}),
            )
            reopened = anyio.Event()

            def watch_health(event: RouterEvent) -> None:
                if event.type in {"health.probe", "route.available"}:
                    print(f"  {event.type:<18} {event.payload()}")
                if event.type == "route.available":
                    reopened.set()

            unsubscribe = router.subscribe(watch_health)
            await router.start_health_monitor(interval_seconds=3600, probe_timeout_seconds=2)
            with anyio.fail_after(10):
                await reopened.wait()
            await router.stop_health_monitor()
            unsubscribe()
            await ask(router, "After recovery")
            secret_seen = "demo-secret" in router.inspect().model_dump_json()
            print(f"\nAPI key visible in inspect(): {secret_seen}")
    finally:
        optimade.stop()
        api.stop()


if __name__ == "__main__":
    anyio.run(main)
