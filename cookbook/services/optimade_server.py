"""Run the real OPTIMADE reference server (optimade-python-tools) offline, as a provider double.

``OptimadeServer()`` plays OQMD (``_oqmd_*`` fields); ``OptimadeServer(provider=ALEXANDRIA)``
plays Alexandria (``_alexandria_band_gap``, ``_alexandria_scan_band_gap``,
``_alexandria_hull_distance``, standard ``chemical_formula_reduced``).

The server runs in a subprocess (``python -m uvicorn optimade.server.main:app``) with the
in-memory mongomock backend, configured through a JSON file named by ``OPTIMADE_CONFIG_FILE``.
Its data are the structures in ``cookbook/services/data/oqmd_structures.jsonl`` (see
:mod:`cookbook.services.optimade_data`); the provider prefix is ``oqmd`` and the provider fields
``_oqmd_band_gap``, ``_oqmd_stability`` and ``_oqmd_delta_e`` are declared with descriptions,
types and units, so ``/v1/info/structures`` lists them.

Nothing here needs the network: ``insert_test_data`` is off (it would fetch the providers
list), ``license`` is unset (its validator does a HEAD request).

For the federation tests each server can be another database (``prefix``, ``provider_fields``
and ``structures`` of its own), and ``index_links=`` runs the reference index meta-database
(``optimade.server.main_index:app``, through :mod:`cookbook.services.optimade_index_app`, which
keeps it offline) serving those links under ``/v1/links``. :func:`start_all` starts several
servers at once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from cookbook.services.optimade_data import (
    STRUCTURES_JSONL,
    build_alexandria_structures,
    build_structures,
    write_jsonl,
)
from cookbook.services.uvicorn_thread import LOOPBACK, free_port

ROOT = Path(__file__).resolve().parents[2]

PROVIDER_PREFIX = "oqmd"
PROVIDER_NAME = "OQMD test double"

PROVIDER_FIELDS: list[dict[str, Any]] = [
    {
        "name": "band_gap",
        "type": "float",
        "unit": "eV",
        "description": "Band gap of the structure computed with PBE (GGA+U where applied).",
    },
    {
        "name": "stability",
        "type": "float",
        "unit": "eV/atom",
        "description": "Distance from the OQMD convex hull (0 means on the hull).",
    },
    {
        "name": "delta_e",
        "type": "float",
        "unit": "eV/atom",
        "description": "Formation energy per atom relative to the elemental references.",
    },
]

PREFIXED_PROVIDER_FIELDS = tuple(f"_{PROVIDER_PREFIX}_{f['name']}" for f in PROVIDER_FIELDS)
"""``("_oqmd_band_gap", "_oqmd_stability", "_oqmd_delta_e")``"""


@dataclass(frozen=True)
class ProviderDouble:
    """Who the reference server pretends to be: prefix, name, provider fields and records."""

    prefix: str
    name: str
    description: str
    fields: list[dict[str, Any]]
    structures: Callable[[], list[dict[str, Any]]]

    @property
    def prefixed_fields(self) -> tuple[str, ...]:
        return tuple(f"_{self.prefix}_{f['name']}" for f in self.fields)


OQMD = ProviderDouble(
    PROVIDER_PREFIX,
    PROVIDER_NAME,
    "Loopback stand-in for the OQMD OPTIMADE API, used in tests.",
    PROVIDER_FIELDS,
    build_structures,
)
ALEXANDRIA = ProviderDouble(
    "alexandria",
    "Alexandria test double",
    "Loopback stand-in for the Alexandria OPTIMADE API (PBE), used in the demo and tests.",
    [
        {"name": "band_gap", "type": "float", "unit": "eV", "description": "PBE band gap."},
        {"name": "scan_band_gap", "type": "float", "unit": "eV", "description": "SCAN band gap."},
        {
            "name": "hull_distance",
            "type": "float",
            "unit": "eV/atom",
            "description": "Distance to the convex hull.",
        },
    ],
    build_alexandria_structures,
)


def optimade_config(
    base_url: str,
    jsonl_path: Path | None,
    log_dir: Path,
    *,
    prefix: str = PROVIDER_PREFIX,
    name: str = PROVIDER_NAME,
    provider_fields: list[dict[str, Any]] | None = None,
    index_links_path: Path | None = None,
    request_delay: float | None = None,
) -> dict[str, Any]:
    """The ServerConfig document (keys from ``optimade/server/config.py``)."""
    config: dict[str, Any] = {
        "debug": False,
        "database_backend": "mongomock",
        "insert_test_data": index_links_path is not None,  # the index inserts its links only then
        "insert_from_jsonl": str(jsonl_path) if jsonl_path is not None else None,
        "create_default_index": False,
        "base_url": base_url,
        "log_dir": str(log_dir),
        "log_level": "warning",
        "page_limit": 20,
        "page_limit_max": 500,
        "validate_query_parameters": True,
        "validate_api_response": True,
        "provider": {
            "prefix": prefix,
            "name": name,
            "description": f"Loopback stand-in for the {name} OPTIMADE API, used in tests.",
            "homepage": None,
        },
        "provider_fields": {"structures": PROVIDER_FIELDS if provider_fields is None else provider_fields},
    }
    if index_links_path is not None:
        config["index_links_path"] = str(index_links_path)
    if request_delay is not None:
        config["request_delay"] = request_delay
    return config


class OptimadeServer:
    """The reference server in a subprocess on a free loopback port.

    Attributes: ``url`` (``http://127.0.0.1:PORT``, unversioned base), ``v1_url``
    (``url + "/v1"``), ``port``, ``config`` (dict written to ``config_path``), ``structures``
    (the records served, as in the JSONL), ``startup_seconds``, ``provider_fields``
    (prefixed names).
    """

    def __init__(
        self,
        *,
        startup_timeout: float = 300.0,  # a bound on polling for readiness: generous for a loaded machine
        jsonl_path: Path | None = None,
        prefix: str = PROVIDER_PREFIX,
        name: str = PROVIDER_NAME,
        provider_fields: list[dict[str, Any]] | None = None,
        structures: list[dict[str, Any]] | None = None,
        index_links: list[dict[str, Any]] | None = None,
        request_delay: float | None = None,
        provider: ProviderDouble | None = None,
    ) -> None:
        if provider is not None and provider is not OQMD:  # a named double sets all four
            prefix, name, provider_fields = provider.prefix, provider.name, provider.fields
            structures = provider.structures() if structures is None else structures
        self.startup_timeout = startup_timeout
        if jsonl_path is None and structures is None and index_links is None:
            jsonl_path = STRUCTURES_JSONL
            if not jsonl_path.is_file():
                write_jsonl(jsonl_path)
        self.jsonl_path = jsonl_path
        self.structures = build_structures() if structures is None else structures
        fields = PROVIDER_FIELDS if provider_fields is None else provider_fields
        self._provider_fields = fields
        self.provider_fields = tuple(f"_{prefix}_{f['name']}" for f in fields)
        self.prefix = prefix
        self.name = name
        self._custom_structures = structures
        self.index_links = index_links
        self.request_delay = request_delay
        self._started = 0.0
        self._tmp: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_file: Any = None
        self.port = 0
        self.url = ""
        self.config: dict[str, Any] = {}
        self.config_path: Path | None = None
        self.startup_seconds: float | None = None

    @property
    def v1_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def output_path(self) -> Path:
        assert self._tmp is not None
        return self._tmp / "server-output.log"

    def output(self) -> str:
        """Everything the subprocess wrote to stdout/stderr so far."""
        try:
            return self.output_path.read_text(errors="replace")
        except (OSError, AssertionError):
            return ""

    def start(self) -> OptimadeServer:
        self._tmp = Path(tempfile.mkdtemp(prefix="optimade-test-"))
        last_error: Exception | None = None
        for _attempt in range(3):  # a freshly picked port can, rarely, be taken meanwhile
            try:
                self._start_once()
                return self
            except _PortTaken as exc:
                last_error = exc
        raise RuntimeError(f"could not start the OPTIMADE server: {last_error}")

    def _start_once(self) -> None:
        self._launch()
        self._wait()

    def _launch(self) -> None:
        if self._tmp is None:
            self._tmp = Path(tempfile.mkdtemp(prefix="optimade-test-"))
        self.port = free_port()
        self.url = f"http://{LOOPBACK}:{self.port}"
        log_dir = self._tmp / "logs"
        log_dir.mkdir(exist_ok=True)
        jsonl = self.jsonl_path.resolve() if self.jsonl_path is not None else None
        if self._custom_structures is not None:
            jsonl = write_jsonl(self._tmp / "structures.jsonl", self._custom_structures)
        links_path = None
        if self.index_links is not None:
            links_path = self._tmp / "index_links.json"
            links_path.write_text(json.dumps(self.index_links, indent=2))
        self.config = optimade_config(
            self.url,
            jsonl,
            log_dir,
            prefix=self.prefix,
            name=self.name,
            provider_fields=self._provider_fields,
            index_links_path=links_path,
            request_delay=self.request_delay,
        )
        self.config_path = self._tmp / "optimade_config.json"
        self.config_path.write_text(json.dumps(self.config, indent=2))
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("OPTIMADE_")}
        env["OPTIMADE_CONFIG_FILE"] = str(self.config_path)
        env["PYTHONUNBUFFERED"] = "1"
        self._log_file = open(self.output_path, "wb")  # noqa: SIM115 - closed in stop()
        self._started = time.monotonic()
        app = (
            "cookbook.services.optimade_index_app:app"
            if self.index_links is not None
            else "optimade.server.main:app"
        )
        self._proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                app,
                "--host",
                LOOPBACK,
                "--port",
                str(self.port),
                "--log-level",
                "warning",
                "--no-access-log",
            ],
            cwd=self._tmp,
            env={**env, "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])},
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )

    def _wait(self) -> None:
        assert self._proc is not None
        started = self._started
        deadline = started + self.startup_timeout
        with httpx.Client(timeout=2.0) as client:
            while True:
                code = self._proc.poll()
                if code is not None:
                    out = self.output()
                    self._cleanup_process()
                    if "address already in use" in out.lower():
                        raise _PortTaken(out)
                    raise RuntimeError(f"OPTIMADE server exited with code {code} during start-up:\n{out}")
                try:
                    if client.get(f"{self.v1_url}/info").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    out = self.output()
                    self.stop()
                    raise TimeoutError(
                        f"OPTIMADE server did not answer /v1/info within "
                        f"{self.startup_timeout:.0f}s; its output:\n{out}"
                    )
                time.sleep(0.1)
        self.startup_seconds = time.monotonic() - started

    def _cleanup_process(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def stop(self) -> None:
        self._cleanup_process()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> OptimadeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _PortTaken(RuntimeError):
    pass


def start_all(servers: list[OptimadeServer]) -> list[OptimadeServer]:
    """Start *servers* at once (each is a subprocess) and wait until every one answers."""
    try:
        for server in servers:
            server._launch()
        for server in servers:
            try:
                server._wait()
            except _PortTaken:
                server.start()
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers
