"""A router from a landscape file: ``load_config`` checks it, ``SchemaRouter.from_config`` builds it.

Runs offline: ``python cookbook/landscape_router.py``. It starts the MP-like REST API on
loopback, exports ``MP_API_URL`` and ``MP_API_KEY`` (the file reads them as ``"${...}"``),
and builds the router of ``cookbook/landscapes/rest_and_python.toml``: the REST API first,
the Python client as its same-provider fallback. The same file drives the command line:
``schemarouter-integrations query "band gap of Si" --arg formula=Si --config <file>``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cookbook.services.materials_api import MaterialsApiServer
from schemarouter_integrations import SchemaRouter
from schemarouter_integrations.config import load_config

LANDSCAPE = Path(__file__).resolve().parent / "landscapes" / "rest_and_python.toml"


async def main() -> None:
    with MaterialsApiServer(api_key="cookbook-key") as api:
        os.environ |= {"MP_API_URL": api.url, "MP_API_KEY": "cookbook-key"}
        config = load_config(LANDSCAPE)
        print(
            f"{LANDSCAPE.name}: routes {list(config.routes)}, tool {config.tool.name!r} ({config.tool.scope})"
        )
        async with await SchemaRouter.from_config(config) as router:
            request = config.tool.request("What is the band gap of Si?", {"formula": "Si"})
            result = await router.invoke(request, budget=config.tool.budget)
            print(f"healthy: answered by {result.tool}.{result.endpoint}: {result.records}")
            api.faults.always("503")
            result = await router.invoke(request, budget=config.tool.budget)
            print(f"REST API down: answered by {result.tool}.{result.endpoint} after {result.route}")
            print(f"probes: {sorted(router.inspect().health.probes)}")


if __name__ == "__main__":
    anyio.run(main)
