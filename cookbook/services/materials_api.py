"""A loopback imitation of the Materials Project native REST API (summary route).

What it serves (FastAPI, OpenAPI 3.1 at ``/openapi.json``):

* ``GET /materials/summary/``   operationId ``search``: filters ``formula``, ``elements``,
  ``material_ids``, ``band_gap_min``/``band_gap_max``; projection ``_fields`` (comma-separated);
  paging ``_limit``/``_skip``.  Answers ``{"data": [SummaryDoc, ...], "meta": {...}}``.
* ``GET /materials/{material_id}``  operationId ``get_material`` (same envelope, one doc).
* ``POST /materials/``           operationId ``create_material`` (mutating; 201 / 409).
* ``GET /heartbeat``             operationId ``heartbeat`` (never faulted, no key needed).

Optional API key: ``create_materials_app(api_key="k")`` makes every ``/materials`` request
without header ``x-api-key: k`` answer 401.

Faults are injected from the test process through :class:`FaultPlan` (``app.state.faults``),
and every request is recorded in :class:`RequestLog` (``app.state.requests``).

The numbers in :data:`SUMMARY_DOCS` are approximate, MP-like (PBE band gaps, VRH moduli in GPa);
they are test data, not reference values.
"""

import asyncio
import copy
import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from cookbook.services.uvicorn_thread import UvicornThread

API_VERSION = "0.41.2-test"

FAULT_KINDS: frozenset[str] = frozenset(
    {"429", "503", "500", "hang", "404", "401", "malformed_json", "oversized", "html"}
)


# --------------------------------------------------------------------------- data models


class ElasticModuli(BaseModel):
    """Voigt, Reuss and Voigt-Reuss-Hill averages of an elastic modulus, in GPa."""

    voigt: float | None = Field(default=None, description="Voigt average (GPa)")
    reuss: float | None = Field(default=None, description="Reuss average (GPa)")
    vrh: float | None = Field(default=None, description="Voigt-Reuss-Hill average (GPa)")


class SummaryDoc(BaseModel):
    """One material summary record.  Every field is optional because ``_fields`` projects."""

    material_id: str | None = Field(default=None, description="Materials Project ID, e.g. mp-149")
    formula_pretty: str | None = Field(default=None, description="Reduced formula, e.g. GaAs")
    elements: list[str] | None = Field(default=None, description="Elements, alphabetical")
    nelements: int | None = Field(default=None, description="Number of distinct elements")
    chemsys: str | None = Field(default=None, description="Chemical system, e.g. As-Ga")
    band_gap: float | None = Field(default=None, description="Band gap (eV), PBE/GGA(+U)")
    is_gap_direct: bool | None = Field(default=None, description="Whether the gap is direct")
    energy_above_hull: float | None = Field(
        default=None, description="Energy above the convex hull (eV/atom)"
    )
    formation_energy_per_atom: float | None = Field(default=None, description="Formation energy (eV/atom)")
    is_stable: bool | None = Field(default=None, description="On the convex hull")
    density: float | None = Field(default=None, description="Density (g/cm^3)")
    bulk_modulus: ElasticModuli | None = Field(default=None, description="Bulk modulus (GPa)")
    shear_modulus: ElasticModuli | None = Field(default=None, description="Shear modulus (GPa)")


class MaterialCreate(BaseModel):
    """Body of ``POST /materials/``."""

    material_id: str = Field(description="New Materials Project style ID")
    formula_pretty: str = Field(description="Reduced formula")
    elements: list[str] | None = None
    band_gap: float | None = Field(default=None, description="Band gap (eV)")
    energy_above_hull: float | None = None
    bulk_modulus: ElasticModuli | None = None
    shear_modulus: ElasticModuli | None = None


class Meta(BaseModel):
    api_version: str
    time_stamp: str
    total_doc: int = Field(description="Number of documents matching the query")
    max_limit: int = Field(description="Largest accepted _limit")


