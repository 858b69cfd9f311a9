"""The Materials Project API server (PyPI ``emmet-api``) over an in-memory store, on loopback.

Run by the MP virtual environment's interpreter (see ``environment.py``), never imported by
our package or tests: ``python mp_server.py --port PORT``. It builds
``emmet.api.core.api.MAPI(resources={"materials": [...]}).app`` with every resource factory
that builds, each over its own mongomock collection behind a small async facade (emmet-api
reads *pymongo async* collections, :mod:`mp_store`), fills every collection the questions
touch with real MP documents emmet-core builds from emmet's test data (:mod:`mp_collections`),
and serves the app with uvicorn.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import sys
import time
import warnings
from typing import Any

import mongomock
from mp_collections import collections
from mp_store import AsyncCollection

STARTED = time.monotonic()


def resource_factories() -> list[tuple[str, Any]]:
    """Every ``*_resource`` factory under ``emmet.api.routes.materials``, by module and name."""
    import emmet.api.routes.materials as materials

    found = []
    for info in pkgutil.walk_packages(materials.__path__, materials.__name__ + "."):
        if not info.name.endswith(".resources"):
            continue
        module = importlib.import_module(info.name)
        for name, factory in inspect.getmembers(module, inspect.isfunction):
            if name.endswith("_resource") and factory.__module__ == module.__name__:
                found.append((f"{module.__name__.split('.')[-2]}", factory))
    return found


def build_app() -> Any:
    from emmet.api.core.api import MAPI
    from emmet.api.resource.utils import CollectionWithKey

    database = mongomock.MongoClient()["mp_core"]
    with warnings.catch_warnings():  # emmet-core's serialisation warnings on the test data's dates
        warnings.simplefilter("ignore")
        docs = collections()
    resources: dict[str, list[Any]] = {"materials": []}
    skipped: list[str] = []
    for package, factory in resource_factories():
        collection = AsyncCollection(database[package])
        key = {"thermo": "thermo_id", "xas": "spectrum_id", "synthesis": "doi"}.get(package, "material_id")
        try:
            resource = factory(CollectionWithKey(collection, key))
        except Exception as exc:  # a factory emmet-api itself cannot build
            skipped.append(f"{factory.__name__} ({type(exc).__name__}: {exc})")
            continue
        # MP complete answers /{submission_id}/ at its root: under /materials it would shadow the rest
        resources.setdefault(package if package == "mpcomplete" else "materials", []).append(resource)
    for package, records in docs.items():
        database[package].insert_many(records)
    built = sum(map(len, resources.values()))
    print(f"mp_server: {built} resources built, skipped: {'; '.join(skipped) or 'none'}", flush=True)
    held = ", ".join(f"{name} {len(records)}" for name, records in docs.items())
    print(f"mp_server: documents: {held}", flush=True)
    return MAPI(resources=resources).app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    import uvicorn

    app = build_app()
    print(f"mp_server: app built in {time.monotonic() - STARTED:.1f}s", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    sys.exit(main())
