"""A loopback HTTP double for the outage benchmarks: it answers at once, or it hangs.

While ``hanging`` is false, every GET gets one JSON record at once (HTTP/1.1 keep-alive). While
it is true, the server reads the request and never answers, so each call costs the client its
whole timeout: an overloaded or black-holed backend as the client sees it. Flip ``hanging`` to
start an outage at a known moment. Runs in a daemon thread; use it as a context manager.
"""

from __future__ import annotations

import http.server
import json
import threading

RECORDS = {"data": [{"formula": "Si", "band_gap": 0.61}]}
_BODY = json.dumps(RECORDS).encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once, no delayed-ACK stall

    def do_GET(self) -> None:
        server: LoopbackServer = self.server  # type: ignore[assignment]
        server.count()
        if server.hanging:
            self.close_connection = True
            self.connection.settimeout(30)
            try:
                while self.connection.recv(4096):  # wait for the client to give up
                    pass
            except OSError:
                pass
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(_BODY)))
        self.end_headers()
        self.wfile.write(_BODY)

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet."""


class LoopbackServer(http.server.ThreadingHTTPServer):
    """An HTTP endpoint on 127.0.0.1 that answers ``RECORDS`` or, while ``hanging``, never answers."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, *, hanging: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.hanging = hanging
        self.requests = 0
        self._lock = threading.Lock()
        self.url = f"http://127.0.0.1:{self.server_address[1]}/search"

    def count(self) -> None:
        with self._lock:
            self.requests += 1

    def __enter__(self) -> LoopbackServer:
        threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()


def HangingServer() -> LoopbackServer:
    """A server that hangs from the start."""
    return LoopbackServer(hanging=True)