class SummaryResponse(BaseModel):
    data: list[SummaryDoc]
    meta: Meta


def _moduli(voigt: float, reuss: float, vrh: float) -> dict[str, float]:
    return {"voigt": voigt, "reuss": reuss, "vrh": vrh}


def _doc(
    material_id: str,
    formula: str,
    elements: list[str],
    *,
    band_gap: float | None,
    direct: bool | None,
    e_hull: float | None,
    e_form: float | None,
    density: float | None,
    bulk: dict[str, float] | None,
    shear: dict[str, float] | None,
) -> dict[str, Any]:
    return {
        "material_id": material_id,
        "formula_pretty": formula,
        "elements": elements,
        "nelements": len(elements),
        "chemsys": "-".join(elements),
        "band_gap": band_gap,
        "is_gap_direct": direct,
        "energy_above_hull": e_hull,
        "formation_energy_per_atom": e_form,
        "is_stable": None if e_hull is None else e_hull == 0.0,
        "density": density,
        "bulk_modulus": bulk,
        "shear_modulus": shear,
    }


SUMMARY_DOCS: list[dict[str, Any]] = [
    _doc(
        "mp-149",
        "Si",
        ["Si"],
        band_gap=0.6105,
        direct=False,
        e_hull=0.0,
        e_form=0.0,
        density=2.28,
        bulk=_moduli(88.9, 88.9, 88.9),
        shear=_moduli(65.5, 61.0, 63.3),
    ),
    _doc(
        "mp-2534",
        "GaAs",
        ["As", "Ga"],
        band_gap=0.1879,
        direct=True,
        e_hull=0.0,
        e_form=-0.4635,
        density=5.21,
        bulk=_moduli(60.7, 60.7, 60.7),
        shear=_moduli(38.9, 34.8, 36.9),
    ),
    _doc(
        "mp-22862",
        "NaCl",
        ["Cl", "Na"],
        band_gap=5.003,
        direct=True,
        e_hull=0.0,
        e_form=-2.0188,
        density=2.11,
        bulk=_moduli(24.1, 24.1, 24.1),
        shear=_moduli(15.6, 14.3, 15.0),
    ),
    _doc(
        "mp-13",
        "Fe",
        ["Fe"],
        band_gap=0.0,
        direct=False,
        e_hull=0.0,
        e_form=0.0,
        density=7.85,
        bulk=_moduli(182.0, 182.0, 182.0),
        shear=_moduli(95.1, 72.9, 84.0),
    ),
    _doc(
        "mp-1265",
        "MgO",
        ["Mg", "O"],
        band_gap=4.445,
        direct=True,
        e_hull=0.0,
        e_form=-3.0499,
        density=3.49,
        bulk=_moduli(152.0, 152.0, 152.0),
        shear=_moduli(120.6, 113.1, 116.9),
    ),
    _doc(
        "mp-19770",
        "Fe2O3",
        ["Fe", "O"],
        band_gap=2.0203,
        direct=False,
        e_hull=0.0,
        e_form=-1.7077,
        density=5.12,
        bulk=None,
        shear=None,
    ),
    _doc(
        "mp-19017",
        "LiFePO4",
        ["Fe", "Li", "O", "P"],
        band_gap=3.6970,
        direct=False,
        e_hull=0.0,
        e_form=-2.5353,
        density=3.47,
        bulk=None,
        shear=None,
    ),
    _doc(
        "mp-2657",
        "TiO2",
        ["O", "Ti"],
        band_gap=1.7763,
        direct=True,
        e_hull=0.0223,
        e_form=-3.3447,
        density=4.14,
        bulk=_moduli(212.0, 209.5, 210.8),
        shear=_moduli(118.6, 103.7, 111.2),
    ),
]
"""Default records (deep-copied into each app)."""


# --------------------------------------------------------------------------- faults


@dataclass
class _FaultRule:
    kind: str
    remaining: int | None  # None = always
    path_prefix: str


