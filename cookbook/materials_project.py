"""The Materials Project, for real: its API server, its Python client, its OPTIMADE, and OQMD.

Runs offline on loopback: the MP API server's own code (PyPI ``emmet-api``, in its own venv:
``make mp-venv``) over an in-memory store behind a proxy that can fail, the MP Python client
(``mp-api``'s ``MPRester``) pointed at the same proxy, and the OPTIMADE reference server as
MP's OPTIMADE and as OQMD. It asks a few questions, then makes the MP server hang and tells
the outage story: one timeout, the fallback to OQMD, the cooled origin, the probe reopening it.

    .venv/bin/python cookbook/materials_project.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cookbook.services.materials_project.environment import MPEnvironmentUnavailable, mp_python
from cookbook.services.materials_project.landscape import MPLandscape
from schemarouter_integrations import PlanRequest, SchemaRouter, SchemaRouterError
from schemarouter_integrations.adapters import openapi_operation_probe

QUESTIONS: list[tuple[str, dict[str, Any]]] = [
    ("band gap of Si", {"formula": "Si"}),
    ("energy above hull of Fe2O3", {"formula": "Fe2O3"}),
    ("Is Fe2O3 stable?", {"formula": "Fe2O3"}),
    ("formation energy of NaCl", {"formula": "NaCl"}),
    ("band gap of materials with elements Ga and As", {"elements": ["Ga", "As"]}),
    ("structures containing Ga and As", {"elements": ["Ga", "As"]}),
    ("melting point of Si", {"formula": "Si"}),
]


def ask(query: str, arguments: dict[str, Any]) -> PlanRequest:
    return PlanRequest(
        query=query, arguments=arguments, preferred_tools=["mp_api"], fallback_scope="cross_provider"
    )


def answer_text(records: list[dict[str, Any]], need: list[str]) -> str:
    keep = {*need, "material_id", "id"}
    shown = [", ".join(f"{k}={v}" for k, v in record.items() if k in keep) for record in records[:2]]
    return "; ".join(shown) or "(no records)"


async def question_table(router: SchemaRouter) -> None:
    print(f"{'question':<48} {'answered by':<52} answer")
    for query, arguments in QUESTIONS:
        request = ask(query, arguments)
        try:
            result = await router.invoke(request)
        except SchemaRouterError as exc:
            print(f"{query:<48} {type(exc).__name__:<52} {str(exc).splitlines()[0][:70]}")
            continue
        route = f"{result.tool}.{result.endpoint}"
        print(f"{query:<48} {route:<52} {answer_text(result.records, result.plan.need)}")


async def outage_story(landscape: MPLandscape, router: SchemaRouter) -> None:
    summary = "search_materials_summary__get"
    router.register_health_probe(
        "mp_api", summary, openapi_operation_probe(router, "mp_api", summary, arguments={"formula": "Si"})
    )
    print("\nThe MP API server hangs (every request accepted, never answered):")
    landscape.set_fault("hang")
    started = time.monotonic()
    result = await router.invoke(ask("band gap of Si", {"formula": "Si"}))
    took = time.monotonic() - started
    timeouts = [a.access_path for a in result.attempts if not a.ok and "timed out" in (a.error or "")]
    print(f"  answered by {result.tool}.{result.endpoint} ({result.provider}) in {took:.1f} s")
    print(f"  records: {result.records}")
    print(f"  route: {' -> '.join(result.route)}")
    print(f"  timeouts on the MP origin: {len(timeouts)} ({', '.join(timeouts)})")
    execution = router.inspect().execution
    print(f"  cooled origins: {execution.cooled_origins}")
    print(f"  unavailable access paths: {execution.unavailable_access_paths}")
    print("The MP API server is back; the health monitor probes it:")
    landscape.set_fault("pass")
    await router.start_health_monitor(interval_seconds=0.5, probe_timeout_seconds=10)
    try:
        for _ in range(120):
            if not router.inspect().execution.cooled_origins:
                break
            await anyio.sleep(0.5)
    finally:
        await router.stop_health_monitor()
    print(f"  cooled origins: {router.inspect().execution.cooled_origins}")
    result = await router.invoke(ask("band gap of Si", {"formula": "Si"}))
    print(f"  band gap of Si answered by {result.tool}.{result.endpoint} again")


async def main() -> None:
    try:
        mp_python(create=False)
    except MPEnvironmentUnavailable as exc:
        sys.exit(f"The MP API server's environment is missing (run `make mp-venv`): {exc}")
    print("Starting the MP API server (emmet-api), MP's OPTIMADE and OQMD ...")
    with MPLandscape() as landscape:
        print(f"  MP API server ready in {landscape.mp_server.startup_seconds:.0f} s at {landscape.mp_url}\n")
        router = await landscape.build_router()
        try:
            await question_table(router)
            await outage_story(landscape, router)
        finally:
            await router.aclose()


if __name__ == "__main__":
    anyio.run(main)
