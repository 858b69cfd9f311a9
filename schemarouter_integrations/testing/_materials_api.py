"""A loopback twin of a Materials-Project-like REST API, with scripted faults.

``GET /openapi.json``           an OpenAPI 3.0 document
``GET /materials/summary/``     operationId ``search``: ``formula``, ``elements``
                                (comma-separated), ``_fields`` (comma-separated projection),
                                records under ``data``
``GET /heartbeat``              operationId ``heartbeat`` (never faulted, needs no key)

The fault (:class:`~schemarouter_integrations.testing.Down`, ``FailTimes``, ``RetryAfter``,
``Hang``, ``Slow``) applies to ``/materials`` requests only, so the document stays readable:
``Down`` answers 503, ``FailTimes(n)`` 503 for the next *n* requests, ``RetryAfter(s)`` 503 with
``Retry-After: s``, ``Hang`` waits without answering, ``Slow(s)`` answers after *s* seconds.
"""

from __future__ import annotations

import threading
from typing import Any

from ._faults import Down, FailTimes, Fault, Hang, RetryAfter, Slow
from ._loopback import LoopbackServer, Reply, Request
from ._materials import MATERIALS

__all__ = ["MaterialsApi"]

_ELEMENTS = {"Si": ["Si"], "GaAs": ["As", "Ga"], "NaCl": ["Cl", "Na"], "Fe2O3": ["Fe", "O"]}
_PROPERTIES: dict[str, dict[str, Any]] = {
    "material_id": {"type": "string", "description": "Materials Project ID, e.g. mp-149"},
    "formula_pretty": {"type": "string", "description": "Reduced formula, e.g. GaAs"},
    "elements": {"type": "array", "items": {"type": "string"}, "description": "Elements, alphabetical"},
    "band_gap": {"type": "number", "description": "Band gap (eV)"},
    "energy_above_hull": {"type": "number", "description": "Energy above the convex hull (eV/atom)"},
    "is_stable": {"type": "boolean", "description": "On the convex hull"},
}


def _records() -> list[dict[str, Any]]:
    return [
        {
            "material_id": m["material_id"],
            "formula_pretty": m["formula"],
            "elements": _ELEMENTS[m["formula"]],
            "band_gap": m["band_gap"],
            "energy_above_hull": m["energy_above_hull"],
            "is_stable": m["is_stable"],
        }
        for m in MATERIALS
    ]


def _parameter(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": {"type": "string"},
    }


def _document() -> dict[str, Any]:
    records = {"type": "object", "properties": _PROPERTIES}
    envelope = {"type": "object", "properties": {"data": {"type": "array", "items": records}}}
    ok = {"description": "OK", "content": {"application/json": {"schema": envelope}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Materials API (loopback twin)", "version": "1.0"},
        "paths": {
            "/materials/summary/": {
                "get": {
                    "operationId": "search",
                    "summary": "Search material summaries",
                    "parameters": [
                        _parameter("formula", "Reduced chemical formula, e.g. Si"),
                        _parameter("elements", "Elements the material contains, comma-separated"),
                        _parameter("_fields", "Fields to return, comma-separated"),
                    ],
                    "responses": {"200": ok},
                }
            },
            "/heartbeat": {
                "get": {
                    "operationId": "heartbeat",
                    "summary": "Is the API up",
                    "responses": {"200": {"description": "OK"}},
                }
            },
        },
    }


class MaterialsApi(LoopbackServer):
    """The Materials-like REST API on loopback; ``fault`` (settable at any time) scripts outages.

    ``api_key``: when given, ``/materials`` requests without header ``x-api-key`` equal to it
    answer 401. ``calls`` counts the ``/materials`` requests since the fault was last set.
    """

    def __init__(self, *, fault: Fault | None = None, api_key: str | None = None) -> None:
        super().__init__()
        self.api_key = api_key
        self._fault: Fault | None = fault
        self._calls = 0
        self._fault_lock = threading.Lock()

    @property
    def fault(self) -> Fault | None:
        """The fault applied to ``/materials`` requests (``None``: healthy)."""
        return self._fault

    @fault.setter
    def fault(self, fault: Fault | None) -> None:
        if fault is not None and not isinstance(fault, Fault):
            raise TypeError(f"MaterialsApi.fault takes a Fault or None, got {fault!r}")
        with self._fault_lock:
            self._fault, self._calls = fault, 0

    @property
    def calls(self) -> int:
        """``/materials`` requests received since the fault was last set."""
        return self._calls

    @property
    def openapi_url(self) -> str:
        """The URL of the OpenAPI document."""
        return f"{self.url}/openapi.json"

    def answer(self, request: Request) -> Reply:
        if request.path == "/openapi.json":
            return Reply(200, _document())
        if request.path == "/heartbeat":
            return Reply(200, {"status": "ok"})
        if not request.path.startswith("/materials"):
            return Reply(404, {"detail": "not found"})
        if self.api_key is not None and request.headers.get("x-api-key") != self.api_key:
            return Reply(401, {"detail": "missing or wrong x-api-key"})
        faulted = self._faulted()
        if faulted is not None:
            return faulted
        if request.path.rstrip("/") != "/materials/summary":
            return Reply(404, {"detail": "not found"})
        return Reply(200, {"data": self._search(request.query)})

    def _faulted(self) -> Reply | None:
        with self._fault_lock:
            self._calls += 1
            fault, number = self._fault, self._calls
        unavailable = Reply(503, {"detail": "service unavailable"})
        if isinstance(fault, Down):
            return unavailable
        if isinstance(fault, FailTimes):
            return unavailable if number <= fault.times else None
        if isinstance(fault, RetryAfter):
            if fault.times is None or number <= fault.times:
                return Reply(
                    fault.status_code, {"detail": "retry later"}, {"retry-after": f"{fault.seconds:g}"}
                )
            return None
        if isinstance(fault, Hang):
            self.sleep(fault.seconds)
            return Reply(504, {"detail": "gave up"})
        if isinstance(fault, Slow):
            self.sleep(fault.seconds)
        return None

    @staticmethod
    def _search(query: dict[str, str]) -> list[dict[str, Any]]:
        hits = _records()
        if query.get("formula"):
            hits = [r for r in hits if r["formula_pretty"] == query["formula"]]
        if query.get("elements"):
            wanted = {e.strip() for e in query["elements"].split(",") if e.strip()}
            hits = [r for r in hits if wanted <= set(r["elements"])]
        fields = [f for f in query.get("_fields", "").split(",") if f]
        if fields:
            hits = [{k: v for k, v in r.items() if k in fields} for r in hits]
        return hits