def _normalise_kind(kind: str | int) -> str:
    text = str(kind)
    if text not in FAULT_KINDS:
        raise ValueError(f"unknown fault kind {kind!r}; known: {sorted(FAULT_KINDS)}")
    return text


class FaultPlan:
    """Faults to serve instead of the real answer; thread-safe, driven from the test thread.

    * ``fail_next(kind, times=1)``: the next ``times`` matching requests get the fault.
    * ``always(kind)``: every matching request gets it (until :meth:`clear`).
    * ``clear()``: remove all rules and release requests that are hanging right now.

    Rules apply to request paths starting with ``path_prefix`` (default ``/materials``, so
    ``/openapi.json`` and ``/heartbeat`` stay healthy; pass ``path_prefix="/"`` to fault
    everything).  One-shot rules are consumed first, in the order they were added.

    Kinds: ``"429"`` (with ``Retry-After``), ``"503"``, ``"500"``, ``"404"``, ``"401"``,
    ``"hang"`` (no answer for ``hang_seconds``), ``"malformed_json"`` (200, JSON content type,
    invalid body), ``"oversized"`` (200, valid JSON of ``oversized_bytes`` bytes), ``"html"``
    (200 text/html).  Integers such as ``429`` are accepted too.
    """

    def __init__(
        self,
        *,
        hang_seconds: float = 30.0,
        oversized_bytes: int = 2_000_000,
        retry_after: str = "1",
    ) -> None:
        self.hang_seconds = hang_seconds
        self.oversized_bytes = oversized_bytes
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._once: deque[_FaultRule] = deque()
        self._always: list[_FaultRule] = []
        self._release_generation = 0
        self.served: list[tuple[str, str]] = []
        """``(kind, path)`` for every fault actually served, in order."""

    def fail_next(self, kind: str | int, times: int = 1, *, path_prefix: str = "/materials") -> None:
        if times < 1:
            raise ValueError("times must be >= 1")
        with self._lock:
            self._once.append(_FaultRule(_normalise_kind(kind), times, path_prefix))

    def always(self, kind: str | int, *, path_prefix: str = "/materials") -> None:
        with self._lock:
            self._always.append(_FaultRule(_normalise_kind(kind), None, path_prefix))

    def clear(self) -> None:
        with self._lock:
            self._once.clear()
            self._always.clear()
            self.served.clear()
            self._release_generation += 1

    def release_hanging(self) -> None:
        """Let every request that is currently hanging finish (with 504) right away."""
        with self._lock:
            self._release_generation += 1

    @property
    def pending(self) -> int:
        """Number of one-shot faults not yet served."""
        with self._lock:
            return sum(rule.remaining or 0 for rule in self._once)

    def take(self, path: str) -> str | None:
        """Pick the fault for a request to ``path`` (consuming one-shot rules)."""
        with self._lock:
            for rule in self._once:
                if path.startswith(rule.path_prefix):
                    assert rule.remaining is not None
                    rule.remaining -= 1
                    if rule.remaining <= 0:
                        self._once.remove(rule)
                    self.served.append((rule.kind, path))
                    return rule.kind
            for rule in self._always:
                if path.startswith(rule.path_prefix):
                    self.served.append((rule.kind, path))
                    return rule.kind
        return None

    async def hang(self) -> bool:
        """Sleep up to ``hang_seconds``; returns True if released early."""
        with self._lock:
            generation = self._release_generation
        deadline = time.monotonic() + self.hang_seconds
        while time.monotonic() < deadline:
            if self._release_generation != generation:
                return True
            await asyncio.sleep(0.02)
        return False


