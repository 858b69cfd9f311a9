"""The seed router (``tests/support/seed.py``) served as an MCP server over stdio.

``python tests/servers/mcp_router_server.py --down mp_api --scope same_provider`` serves the
seed's four band-gap tools (the named ones unavailable) through
``schemarouter_integrations.mcp.serve_mcp``.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import anyio

from schemarouter_integrations.mcp import serve_mcp
from tests.support.seed import seed_router


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--down", action="append", default=[])
    parser.add_argument("--scope", default="disabled")
    args = parser.parse_args(argv)
    router, _ = seed_router(down=tuple(args.down))
    anyio.run(partial(serve_mcp, router, transport="stdio", fallback_scope=args.scope))


if __name__ == "__main__":
    main()
