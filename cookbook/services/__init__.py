"""Loopback services for the cookbook and the tests; nothing here needs the network.

* ``materials_api``: a Materials-Project-like REST API (FastAPI) with injectable faults;
* ``optimade_server``: the real OPTIMADE reference server in a subprocess, as an OQMD-like
  (``_oqmd_band_gap``) or Alexandria-like (``_alexandria_band_gap``) provider;
* ``langsmith_capture``: a server the real ``langsmith`` client traces to;
* ``redis_server``: a throwaway ``redis-server`` on a free port;
* ``uvicorn_thread``: serve any ASGI app on a background thread.

They need the dev dependency group (``pip install -e ".[all]" --group dev``), not the package itself.
``tests/servers/`` keeps aliases of these modules for the tests.
"""