def _fault_response(plan: FaultPlan, kind: str) -> Response:
    if kind == "429":
        return JSONResponse(
            {"detail": "Too many requests"},
            status_code=429,
            headers={"Retry-After": plan.retry_after},
        )
    if kind == "503":
        return JSONResponse({"detail": "Service temporarily unavailable"}, status_code=503)
    if kind == "500":
        return JSONResponse({"detail": "Internal server error"}, status_code=500)
    if kind == "404":
        return JSONResponse({"detail": "Not found"}, status_code=404)
    if kind == "401":
        return JSONResponse({"detail": "Invalid or missing API key"}, status_code=401)
    if kind == "malformed_json":
        return Response(
            b'{"data": [{"material_id": "mp-149", "formula_pretty": "Si", "band_gap": 0.61',
            status_code=200,
            media_type="application/json",
        )
    if kind == "html":
        return HTMLResponse(
            "<!DOCTYPE html><html><head><title>Maintenance</title></head>"
            "<body><h1>We'll be back soon</h1></body></html>",
            status_code=200,
        )
    if kind == "oversized":
        return Response(_oversized_body(plan.oversized_bytes), media_type="application/json")
    raise AssertionError(kind)


def _oversized_body(size: int) -> bytes:
    """Valid JSON in the summary envelope, padded to exactly ``size`` bytes (when size >= 200)."""
    head = '{"data": [{"material_id": "mp-149", "formula_pretty": "Si", "band_gap": 0.6105, "padding": "'
    tail = '"}], "meta": {"api_version": "' + API_VERSION + '", "total_doc": 1}}'
    pad = max(0, size - len(head) - len(tail))
    return (head + "x" * pad + tail).encode()


# --------------------------------------------------------------------------- request log


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    """Query parameters (last value wins); see ``query_items`` for repeated keys."""
    query_items: list[tuple[str, str]]
    headers: dict[str, str]
    """Request headers, names lower-cased."""
    body: bytes = b""
    status: int | None = None
    fault: str | None = None
    url: str = ""

    @property
    def fields(self) -> list[str] | None:
        """The ``_fields`` projection sent upstream, split on commas (None when absent)."""
        raw = self.query.get("_fields")
        return None if raw is None else [f for f in raw.split(",") if f]


@dataclass
class RequestLog:
    """Thread-safe list of :class:`RecordedRequest` (iterate, index, ``len``)."""

    _items: list[RecordedRequest] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def append(self, item: RecordedRequest) -> None:
        with self._lock:
            self._items.append(item)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def snapshot(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._items)

    def to(self, path_prefix: str) -> list[RecordedRequest]:
        """Requests whose path starts with ``path_prefix``."""
        return [r for r in self.snapshot() if r.path.startswith(path_prefix)]

    @property
    def last(self) -> RecordedRequest:
        with self._lock:
            return self._items[-1]

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __iter__(self) -> Any:
        return iter(self.snapshot())

    def __getitem__(self, index: int) -> RecordedRequest:
        with self._lock:
            return self._items[index]


# --------------------------------------------------------------------------- the app


def _split_csv(value: str | None) -> list[str]:
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]


def _project(doc: dict[str, Any], fields: list[str]) -> dict[str, Any]:
    if not fields:
        return copy.deepcopy(doc)
    return {key: copy.deepcopy(doc[key]) for key in fields if key in doc}


