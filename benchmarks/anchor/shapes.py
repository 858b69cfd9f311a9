"""The scenarios both sides build, as plain data (standard library only).

Each side's worker turns these shapes into its own package's contracts, so the tools,
endpoints, fields, requests and responses are the same on both sides by construction.
"""

from __future__ import annotations

from typing import Any

QUERY = "Si band gap"
ARGUMENTS: dict[str, Any] = {"formula": "Si"}
SCOPE = "cross_provider"
MAX_FALLBACKS = 3
INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"formula": {"type": "string"}},
    "additionalProperties": False,
}

# -- plan() and registration: N tools, one read-only endpoint, five fields, 5 tools a provider
PLAN_SIZES = (10, 100, 1_000, 10_000)
REGISTRATION_SIZES = (1_000, 10_000)
MEMORY_SIZE = 1_000


def plan_tool(i: int, revision: int = 0) -> dict[str, Any]:
    """Tool *i* of a plan registry; a new *revision* changes only its description."""
    return {
        "name": f"tool_{i:05d}",
        "provider": f"provider_{i // 5}",
        "access_mode": "openapi",
        "description": f"revision {revision}" if revision else "",
        "endpoint": "search",
        "fields": [
            {"name": "band_gap", "aliases": ["gap"], "path": [f"_p{i // 5}_band_gap"]},
            {"name": "formula", "aliases": ["chemical formula"], "path": ["formula"]},
            {"name": f"energy_{i}", "aliases": [], "path": [f"energy_{i}"]},
            {"name": f"volume_{i}", "aliases": [], "path": [f"volume_{i}"]},
            {"name": f"density_{i}", "aliases": [], "path": [f"density_{i}"]},
        ],
    }


# -- invoke(): the 4-route chain (three unavailable in-process routes, then a success)
CHAIN_ROUTES: dict[str, tuple[str, str, str]] = {  # tool -> (provider, access_mode, wire band_gap)
    "mp_api": ("materials_project", "openapi", "band_gap"),
    "mp_optimade": ("materials_project", "optimade", "_mp_band_gap"),
    "mp_python": ("materials_project", "python", "band_gap"),
    "oqmd_api": ("oqmd", "openapi", "band_gap"),
}
DOWN = ("mp_api", "mp_optimade", "mp_python")
ANSWERS = "oqmd_api"


def chain_fields(wire: str) -> list[dict[str, Any]]:
    return [
        {"name": "band_gap", "aliases": ["gap"], "path": [wire]},
        {"name": "formula", "aliases": ["chemical formula"], "path": ["name"]},
    ]


def answer(formula: str) -> dict[str, Any]:
    """The healthy route's raw response: one record (a lone object) on both sides."""
    return {"entry_id": 4200, "name": formula, "band_gap": 0.62, "delta_e": -0.1}
