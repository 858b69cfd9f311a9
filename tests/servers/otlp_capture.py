"""A loopback OTLP/HTTP receiver: records every ``POST /v1/traces`` and decodes its spans."""

from __future__ import annotations

import gzip
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest


class OtlpCapture:
    """``url`` is the traces endpoint; ``bodies`` the raw (decoded) request bodies; ``spans``
    the decoded protobuf spans of every request, in arrival order."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        capture = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                if self.headers.get("content-encoding") == "gzip":
                    body = gzip.decompress(body)
                with capture._lock:
                    capture.bodies.append(body)
                    capture.paths.append(self.path)
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1/traces"

    def start(self) -> OtlpCapture:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def spans(self) -> list[Any]:
        with self._lock:
            bodies = list(self.bodies)
        out: list[Any] = []
        for body in bodies:
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    out.extend(scope.spans)
        return out


def attribute_map(span: Any) -> dict[str, Any]:
    """A protobuf span's attributes as a plain dict (string, int, bool, double, string arrays)."""
    out: dict[str, Any] = {}
    for kv in span.attributes:
        value = kv.value
        kind = value.WhichOneof("value")
        if kind == "array_value":
            out[kv.key] = [v.string_value for v in value.array_value.values]
        else:
            out[kv.key] = getattr(value, kind) if kind else None
    return out