def create_materials_app(
    *,
    api_key: str | None = None,
    faults: FaultPlan | None = None,
    docs: list[dict[str, Any]] | None = None,
    max_limit: int = 1000,
) -> FastAPI:
    """Build the app.  State: ``app.state.faults``, ``app.state.requests``, ``app.state.store``."""
    app = FastAPI(
        title="Materials Project API (loopback test double)",
        version=API_VERSION,
        description="Imitates the summary route of the Materials Project native REST API.",
    )
    plan = faults or FaultPlan()
    log = RequestLog()
    store: dict[str, dict[str, Any]] = {
        d["material_id"]: copy.deepcopy(d) for d in (docs if docs is not None else SUMMARY_DOCS)
    }
    app.state.faults = plan
    app.state.requests = log
    app.state.store = store
    app.state.api_key = api_key

    @app.middleware("http")
    async def record_auth_and_faults(request: Request, call_next: Any) -> Response:
        body = await request.body()
        record = RecordedRequest(
            method=request.method,
            path=request.url.path,
            query=dict(request.query_params),
            query_items=list(request.query_params.multi_items()),
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
            url=str(request.url),
        )
        log.append(record)
        path = request.url.path
        key = app.state.api_key
        wrong_key = key is not None and request.headers.get("x-api-key") != key
        if wrong_key and path.startswith("/materials"):
            record.status = 401
            return JSONResponse({"detail": "Invalid or missing API key"}, status_code=401)
        kind = plan.take(path)
        if kind is not None:
            record.fault = kind
            if kind == "hang":
                released = await plan.hang()
                record.status = 504
                detail = "hang released" if released else "hang finished"
                return JSONResponse({"detail": detail}, status_code=504)
            faulted = _fault_response(plan, kind)
            record.status = faulted.status_code
            return faulted
        response: Response = await call_next(request)
        record.status = response.status_code
        return response

    def _meta(total: int) -> Meta:
        return Meta(
            api_version=API_VERSION,
            time_stamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
            total_doc=total,
            max_limit=max_limit,
        )

    @app.get(
        "/materials/summary/",
        operation_id="search",
        response_model=SummaryResponse,
        response_model_exclude_unset=True,
        summary="Search material summary documents",
        tags=["summary"],
    )
    def search(
        formula: Annotated[
            str | None,
            Query(description="Reduced formula(s), comma-separated, e.g. Si or GaAs,NaCl"),
        ] = None,
        elements: Annotated[
            str | None,
            Query(description="Comma-separated elements that must all be present, e.g. Ga,As"),
        ] = None,
        material_ids: Annotated[str | None, Query(description="Comma-separated material IDs")] = None,
        band_gap_min: Annotated[float | None, Query(description="Minimum band gap (eV)")] = None,
        band_gap_max: Annotated[float | None, Query(description="Maximum band gap (eV)")] = None,
        fields: Annotated[
            str | None,
            Query(alias="_fields", description="Comma-separated fields to return"),
        ] = None,
        limit: Annotated[int, Query(alias="_limit", ge=1, le=max_limit, description="Max documents")] = 10,
        skip: Annotated[int, Query(alias="_skip", ge=0, description="Documents to skip")] = 0,
    ) -> Any:
        wanted_formulas = set(_split_csv(formula))
        wanted_elements = set(_split_csv(elements))
        wanted_ids = set(_split_csv(material_ids))
        hits = []
        for doc in store.values():
            if wanted_formulas and doc.get("formula_pretty") not in wanted_formulas:
                continue
            if wanted_elements and not wanted_elements <= set(doc.get("elements") or []):
                continue
            if wanted_ids and doc["material_id"] not in wanted_ids:
                continue
            gap = doc.get("band_gap")
            if band_gap_min is not None and (gap is None or gap < band_gap_min):
                continue
            if band_gap_max is not None and (gap is None or gap > band_gap_max):
                continue
            hits.append(doc)
        projection = _split_csv(fields)
        page = [_project(d, projection) for d in hits[skip : skip + limit]]
        return SummaryResponse(data=[SummaryDoc.model_validate(d) for d in page], meta=_meta(len(hits)))

    # Same handler without the trailing slash; otherwise /materials/{material_id} would take it.
    app.add_api_route(
        "/materials/summary",
        search,
        methods=["GET"],
        response_model=SummaryResponse,
        response_model_exclude_unset=True,
        include_in_schema=False,
    )

    @app.get(
        "/materials/{material_id}",
        operation_id="get_material",
        response_model=SummaryResponse,
        response_model_exclude_unset=True,
        summary="Get one material summary by ID",
        tags=["summary"],
        responses={404: {"description": "Unknown material_id"}},
    )
    def get_material(
        material_id: str,
        fields: Annotated[
            str | None,
            Query(alias="_fields", description="Comma-separated fields to return"),
        ] = None,
    ) -> Any:
        doc = store.get(material_id)
        if doc is None:
            raise HTTPException(status_code=404, detail=f"No material with id {material_id}")
        projected = _project(doc, _split_csv(fields))
        return SummaryResponse(data=[SummaryDoc.model_validate(projected)], meta=_meta(1))

    @app.post(
        "/materials/",
        operation_id="create_material",
        response_model=SummaryDoc,
        response_model_exclude_unset=True,
        status_code=201,
        summary="Add a material (mutating)",
        tags=["summary"],
        responses={409: {"description": "material_id already exists"}},
    )
    def create_material(body: MaterialCreate) -> Any:
        if body.material_id in store:
            raise HTTPException(status_code=409, detail=f"{body.material_id} already exists")
        elements = body.elements or []
        doc = _doc(
            body.material_id,
            body.formula_pretty,
            sorted(elements),
            band_gap=body.band_gap,
            direct=None,
            e_hull=body.energy_above_hull,
            e_form=None,
            density=None,
            bulk=body.bulk_modulus.model_dump() if body.bulk_modulus else None,
            shear=body.shear_modulus.model_dump() if body.shear_modulus else None,
        )
        store[body.material_id] = doc
        return SummaryDoc.model_validate(doc)

    @app.get("/heartbeat", operation_id="heartbeat", tags=["health"])
    def heartbeat() -> dict[str, str]:
        return {"status": "OK", "version": API_VERSION}

    return app


