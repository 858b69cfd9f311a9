"""A loopback server that the real ``langsmith`` client can trace to; it keeps every run.

It answers ``GET /info`` with a complete info document (``batch_ingest_config`` with every key
the client's background thread reads, ``instance_flags``), and ingests runs from all the
client's write paths:

* ``POST /runs/multipart``  multipart/form-data with parts ``post.<id>``, ``patch.<id>``,
  ``post.<id>.inputs|outputs|events|extra|error|serialized``, ``attachment.<id>.<name>``,
  ``feedback.<id>``; optionally ``Content-Encoding: zstd`` (the client compresses when
  ``instance_flags.zstd_compression_enabled`` is true, the default here) or ``gzip``;
* ``POST /runs/batch``      JSON ``{"post": [...], "patch": [...]}`` (used when
  ``batch_ingest_config.use_multipart_endpoint`` is false);
* ``POST /runs`` and ``PATCH /runs/{id}`` (client made with ``auto_batch_tracing=False``).

Runs are merged per id (post first, then patches in arrival order) and read with
``capture.runs`` / ``capture.run(id)`` / ``capture.runs_named(name)``.

Flushing: the client sends from a background thread, so after ``run.post()`` / ``run.patch()``
call ``client.flush()`` (waits for the queue and the compressed buffer), then read
``capture.runs``; ``capture.wait_for_runs(n)`` or :func:`wait_for` covers any remaining race.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from cookbook.services.uvicorn_thread import UvicornThread

T = TypeVar("T")

RUN_PAYLOAD_KEYS = ("inputs", "outputs", "events", "extra", "error", "serialized")


def wait_for(
    predicate: Callable[[], T | None], timeout: float = 10.0, interval: float = 0.05, message: str = ""
) -> T:
    """Poll ``predicate`` until it returns something truthy; return that value.

    Raises ``TimeoutError`` (with ``message``) after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(message or f"condition not met within {timeout}s")
        time.sleep(interval)


def default_info(*, compression: bool = True, multipart: bool = True) -> dict[str, Any]:
    return {
        "version": "0.10.0-capture",
        "license_expiration_time": None,
        "tenant_handle": "capture",
        "batch_ingest_config": {
            "use_multipart_endpoint": multipart,
            "scale_up_qsize_trigger": 1000,
            "scale_up_nthreads_limit": 16,
            "scale_down_nempty_trigger": 4,
            "size_limit": 100,
            "size_limit_bytes": 20_971_520,
        },
        "instance_flags": {
            "zstd_compression_enabled": compression,
            "dataset_examples_multipart_enabled": True,
            "examples_multipart_enabled": True,
            "generate_ai_query_enabled": False,
            "org_creation_disabled": False,
            "show_ttl_ui": False,
            "trace_tier_duration_days": {"longlived": 400, "shortlived": 14},
            "search_enabled": True,
            "workspace_scope_org_invites": False,
        },
    }


def decode_body(body: bytes, content_encoding: str | None) -> bytes:
    """Undo ``Content-Encoding`` (zstd, gzip, deflate; comma-separated lists too)."""
    encodings = [e.strip().lower() for e in (content_encoding or "").split(",") if e.strip()]
    for encoding in reversed(encodings):
        if encoding == "zstd":
            import zstandard

            reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(body), read_across_frames=True)
            body = reader.read()
        elif encoding in ("gzip", "x-gzip"):
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding != "identity":
            raise ValueError(f"unsupported Content-Encoding {encoding!r}")
    return body


@dataclass
class Part:
    name: str
    content_type: str
    data: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.data) if self.data else None


_DISPOSITION_NAME = re.compile(r'name="([^"]*)"')


