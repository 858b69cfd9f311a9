"""A loopback twin of an OPTIMADE federation: a providers list, one index per provider, databases.

One server holds it all (standard library only)::

    {url}/providers/v1/links            the providers list (one entry per provider)
    {url}/<provider>/v1/info, /links     the provider's index meta-database (child links)
    {url}/<provider>/main/v1/info        a database: /info, /info/structures, /structures

Each database serves the kit's materials with its provider's own band-gap property
(``_oqmd_band_gap``, ``_alexandria_band_gap``, ``_gnome_bandgap``), values a little apart per
provider. ``/structures`` understands ``chemical_formula_reduced="X"``, ``elements HAS ALL
"A","B"`` (joined with ``AND``) and ``response_fields``; another filter is a 400. Give a
database a fault with ``twin.faults["oqmd"] = Down()`` (``Down``/``FailTimes``/``RetryAfter``:
503; ``Hang``, ``Slow``: wait).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from typing import Any

from ._faults import Down, FailTimes, Fault, Hang, RetryAfter, Slow
from ._loopback import LoopbackServer, Reply, Request
from ._materials import MATERIALS

__all__ = ["PROVIDER_BAND_GAPS", "OptimadeFederation"]

API_VERSION = "1.2.0"
PROVIDER_BAND_GAPS: Mapping[str, tuple[str, float]] = {
    "oqmd": ("_oqmd_band_gap", 0.01),
    "alexandria": ("_alexandria_band_gap", 0.1),
    "gnome": ("_gnome_bandgap", 0.05),
}
"""provider id -> (its band-gap property, the shift of its values from the kit's table)."""

_ELEMENTS = {"Si": ["Si"], "GaAs": ["As", "Ga"], "NaCl": ["Cl", "Na"], "Fe2O3": ["Fe", "O"]}
_FORMULA = re.compile(r'^chemical_formula_reduced\s*=\s*"([^"]*)"$')
_HAS_ALL = re.compile(r"^elements\s+HAS\s+ALL\s+(.+)$", re.IGNORECASE)


def _meta(provider: str, **extra: Any) -> dict[str, Any]:
    return {
        "api_version": API_VERSION,
        "more_data_available": False,
        "provider": {"prefix": provider, "name": provider, "description": f"{provider} (loopback twin)"},
        **extra,
    }


def _info(provider: str, *, index: bool) -> dict[str, Any]:
    entries = ["links"] if index else ["structures"]
    attributes = {
        "api_version": API_VERSION,
        "available_api_versions": [{"url": "/v1", "version": API_VERSION}],
        "formats": ["json"],
        "entry_types_by_format": {"json": entries},
        "available_endpoints": ["info", *entries],
        "is_index": index,
    }
    return {"meta": _meta(provider), "data": {"type": "info", "id": "/", "attributes": attributes}}


class OptimadeFederation(LoopbackServer):
    """The federation twin on loopback; ``providers`` are ids of :data:`PROVIDER_BAND_GAPS`."""

    def __init__(self, providers: tuple[str, ...] = ("oqmd", "alexandria", "gnome")) -> None:
        super().__init__()
        unknown = [p for p in providers if p not in PROVIDER_BAND_GAPS]
        if unknown:
            raise ValueError(
                f"OptimadeFederation: unknown providers {unknown}; known: {sorted(PROVIDER_BAND_GAPS)}"
            )
        self.providers = tuple(providers)
        self.faults: dict[str, Fault] = {}
        """provider id -> the fault its database serves (``/structures`` only)."""
        self._calls: dict[str, int] = {}
        self._lock = threading.Lock()

    @property
    def providers_url(self) -> str:
        """The providers list: give it to ``add_optimade_federation(source=...)``."""
        return f"{self.url}/providers/v1/links"

    def database_url(self, provider: str) -> str:
        """The base URL of *provider*'s database (for ``add_url(kind="optimade")``)."""
        return f"{self.url}/{provider}/main"

    def answer(self, request: Request) -> Reply:
        parts = [p for p in request.path.split("/") if p]
        if parts == ["providers", "v1", "links"]:
            return Reply(200, {"meta": _meta("twin"), "data": [self._provider(p) for p in self.providers]})
        if not parts or parts[0] not in self.providers:
            return Reply(404, {"errors": [{"status": "404", "title": "Not Found"}]})
        provider, rest = parts[0], parts[1:]
        if rest == ["v1", "info"]:
            return Reply(200, _info(provider, index=True))
        if rest == ["v1", "links"]:
            return Reply(200, {"meta": _meta(provider), "data": [self._child(provider)]})
        if rest == ["main", "v1", "info"]:
            return Reply(200, _info(provider, index=False))
        if rest == ["main", "v1", "info", "structures"]:
            return Reply(200, {"meta": _meta(provider), "data": self._structures_info(provider)})
        if rest == ["main", "v1", "structures"]:
            return self._faulted(provider) or self._structures(provider, request.query)
        return Reply(404, {"errors": [{"status": "404", "title": "Not Found"}]})

    def _provider(self, provider: str) -> dict[str, Any]:
        attributes = {"name": provider, "base_url": f"{self.url}/{provider}", "link_type": "external"}
        return {"type": "links", "id": provider, "attributes": attributes}

    def _child(self, provider: str) -> dict[str, Any]:
        attributes = {
            "name": f"{provider} main",
            "base_url": self.database_url(provider),
            "link_type": "child",
            "aggregate": "ok",
        }
        return {"type": "links", "id": "main", "attributes": attributes}

    @staticmethod
    def _structures_info(provider: str) -> dict[str, Any]:
        band_gap, _ = PROVIDER_BAND_GAPS[provider]
        properties = {
            "id": {"type": "string", "description": "The entry's id"},
            "type": {"type": "string", "description": "Always structures"},
            "chemical_formula_reduced": {"type": "string", "description": "Reduced chemical formula"},
            "elements": {"type": "list", "description": "Element symbols, alphabetical"},
            band_gap: {"type": "float", "unit": "eV", "description": "Band gap (eV)"},
        }
        return {
            "formats": ["json"],
            "output_fields_by_format": {"json": list(properties)},
            "properties": properties,
        }

    def _faulted(self, provider: str) -> Reply | None:
        with self._lock:
            self._calls[provider] = number = self._calls.get(provider, 0) + 1
            fault = self.faults.get(provider)
        unavailable = Reply(503, {"errors": [{"status": "503", "title": "Service Unavailable"}]})
        if isinstance(fault, Down) or (isinstance(fault, FailTimes) and number <= fault.times):
            return unavailable
        if isinstance(fault, RetryAfter) and (fault.times is None or number <= fault.times):
            return Reply(fault.status_code, unavailable.body, {"retry-after": f"{fault.seconds:g}"})
        if isinstance(fault, Hang | Slow):
            self.sleep(fault.seconds)
        return None

    def _structures(self, provider: str, query: dict[str, str]) -> Reply:
        band_gap, shift = PROVIDER_BAND_GAPS[provider]
        records: list[dict[str, Any]] = [
            {
                "id": f"{provider}-{index}",
                "type": "structures",
                "attributes": {
                    "chemical_formula_reduced": m["formula"],
                    "elements": _ELEMENTS[m["formula"]],
                    band_gap: round(m["band_gap"] + shift, 4),
                },
            }
            for index, m in enumerate(MATERIALS, start=1)
        ]
        try:
            records = [r for r in records if _matches(query.get("filter", ""), r["attributes"])]
        except ValueError as exc:
            return Reply(400, {"errors": [{"status": "400", "title": "Bad Request", "detail": str(exc)}]})
        wanted = [f for f in query.get("response_fields", "").split(",") if f]
        if wanted:
            for record in records:
                record["attributes"] = {k: v for k, v in record["attributes"].items() if k in wanted}
        return Reply(200, {"meta": _meta(provider, data_returned=len(records)), "data": records, "links": {}})


def _matches(filter_text: str, attributes: Mapping[str, Any]) -> bool:
    """Whether *attributes* pass the (small) OPTIMADE filter; ValueError for what is not understood."""
    for clause in (c.strip().strip("()").strip() for c in re.split(r"\s+AND\s+", filter_text) if c.strip()):
        if (formula := _FORMULA.match(clause)) is not None:
            if attributes.get("chemical_formula_reduced") != formula.group(1):
                return False
        elif (has_all := _HAS_ALL.match(clause)) is not None:
            wanted = {s.strip().strip('"') for s in has_all.group(1).split(",")}
            if not wanted <= set(attributes.get("elements", [])):
                return False
        else:
            raise ValueError(f"the loopback twin does not understand the filter {clause!r}")
    return True
