"""A small materials table and in-process routes over it: the kit's stand-in for real providers.

The numbers are approximate, Materials-Project-like test data (PBE band gaps in eV), not
reference values.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TypedDict

from .._router import SchemaRouter
from ._faults import Down, faulty

__all__ = ["MATERIALS", "Material", "materials_router", "materials_search", "oqmd_search"]


class Material(TypedDict):
    """One material record, as the kit's routes return it."""

    material_id: str
    formula: str
    band_gap: float
    energy_above_hull: float
    is_stable: bool


MATERIALS: tuple[Material, ...] = (
    Material(material_id="mp-149", formula="Si", band_gap=0.61, energy_above_hull=0.0, is_stable=True),
    Material(material_id="mp-2534", formula="GaAs", band_gap=0.19, energy_above_hull=0.0, is_stable=True),
    Material(material_id="mp-22862", formula="NaCl", band_gap=5.0, energy_above_hull=0.0, is_stable=True),
    Material(material_id="mp-19770", formula="Fe2O3", band_gap=2.0, energy_above_hull=0.03, is_stable=False),
)
"""The records every route of the kit serves (Si, GaAs, NaCl, Fe2O3)."""

_OQMD_SHIFT = 0.01
"""OQMD's band gaps differ a little from the Materials Project's, so answers can be told apart."""


def materials_search(formula: str) -> list[Material]:
    """Materials with the reduced formula *formula*, from the Materials Project."""
    return [Material(**m) for m in MATERIALS if m["formula"] == formula]


def oqmd_search(formula: str) -> list[Material]:
    """Materials with the reduced formula *formula*, from OQMD."""
    # OQMD-like ids (oqmd-*) and band gaps a little off the Materials Project's
    return [
        Material(
            material_id=m["material_id"].replace("mp-", "oqmd-"),
            formula=m["formula"],
            band_gap=round(m["band_gap"] + _OQMD_SHIFT, 4),
            energy_above_hull=m["energy_above_hull"],
            is_stable=m["is_stable"],
        )
        for m in MATERIALS
        if m["formula"] == formula
    ]


def materials_router(
    *, down: Collection[str] = ("mp_api",), router: SchemaRouter | None = None
) -> SchemaRouter:
    """A router with three read-only band-gap routes, those named in *down* always unavailable.

    ``mp_api`` (provider ``materials_project``, access mode ``openapi``), ``mp_python``
    (``materials_project``, ``python``) and ``oqmd`` (``oqmd``, ``optimade``), each with one
    endpoint ``search(formula)``. By default the Materials Project's REST API is down.
    """
    unknown = set(down) - {"mp_api", "mp_python", "oqmd"}
    if unknown:
        raise ValueError(f"materials_router(down=...): unknown routes {sorted(unknown)}")
    router = router if router is not None else SchemaRouter()
    routes = (
        ("mp_api", "materials_project", "openapi", materials_search),
        ("mp_python", "materials_project", "python", materials_search),
        ("oqmd", "oqmd", "optimade", oqmd_search),
    )
    for name, provider, access_mode, fn in routes:
        route = faulty(fn, Down(f"{name}: connection refused")) if name in down else fn
        router.add_callable(
            route, name=name, provider=provider, access_mode=access_mode, endpoint="search", read_only=True
        )
    return router
