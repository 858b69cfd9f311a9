"""The upstream services of the stores soak (``tests/support/store_soak.py``), each a real
FastAPI app the script serves on its own loopback port (its own origin).

* :func:`tenant_app`: one tenant's materials search. It answers only its tenant's API key
  (``X-API-Key``; any other key is a 401) and stamps every record with its tenant's name
  and the wall-clock time it answered (``served_at``, the script's true clock), so a worker
  can tell another tenant's answer, and how old a cached answer really is.
* :func:`limited_app`: a density search that publishes a rate limit and enforces it: more
  calls than the limit allows in any sliding window (1 s and 0.25 s; a little slack for
  loopback jitter) are refused with 429 and counted.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from typing import Any

from fastapi import FastAPI, Header, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel

__all__ = ["LIMIT_SLACK", "TENANT_KEY_HEADER", "limited_app", "tenant_app"]

TENANT_KEY_HEADER = "X-API-Key"
LIMIT_SLACK = 1
"""Calls a window may hold beyond what the published limit allows (arrival jitter)."""
WINDOWS = (1.0, 0.25)


class TenantMaterial(BaseModel):
    formula: str
    band_gap: float
    tenant: str
    served_at: float


class TenantSearch(BaseModel):
    data: list[TenantMaterial]


def tenant_app(tenant: str, key: str, calls: Counter[str]) -> FastAPI:
    """Tenant *tenant*'s search, answering API key *key* only; *calls* counts what it served."""
    app = FastAPI(title="materials", version="1")
    lock = threading.Lock()

    @app.get("/search", operation_id="search", response_model=TenantSearch)
    async def search(
        formula: str = Query("Si"), x_api_key: str | None = Header(default=None, alias=TENANT_KEY_HEADER)
    ) -> Any:
        if x_api_key != key:
            with lock:
                calls["401"] += 1
            return JSONResponse({"detail": "unknown API key"}, status_code=401)
        with lock:
            calls["200"] += 1
        record = {"formula": formula, "band_gap": 1.1, "tenant": tenant, "served_at": time.time()}
        return {"data": [record]}

    return app


class Density(BaseModel):
    formula: str
    density: float


class DensitySearch(BaseModel):
    data: list[Density]


class SlidingLimit:
    """At most ``per_second * window + burst + LIMIT_SLACK`` calls in any sliding *window*."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.bounds = [(w, int(per_second * w + burst + LIMIT_SLACK)) for w in WINDOWS]
        self.times: deque[float] = deque()
        self.lock = threading.Lock()

    def admit(self, now: float) -> bool:
        with self.lock:
            longest = max(w for w, _ in self.bounds)
            while self.times and self.times[0] <= now - longest:
                self.times.popleft()
            for window, bound in self.bounds:
                if sum(1 for t in self.times if t > now - window) + 1 > bound:
                    return False
            self.times.append(now)
            return True


def limited_app(
    per_second: float,
    burst: int,
    calls: Counter[str],
    refused_at: list[float] | None = None,
    arrived_at: list[float] | None = None,
) -> FastAPI:
    """A density search limited to *per_second* calls (bursts of *burst*); 429 beyond it
    (the ``time.monotonic()`` of each 429 appended to *refused_at*, of every call to
    *arrived_at*)."""
    app = FastAPI(title="limited", version="1")
    limit = SlidingLimit(per_second, burst)
    lock = threading.Lock()

    @app.get("/density", operation_id="density", response_model=DensitySearch)
    async def density(formula: str = Query("Si")) -> Any:
        now = time.monotonic()
        admitted = limit.admit(now)
        with lock:
            calls["200" if admitted else "429"] += 1
            if not admitted and refused_at is not None:
                refused_at.append(now)
            if arrived_at is not None:
                arrived_at.append(now)
        if not admitted:
            return JSONResponse({"detail": "rate limit"}, status_code=429, headers={"Retry-After": "1"})
        return {"data": [{"formula": formula, "density": 2.33}]}

    return app
