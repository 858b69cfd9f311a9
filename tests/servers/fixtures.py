"""Pytest plugin: real loopback servers for the integration tests.

Enabled by ``pytest_plugins = ["tests.servers.fixtures"]`` in ``tests/conftest.py``.

=========================  ========  =====================================================
fixture                    scope     value
=========================  ========  =====================================================
materials_api_server       session   :class:`MaterialsApiServer` (not reset between tests)
materials_api              function  the same server, reset before and after the test
                                     (no faults, empty request log, default records,
                                     no API key)
refused_url                function  ``"http://127.0.0.1:PORT"``: port held bound but not
                                     listening, so connecting is refused
fault_server               module    :class:`FaultServer` (raw sockets; one route per fault,
                                     registered by the test with ``route(name, fault)``)
full_backlog               module    :class:`FullBacklogPort`: a listener whose accept queue
                                     is full, so connecting times out
optimade_server            session   :class:`OptimadeServer` (reference server subprocess)
redis_server               function  fresh :class:`RedisServer` (skip locally / fail in CI
                                     when redis-server is missing)
langsmith_capture_server   session   :class:`LangSmithCapture` (not reset between tests)
langsmith_capture          function  the same capture, reset before and after the test
                                     (clients closed, runs/requests forgotten)
=========================  ========  =====================================================
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers.fault_server import FaultServer, FullBacklogPort
from tests.servers.langsmith_capture import LangSmithCapture
from tests.servers.materials_api import MaterialsApiServer
from tests.servers.optimade_server import OptimadeServer
from tests.servers.redis_server import RedisServer, require_redis_server
from tests.servers.uvicorn_thread import RefusedPort


@pytest.fixture(scope="session")
def materials_api_server() -> Iterator[MaterialsApiServer]:
    server = MaterialsApiServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def materials_api(materials_api_server: MaterialsApiServer) -> Iterator[MaterialsApiServer]:
    materials_api_server.reset()
    try:
        yield materials_api_server
    finally:
        materials_api_server.reset()


@pytest.fixture
def refused_url() -> Iterator[str]:
    with RefusedPort() as port:
        yield port.url


@pytest.fixture(scope="module")
def fault_server() -> Iterator[FaultServer]:
    with FaultServer() as server:
        yield server


@pytest.fixture(scope="module")
def full_backlog() -> Iterator[FullBacklogPort]:
    with FullBacklogPort() as port:
        yield port


@pytest.fixture(scope="session")
def optimade_server() -> Iterator[OptimadeServer]:
    server = OptimadeServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    binary = require_redis_server()
    server = RedisServer(binary).start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def langsmith_capture_server() -> Iterator[LangSmithCapture]:
    capture = LangSmithCapture().start()
    try:
        yield capture
    finally:
        capture.stop()


@pytest.fixture
def langsmith_capture(
    langsmith_capture_server: LangSmithCapture,
) -> Iterator[LangSmithCapture]:
    langsmith_capture_server.reset()
    try:
        yield langsmith_capture_server
    finally:
        langsmith_capture_server.reset()