def parse_multipart(body: bytes, content_type: str) -> list[Part]:
    """Split a multipart/form-data body into :class:`Part` objects."""
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if not match:
        raise ValueError(f"no boundary in content type {content_type!r}")
    delimiter = b"--" + match.group(1).encode()
    parts: list[Part] = []
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break  # closing delimiter
        if chunk.startswith(b"\r\n"):
            chunk = chunk[2:]
        head, sep, data = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        if data.endswith(b"\r\n"):
            data = data[:-2]
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            if key:
                headers[key.strip().lower()] = value.strip()
        name_match = _DISPOSITION_NAME.search(headers.get("content-disposition", ""))
        if not name_match:
            continue
        parts.append(Part(name_match.group(1), headers.get("content-type", ""), data, headers))
    return parts


@dataclass
class CapturedRequest:
    method: str
    path: str
    headers: dict[str, str]
    """Header names lower-cased."""
    body: bytes
    """Decoded body (after Content-Encoding)."""
    status: int = 0


class LangSmithCapture:
    """LangSmith imitation on a loopback thread.

    Attributes and methods tests use:
      ``url``; ``runs`` (list of merged run dicts, in first-seen order); ``run(id)``;
      ``runs_named(name)``; ``root_runs``; ``children_of(run_id)``; ``feedback``;
      ``attachments`` ({run_id: {name: bytes}}); ``requests`` (list of
      :class:`CapturedRequest`); ``info`` (the ``/info`` document, editable);
      ``client(**kw)`` -> ``langsmith.Client``; ``wait_for_runs(n, timeout)``;
      ``reset()``; ``stop()``.

    A merged run has the keys the client sent (``id``, ``name``, ``run_type``, ``trace_id``,
    ``dotted_order``, ``parent_run_id``, ``start_time``, ``end_time``, ``session_name``,
    ``inputs``, ``outputs``, ``events``, ``extra``, ``error``, ``tags``, ...) plus
    ``metadata`` (= ``extra["metadata"]``), ``_ops`` (e.g. ``["post", "patch"]``) and
    ``_paths`` (endpoints it arrived through).
    """

    def __init__(
        self,
        *,
        compression: bool = True,
        multipart: bool = True,
        expected_api_key: str | None = None,
    ) -> None:
        self._info_options = {"compression": compression, "multipart": multipart}
        self.info: dict[str, Any] = default_info(**self._info_options)
        self.expected_api_key = expected_api_key
        self._default_api_key = expected_api_key
        self._lock = threading.Lock()
        self._order: list[str] = []
        self._posts: dict[str, dict[str, Any]] = {}
        self._patches: dict[str, list[dict[str, Any]]] = {}
        self._paths: dict[str, list[str]] = {}
        self._ops: dict[str, list[str]] = {}
        self._requests: list[CapturedRequest] = []
        self._feedback: list[dict[str, Any]] = []
        self._attachments: dict[str, dict[str, bytes]] = {}
        self._clients: list[Any] = []
        self.app = self._build_app()
        self._thread = UvicornThread(self.app, graceful_timeout=1)
        self.url = ""

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> LangSmithCapture:
        self._thread.start()
        self.url = self._thread.url
        return self

    def stop(self) -> None:
        self.close_clients()
        self._thread.stop()

    def close_clients(self, timeout: float = 5.0) -> None:
        """Flush and close every client made by :meth:`client` (stops their threads)."""
        clients, self._clients = self._clients, []
        for client in clients:
            with contextlib.suppress(Exception):
                client.close(timeout=timeout)

    def reset(self) -> None:
        """Close clients, forget runs/requests/feedback, restore the info and expected key."""
        self.close_clients()
        with self._lock:
            self._order.clear()
            self._posts.clear()
            self._patches.clear()
            self._paths.clear()
            self._ops.clear()
            self._requests.clear()
            self._feedback.clear()
            self._attachments.clear()
        self.info = default_info(**self._info_options)
        self.expected_api_key = self._default_api_key

    def __enter__(self) -> LangSmithCapture:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ client

    def client(self, *, wait_ready: bool = True, **kwargs: Any) -> Any:
        """A real ``langsmith.Client`` posting here (``api_key="test-key"``).

        Call ``client.flush()`` before reading :attr:`runs`.  The capture closes the client
        on ``reset()``/``stop()``.  Pass ``auto_batch_tracing=False`` to exercise the
        single-run ``POST /runs`` / ``PATCH /runs/{id}`` endpoints.  With ``wait_ready`` (default)
        it returns once the client's background thread has read ``/info`` (and set up zstd
        compression when the info enables it), so the ingest path taken is deterministic.
        """
        from langsmith import Client

        kwargs.setdefault("api_key", "test-key")
        client = Client(api_url=self.url, **kwargs)
        self._clients.append(client)
        if wait_ready and getattr(client, "tracing_queue", None) is not None:
            self._wait_client_ready(client)
        return client

    def _wait_client_ready(self, client: Any, timeout: float = 5.0) -> None:
        """Let the client's tracing thread fetch ``/info`` and set up compression first.

        Otherwise runs queued in the first milliseconds go out uncompressed, and whether a
        test exercises the zstd path would depend on timing.
        """
        flags = self.info.get("instance_flags") or {}
        bic = self.info.get("batch_ingest_config") or {}
        want_zstd = (
            flags.get("zstd_compression_enabled")
            and bic.get("use_multipart_endpoint", True)
            and os.environ.get("LANGSMITH_DISABLE_RUN_COMPRESSION", "").lower() != "true"
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if getattr(client, "_info", None) is not None and (
                not want_zstd or getattr(client, "compressed_traces", None) is not None
            ):
                return
            time.sleep(0.01)

    # ------------------------------------------------------------------ reading

    @property
    def requests(self) -> list[CapturedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def feedback(self) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(f) for f in self._feedback]

    @property
    def attachments(self) -> dict[str, dict[str, bytes]]:
        with self._lock:
            return {k: dict(v) for k, v in self._attachments.items()}

    @property
    def runs(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self._merged(run_id) for run_id in self._order]

    def run(self, run_id: Any) -> dict[str, Any] | None:
        with self._lock:
            key = str(run_id)
            return self._merged(key) if key in self._posts or key in self._patches else None

    def runs_named(self, name: str) -> list[dict[str, Any]]:
        return [r for r in self.runs if r.get("name") == name]

    @property
    def root_runs(self) -> list[dict[str, Any]]:
        return [r for r in self.runs if not r.get("parent_run_id")]

    def children_of(self, run_id: Any) -> list[dict[str, Any]]:
        return [r for r in self.runs if str(r.get("parent_run_id")) == str(run_id)]

    def wait_for_runs(self, count: int, timeout: float = 10.0, *, ended: bool = True) -> list[dict[str, Any]]:
        """Wait until at least ``count`` runs arrived (and, by default, all have end_time)."""

        def ready() -> list[dict[str, Any]] | None:
            runs = self.runs
            if len(runs) < count:
                return None
            if ended and not all(r.get("end_time") for r in runs):
                return None
            return runs

        return wait_for(ready, timeout, message=f"expected {count} runs, got {self.runs!r}")

    def _merged(self, run_id: str) -> dict[str, Any]:
        merged: dict[str, Any] = {"id": run_id}
        merged.update(self._posts.get(run_id, {}))
        for patch in self._patches.get(run_id, []):
            for key, value in patch.items():
                if value is not None:
                    merged[key] = value
        merged["id"] = run_id
        extra = merged.get("extra") or {}
        merged["metadata"] = extra.get("metadata") if isinstance(extra, dict) else None
        merged["_ops"] = list(self._ops.get(run_id, []))
        merged["_paths"] = list(self._paths.get(run_id, []))
        return merged

    # ------------------------------------------------------------------ ingest

    def _add(self, op: str, run: dict[str, Any], path: str) -> None:
        run_id = str(run.get("id"))
        run = {**run, "id": run_id}
        with self._lock:
            if run_id not in self._order:
                self._order.append(run_id)
            if op == "post":
                self._posts[run_id] = {**self._posts.get(run_id, {}), **run}
            else:
                self._patches.setdefault(run_id, []).append(run)
            self._ops.setdefault(run_id, []).append(op)
            self._paths.setdefault(run_id, []).append(path)

    def _ingest_multipart(self, body: bytes, content_type: str, path: str) -> None:
        grouped: dict[tuple[str, str], dict[str, Any]] = {}
        order: list[tuple[str, str]] = []
        for part in parse_multipart(body, content_type):
            pieces = part.name.split(".")
            if pieces[0] in ("post", "patch") and len(pieces) >= 2:
                key = (pieces[0], pieces[1])
                if key not in grouped:
                    grouped[key] = {"id": pieces[1]}
                    order.append(key)
                if len(pieces) == 2:
                    grouped[key].update(part.json() or {})
                else:
                    grouped[key][pieces[2]] = part.json()
            elif pieces[0] == "feedback":
                with self._lock:
                    self._feedback.append(part.json())
            elif pieces[0] == "attachment" and len(pieces) >= 3:
                with self._lock:
                    self._attachments.setdefault(pieces[1], {})[".".join(pieces[2:])] = part.data
        for op, run_id in order:
            self._add(op, grouped[(op, run_id)], path)

    def _build_app(self) -> FastAPI:
        app = FastAPI(title="LangSmith capture")
        capture = self

        @app.middleware("http")
        async def record(request: Request, call_next: Any) -> Response:
            raw = await request.body()
            try:
                decoded = decode_body(raw, request.headers.get("content-encoding"))
            except Exception as exc:  # keep the request visible to the test
                decoded = raw
                request.state.decode_error = repr(exc)
            entry = CapturedRequest(
                request.method,
                request.url.path,
                {k.lower(): v for k, v in request.headers.items()},
                decoded,
            )
            request.state.decoded_body = decoded
            with capture._lock:
                capture._requests.append(entry)
            key = capture.expected_api_key
            if key is not None and request.headers.get("x-api-key") != key:
                entry.status = 401
                return JSONResponse({"detail": "Invalid API key"}, status_code=401)
            response: Response = await call_next(request)
            entry.status = response.status_code
            return response

        def _body(request: Request) -> bytes:
            error = getattr(request.state, "decode_error", None)
            if error:
                raise ValueError(error)
            body: bytes = request.state.decoded_body
            return body

        @app.get("/info")
        @app.get("/api/v1/info")
        def info() -> Any:
            return capture.info

        @app.post("/runs/multipart")
        @app.post("/api/v1/runs/multipart")
        def runs_multipart(request: Request) -> Any:
            try:
                capture._ingest_multipart(
                    _body(request), request.headers.get("content-type", ""), "/runs/multipart"
                )
            except ValueError as exc:
                return JSONResponse({"detail": str(exc)}, status_code=422)
            return JSONResponse({}, status_code=202)

        @app.post("/runs/batch")
        @app.post("/api/v1/runs/batch")
        def runs_batch(request: Request) -> Any:
            try:
                payload = json.loads(_body(request) or b"{}")
            except ValueError as exc:
                return JSONResponse({"detail": str(exc)}, status_code=422)
            for op in ("post", "patch"):
                for run in payload.get(op) or []:
                    capture._add(op, run, "/runs/batch")
            return JSONResponse({}, status_code=202)

        @app.post("/runs")
        @app.post("/api/v1/runs")
        def create_run(request: Request) -> Any:
            capture._add("post", json.loads(_body(request)), "/runs")
            return JSONResponse({}, status_code=202)

        @app.patch("/runs/{run_id}")
        @app.patch("/api/v1/runs/{run_id}")
        def update_run(run_id: str, request: Request) -> Any:
            capture._add("patch", {**json.loads(_body(request)), "id": run_id}, "/runs/{id}")
            return JSONResponse({}, status_code=202)

        return app
