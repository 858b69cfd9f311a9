"""A stand-in for the Materials Project Python client (``mp_api.client``), for ``python`` routes.

``summary_search(formula)`` answers like ``MPRester().materials.summary.search(formula=...)``
would, from the MP-like test data, with no network. Landscape files name it as
``function = "cookbook.services.mp_client:summary_search"``.
"""

from __future__ import annotations

from typing import TypedDict

from cookbook.services.materials_api import SUMMARY_DOCS


class SummaryDoc(TypedDict):
    material_id: str
    formula_pretty: str
    band_gap: float | None


def summary_search(formula: str) -> list[SummaryDoc]:
    """Materials whose reduced formula is *formula*."""
    return [
        SummaryDoc(material_id=d["material_id"], formula_pretty=d["formula_pretty"], band_gap=d["band_gap"])
        for d in SUMMARY_DOCS
        if d["formula_pretty"] == formula
    ]


def heartbeat() -> bool:
    """A trusted probe: the client is importable and has data."""
    return bool(SUMMARY_DOCS)
