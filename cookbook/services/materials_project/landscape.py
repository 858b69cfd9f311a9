"""The Materials Project reached three ways, plus OQMD, on the real software, on loopback.

::

    with MPLandscape() as landscape:            # 20-120 s, the MP API server's start-up
        router = await landscape.build_router()
        landscape.set_fault("hang")             # pass | 503 | hang | refuse

* ``mp_api``: the MP API server itself (PyPI ``emmet-api``, :mod:`.server`), read from its
  own ``/openapi.json``, behind a :class:`~.proxy.FaultProxy`;
* ``mp_python``: the MP Python client (PyPI ``mp-api``'s ``MPRester``, :mod:`.client`)
  pointed at the same proxy, so it shares the REST API's origin;
* ``mp_optimade``: the OPTIMADE reference server as MP's OPTIMADE (:mod:`.optimade`);
* ``oqmd``: the OPTIMADE reference server as OQMD (another provider).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cookbook.services.materials_project.client import MPClient
from cookbook.services.materials_project.optimade import MP_OPTIMADE
from cookbook.services.materials_project.proxy import FaultProxy, Mode
from cookbook.services.materials_project.server import MPServer
from cookbook.services.optimade_server import OptimadeServer, start_all
from cookbook.services.uvicorn_thread import LOOPBACK
from schemarouter_integrations import FieldSpec, SchemaRouter

MP_OPERATIONS = [
    "search_materials_summary__get",
    "search_materials_electronic_structure__get",
    "search_materials_thermo__get",
]
"""The operationIds emmet-api gives ``GET /materials/summary/``, ``/electronic_structure/``, ``/thermo/``."""

CALL_TIMEOUT_SECONDS = 2.0
"""Each HTTP call's timeout (the MP server's document takes seconds to build: it has its own)."""

PYTHON_FIELDS = [
    FieldSpec(name="material_id", identity=True, description="Materials Project id (mp-...)."),
    FieldSpec(name="formula_pretty", aliases=["formula"], identity=True, description="Reduced formula."),
    FieldSpec(name="elements", description="Elements in the material."),
    FieldSpec(name="nsites", description="Number of sites in the unit cell."),
    FieldSpec(name="band_gap", description="Band gap energy in eV."),
    FieldSpec(name="is_gap_direct", description="Whether the band gap is direct."),
    FieldSpec(name="is_metal", description="Whether the material is a metal."),
    FieldSpec(name="energy_above_hull", description="Energy above the convex hull in eV/atom."),
    FieldSpec(name="formation_energy_per_atom", description="Formation energy in eV/atom."),
    FieldSpec(name="is_stable", description="Whether the material is on the convex hull (stable)."),
]
"""What ``mp_python`` returns (:data:`.client.SUMMARY_FIELDS`), described."""


class MPLandscape:
    """Start the MP API server (behind a fault proxy) and two OPTIMADE servers; stop them."""

    def __init__(
        self, *, client_timeout: float = CALL_TIMEOUT_SECONDS, call_timeout: float = CALL_TIMEOUT_SECONDS
    ) -> None:
        """*call_timeout*: each route's call timeout in :meth:`build_router` (the evaluation,
        which measures reading rather than latency, gives a loaded machine more time)."""
        self.mp_server = MPServer()
        self.mp_optimade = OptimadeServer(provider=MP_OPTIMADE)
        self.oqmd = OptimadeServer()
        self.proxy: FaultProxy | None = None
        self.client_timeout = client_timeout
        self.call_timeout = call_timeout
        self.client: MPClient | None = None

    @property
    def mp_url(self) -> str:
        """The MP API as its clients see it: the proxy's URL (the origin of mp_api and mp_python)."""
        assert self.proxy is not None, "start() first"
        return self.proxy.url

    def set_fault(self, mode: Mode) -> None:
        """Make the MP API answer normally (``pass``), 503, hang, or refuse connections."""
        assert self.proxy is not None, "start() first"
        self.proxy.set_mode(mode)

    def start(self) -> MPLandscape:
        try:
            with ThreadPoolExecutor(max_workers=1) as pool:
                optimade = pool.submit(start_all, [self.mp_optimade, self.oqmd])
                self.mp_server.start()
                optimade.result()
            self.proxy = FaultProxy(LOOPBACK, self.mp_server.port).start()
            self.client = MPClient(self.proxy.url, timeout=self.client_timeout)
            self.client.rester()  # importing mp-api and constructing MPRester take seconds: not in a call
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for server in (self.mp_server, self.mp_optimade, self.oqmd):
            server.stop()

    def __enter__(self) -> MPLandscape:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    async def build_router(
        self,
        *,
        routes: Sequence[str] = ("mp_api", "mp_optimade", "mp_python", "oqmd"),
        document_timeout_seconds: float | None = 30.0,
        python_options: dict[str, Any] | None = None,
        operations: Sequence[str] | None = tuple(MP_OPERATIONS),
        **router_options: Any,
    ) -> SchemaRouter:
        """A router over the landscape (the proxy in ``pass`` mode while the documents are read).

        ``document_timeout_seconds=None`` leaves the router's own default for the MP document.
        ``operations`` are the MP API operations registered (:data:`MP_OPERATIONS` by default;
        ``None``: every operation of the document, as a user registering it would).
        ``python_options`` go to ``add_callable`` for ``mp_python`` (e.g. ``unavailable_on``).
        """
        assert self.client is not None, "start() first"
        router = SchemaRouter(**router_options)
        if "mp_api" in routes:
            document: dict[str, Any] = {}
            if operations is not None:
                document["operations"] = list(operations)
            if document_timeout_seconds is not None:
                document["document_timeout_seconds"] = document_timeout_seconds
            await router.add_url(
                f"{self.mp_url}/openapi.json",
                kind="openapi",
                name="mp_api",
                provider="materials_project",
                timeout_seconds=self.call_timeout,
                **document,
            )
        if "mp_optimade" in routes:
            await router.add_url(
                self.mp_optimade.url,
                kind="optimade",
                name="mp_optimade",
                provider="materials_project",
                timeout_seconds=self.call_timeout,
            )
        if "mp_python" in routes:
            router.add_callable(
                self.client.summary_search,
                name="mp_python",
                provider="materials_project",
                read_only=True,
                origin=self.mp_url,
                fields=PYTHON_FIELDS,
                timeout_seconds=2 * self.call_timeout,
                **(python_options or {}),
            )
        if "oqmd" in routes:
            await router.add_url(
                self.oqmd.url,
                kind="optimade",
                name="oqmd",
                provider="oqmd",
                timeout_seconds=self.call_timeout,
            )
        return router