class MaterialsApiServer:
    """The materials app served on a loopback thread.

    Attributes: ``url`` (``http://127.0.0.1:PORT``), ``openapi_url``, ``search_url``,
    ``api_key``, ``faults`` (:class:`FaultPlan`), ``requests`` (:class:`RequestLog`),
    ``store`` (dict material_id -> doc), ``app``.
    """

    def __init__(
        self,
        *,
        api_key: str | None = None,
        hang_seconds: float = 30.0,
        oversized_bytes: int = 2_000_000,
    ) -> None:
        self._fault_settings = {"hang_seconds": hang_seconds, "oversized_bytes": oversized_bytes}
        self.faults = FaultPlan(hang_seconds=hang_seconds, oversized_bytes=oversized_bytes)
        self.app = create_materials_app(api_key=api_key, faults=self.faults)
        self.requests: RequestLog = self.app.state.requests
        self.store: dict[str, dict[str, Any]] = self.app.state.store
        self._thread = UvicornThread(self.app, graceful_timeout=1)
        self._thread.on_stop(self.faults.release_hanging)
        self.url = ""

    @property
    def api_key(self) -> str | None:
        key: str | None = self.app.state.api_key
        return key

    @api_key.setter
    def api_key(self, value: str | None) -> None:
        self.app.state.api_key = value

    @property
    def openapi_url(self) -> str:
        return f"{self.url}/openapi.json"

    @property
    def search_url(self) -> str:
        return f"{self.url}/materials/summary/"

    def start(self) -> "MaterialsApiServer":
        self._thread.start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        self._thread.stop()

    def reset(self, *, api_key: str | None = None) -> None:
        """Clear faults (releasing hangs) and restore their settings (``hang_seconds``,
        ``oversized_bytes``, ``retry_after``); clear the request log; restore the default
        records; set the API key (default: none)."""
        self.faults.clear()
        self.faults.hang_seconds = self._fault_settings["hang_seconds"]
        self.faults.oversized_bytes = int(self._fault_settings["oversized_bytes"])
        self.faults.retry_after = "1"
        self.requests.clear()
        self.store.clear()
        self.store.update({d["material_id"]: copy.deepcopy(d) for d in SUMMARY_DOCS})
        self.api_key = api_key

    def __enter__(self) -> "MaterialsApiServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document as plain JSON data (round-tripped through json)."""
    result: dict[str, Any] = json.loads(json.dumps(app.openapi()))
    return result
