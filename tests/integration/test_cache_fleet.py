"""A fleet on one real redis-server: 4 worker processes asking 100 identical questions each
make a handful of upstream calls, and a shared ``RateLimit(20)`` meets no 429 from a loopback
server that refuses more than 20 requests a second."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.servers.redis_server import RedisServer

pytestmark = [pytest.mark.integration, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]
WORKERS = 4


class Upstream(ThreadingHTTPServer):
    """Counts requests; answers after ``delay``; with ``per_second`` set, a token bucket of
    that rate and burst answers 429 when empty. The bucket holds ``jitter`` tokens more than
    the burst: the time between a worker's reservation on Redis and its request's arrival
    varies by up to a few hundred milliseconds on a loaded 2-core machine (5 tokens = 250 ms
    at 20/s), and that scheduling jitter is not the fleet going faster than 20 a second."""

    daemon_threads = True

    def __init__(self, delay: float = 0.0, per_second: float | None = None, jitter: float = 5.0) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.delay, self.per_second = delay, per_second
        self.capacity = (per_second or 0) + jitter
        self.tokens, self.stamp = self.capacity, time.monotonic()
        self.lock = threading.Lock()
        self.requests = 0
        self.refused = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def admit(self) -> bool:
        with self.lock:
            self.requests += 1
            if self.per_second is None:
                return True
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.per_second)
            self.stamp = now
            if self.tokens >= 1:
                self.tokens -= 1
                return True
            self.refused += 1
            return False


class _Handler(BaseHTTPRequestHandler):
    server: Upstream

    def do_GET(self) -> None:
        formula = parse_qs(urlsplit(self.path).query).get("formula", ["?"])[0]
        if formula == "warm":
            body, status = json.dumps({"formula": formula, "band_gap": 0.0}), 200
        elif not self.server.admit():
            body, status = "{}", 429
        else:
            time.sleep(self.server.delay)
            body, status = json.dumps({"formula": formula, "band_gap": 1.1}), 200
        data = body.encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.fixture
def upstream_factory() -> Iterator[Any]:
    started: list[Upstream] = []

    def start(**options: Any) -> Upstream:
        server = Upstream(**options)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.shutdown()
        server.server_close()


def run_fleet(*args: str) -> list[dict[str, Any]]:
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.cache_fleet", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for _ in range(WORKERS)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:  # every worker starts at once
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outputs = []
        for proc in procs:
            out, _ = proc.communicate(timeout=120)
            assert proc.returncode == 0
            outputs.append(json.loads(out.strip().splitlines()[-1]))
        return outputs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


def test_a_fleet_asking_one_question_makes_a_handful_of_upstream_calls(
    redis_server: RedisServer, upstream_factory: Any
) -> None:
    upstream = upstream_factory(delay=0.5)
    outputs = run_fleet("coalesce", redis_server.url, upstream.url, f"cache-{uuid.uuid4().hex[:8]}")
    answered = sum(sum(v for k, v in out.items() if k in ("cached", "called")) for out in outputs)
    print(f"fleet of {WORKERS}: {answered} answers, {upstream.requests} upstream calls, {outputs}")
    assert answered == WORKERS * 100, outputs
    assert 1 <= upstream.requests <= WORKERS, (upstream.requests, outputs)


def test_a_shared_rate_limit_keeps_a_fleet_under_the_providers_limit(
    redis_server: RedisServer, upstream_factory: Any
) -> None:
    upstream = upstream_factory(per_second=20.0)
    outputs = run_fleet("ratelimit", redis_server.url, upstream.url, f"rl-{uuid.uuid4().hex[:8]}", "4")
    answered = sum(out.get("answered", 0) for out in outputs)
    print(f"fleet of {WORKERS}: {upstream.requests} requests in 4 s, {upstream.refused} refused, {outputs}")
    assert upstream.refused == 0, (upstream.refused, upstream.requests, outputs)
    assert sum(out.get("met_429", 0) for out in outputs) == 0
    assert answered >= 40, outputs  # the limit let the fleet work at about 20 a second
    assert upstream.requests <= 20 + 20 * 4 + 5, upstream.requests  # burst + 4 s at 20/s
