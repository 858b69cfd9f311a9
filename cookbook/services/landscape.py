"""The offline landscape of ``cookbook/landscapes/local.toml``: three providers on loopback.

>>> with LocalLandscape() as services:          # sets MP_API_URL, MP_API_KEY, OQMD_URL, ...
...     router = await SchemaRouter.from_config(services.config_path)

* ``api``: the Materials-Project-like REST API (``materials_api.py``), key ``MP_API_KEY``;
* ``oqmd``: the OPTIMADE reference server playing OQMD (``_oqmd_band_gap``);
* ``alexandria``: the same server playing Alexandria (``_alexandria_band_gap``).

The two OPTIMADE servers start in parallel (about 3 s on the 2-core machine).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cookbook.services.materials_api import MaterialsApiServer
from cookbook.services.optimade_server import ALEXANDRIA, OptimadeServer

__all__ = ["LOCAL_LANDSCAPE", "LocalLandscape"]

LOCAL_LANDSCAPE = Path(__file__).resolve().parent.parent / "landscapes" / "local.toml"


class LocalLandscape:
    """Start the three services, export their URLs (and the API key), stop them again."""

    def __init__(self, *, api_key: str = "demo-secret", optimade: bool = True) -> None:
        self.api = MaterialsApiServer(api_key=api_key)
        self.api_key = api_key
        self.oqmd = OptimadeServer() if optimade else None
        self.alexandria = OptimadeServer(provider=ALEXANDRIA) if optimade else None
        self.config_path = LOCAL_LANDSCAPE
        self._saved: dict[str, str | None] = {}

    @property
    def env(self) -> dict[str, str]:
        """The variables the landscape file reads."""
        env = {"MP_API_URL": self.api.url, "MP_API_KEY": self.api_key}
        if self.oqmd is not None and self.alexandria is not None:
            env |= {"OQMD_URL": self.oqmd.url, "ALEXANDRIA_URL": self.alexandria.url}
        return env

    def start(self) -> LocalLandscape:
        optimade = [s for s in (self.oqmd, self.alexandria) if s is not None]
        with ThreadPoolExecutor(max_workers=3) as pool:
            started = [pool.submit(server.start) for server in (self.api, *optimade)]
            for future in started:
                future.result()
        for name, value in self.env.items():
            self._saved.setdefault(name, os.environ.get(name))
            os.environ[name] = value
        return self

    def stop(self) -> None:
        for server in (self.oqmd, self.alexandria):
            if server is not None:
                server.stop()
        self.api.stop()
        for name, value in self._saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self._saved.clear()

    def __enter__(self) -> LocalLandscape:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
