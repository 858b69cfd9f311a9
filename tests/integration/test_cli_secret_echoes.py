"""The command line never prints a secret a server echoes, wherever `inspect` puts the echo
(text and ``--json``), and a landscape header that cannot be sent is a configuration error
(exit 2), not a source problem retried in the background. A real loopback HTTP server that
echoes the key it was sent (in the query or a header), JSON-escaped or not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
KEY = "qk/Zx81/PLq-77aa90beef"
TOKEN = "tb-5544XYZWabcdefgh9876"
DOCUMENT = {
    "openapi": "3.1.0",
    "info": {"title": "echo", "version": "1"},
    "paths": {"/s": {"get": {"operationId": "s", "responses": {"200": {"description": "ok"}}}}},
}


class Echo(BaseHTTPRequestHandler):
    """Serves the document until ``server.broken``; then 401 or 503 bodies echo what was sent."""

    def do_GET(self) -> None:
        server = self.server
        if not getattr(server, "broken", False):
            self._answer(200, json.dumps(DOCUMENT))
            return
        sent = parse_qs(urlsplit(self.path).query).get("api_key", [""])[0]
        auth = self.headers.get("authorization", "").removeprefix("Bearer ")
        body = '{"detail": "unknown key ' + sent.replace("/", "\\/") + " and token " + auth + '"}'
        self._answer(getattr(server, "status", 401), body)

    def _answer(self, status: int, body: str) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def landscape(tmp_path: Path, url: str, headers: str = '{ "authorization" = "Bearer ${TOK}" }') -> Path:
    path = tmp_path / "landscape.toml"
    path.write_text(
        f'[tool]\nname = "echo"\n\n[routes.api]\nkind = "openapi"\nurl = "{url}?api_key=${{KEY}}"\n'
        f"headers = {headers}\n"
    )
    return path


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "KEY": KEY, "TOK": TOKEN, **(env or {}), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "schemarouter_integrations", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,  # a bound, not a speed check
    )


def shown(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout + done.stderr


def leaks(text: str) -> list[str]:
    """Every run of 8 characters of the key or the token that *text* shows (JSON-escaped too)."""
    runs = {secret[i : i + 8] for secret in (KEY, TOKEN) for i in range(len(secret) - 7)}
    runs |= {run.replace("/", "\\/") for run in runs}
    return sorted(run for run in runs if run in text)


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_inspect_never_shows_a_key_a_401_body_echoes(
    server: ThreadingHTTPServer, tmp_path: Path, as_json: bool
) -> None:
    server.broken = True  # type: ignore[attr-defined]
    path = landscape(tmp_path, f"http://127.0.0.1:{server.server_port}/openapi.json")
    done = cli("inspect", "--config", str(path), *(["--json"] if as_json else []))
    assert done.returncode == 0, done.stderr
    assert "401" in shown(done)
    assert leaks(shown(done)) == []


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_inspect_never_shows_a_key_echoed_while_a_stored_copy_stands_in(
    server: ThreadingHTTPServer, tmp_path: Path, as_json: bool
) -> None:
    path = landscape(tmp_path, f"http://127.0.0.1:{server.server_port}/openapi.json")
    cache = str(tmp_path / "documents")
    assert cli("validate", "--connect", "--config", str(path), "--document-cache", cache).returncode == 0
    server.broken, server.status = True, 503  # type: ignore[attr-defined]
    done = cli("inspect", "--config", str(path), "--document-cache", cache, *(["--json"] if as_json else []))
    assert done.returncode == 0, done.stderr
    assert "503" in shown(done)  # the copy stands in, and says why
    assert leaks(shown(done)) == []


@pytest.mark.parametrize(
    "value", ["abc\ndef", "abc\r\nX-Injected: 1", "caf\u00e9"], ids=["lf", "crlf", "non-ascii"]
)
def test_a_header_that_cannot_be_sent_is_a_configuration_error(
    server: ThreadingHTTPServer, tmp_path: Path, value: str
) -> None:
    path = landscape(
        tmp_path, f"http://127.0.0.1:{server.server_port}/openapi.json", '{ "x-key" = "${BAD}" }'
    )
    for command in (("validate",), ("validate", "--connect"), ("inspect",)):
        done = cli(*command, "--config", str(path), "--json", env={"BAD": value})
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "x-key" in done.stdout and "retried in the background" not in shown(done)
        assert value not in shown(done)


def test_validate_as_text_masks_an_environment_value_in_any_column(tmp_path: Path) -> None:
    path = tmp_path / "landscape.toml"
    path.write_text(
        '[tool]\nname = "echo"\n\n[routes.api]\nkind = "openapi"\nurl = "https://api.example.org/openapi.json"\n'
        'provider = "p-${KEY}"\n\n[routes.lab]\nkind = "mcp"\ntarget = ["lab-server", "--token", "${TOK}"]\n'
    )
    done = cli("validate", "--config", str(path))
    assert done.returncode == 0, done.stderr
    assert leaks(shown(done)) == [] and "lab-server" in done.stdout


def test_a_value_that_holds_a_reference_is_taken_as_written(tmp_path: Path) -> None:
    path = tmp_path / "landscape.toml"
    path.write_text(
        '[tool]\nname = "echo"\n\n[routes.api]\nkind = "openapi"\n'
        'url = "https://api.example.org/openapi.json"\ndescription = "${OUTER}"\n'
    )
    done = cli("validate", "--config", str(path), "--json", env={"OUTER": "${KEY}"})
    assert done.returncode == 0, done.stderr
    assert leaks(shown(done)) == []  # ${KEY} inside OUTER's value is not read from the environment
