"""The Materials Project API server (PyPI ``emmet-api``) over an in-memory store, on loopback.

Run by the MP virtual environment's interpreter (see ``environment.py``), never imported by
our package or tests: ``python mp_server.py --port PORT``. It builds
``emmet.api.core.api.MAPI(resources={"materials": [...]}).app`` with every resource factory
that builds, each over its own mongomock collection behind a small async facade (emmet-api
reads *pymongo async* collections), fills the summary and electronic-structure
collections with documents made by emmet-core from pymatgen structures, and serves the app
with uvicorn. The values are illustrative, close to the public ones.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import sys
import time
from typing import Any

import mongomock

STARTED = time.monotonic()


class AsyncCursor:
    """The result of ``aggregate``: what emmet-api reads with ``await cursor.to_list()``."""

    def __init__(self, documents: list[dict[str, Any]]) -> None:
        self._documents = documents

    async def to_list(self, length: int | None = None) -> list[dict[str, Any]]:
        return self._documents if length is None else self._documents[:length]


_SERVER_ONLY = ("maxTimeMS", "max_time_ms", "hint", "comment", "allowDiskUse")


def _local(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Options mongomock does not know (server-side time limits, index hints) dropped."""
    return {k: v for k, v in kwargs.items() if k not in _SERVER_ONLY}


class AsyncCollection:
    """The few ``pymongo.asynchronous.collection.AsyncCollection`` methods emmet-api awaits."""

    def __init__(self, collection: Any) -> None:
        self._collection = collection
        self.name = collection.name

    async def find_one(self, filter: Any = None, *args: Any, **kwargs: Any) -> Any:
        return self._collection.find_one(filter, *args, **_local(kwargs))

    async def count_documents(self, filter: Any, **kwargs: Any) -> int:
        return int(self._collection.count_documents(filter, **_local(kwargs)))

    async def estimated_document_count(self, **kwargs: Any) -> int:
        return int(self._collection.estimated_document_count())

    async def aggregate(self, pipeline: list[dict[str, Any]], **kwargs: Any) -> AsyncCursor:
        return AsyncCursor(list(self._collection.aggregate(pipeline, **_local(kwargs))))

    async def distinct(self, key: str, filter: Any = None, **kwargs: Any) -> list[Any]:
        return list(self._collection.distinct(key, filter))

    async def update_one(self, filter: Any, update: Any, **kwargs: Any) -> Any:
        return self._collection.update_one(filter, update, **_local(kwargs))

    async def insert_many(self, documents: list[dict[str, Any]], **kwargs: Any) -> Any:
        return self._collection.insert_many(documents)


# material_id, formula, structure recipe, band gap (eV), formation energy (eV/atom),
# energy above hull (eV/atom), magnetic
MATERIALS: list[tuple[str, str, str, float, float, float, bool]] = [
    ("mp-149", "Si", "diamond", 0.61, 0.0, 0.0, False),
    ("mp-2534", "GaAs", "zincblende", 1.52, -0.46, 0.0, False),
    ("mp-2172", "AlAs", "zincblende", 1.51, -0.63, 0.0, False),
    ("mp-804", "GaN", "wurtzite", 1.74, -0.67, 0.0, False),
    ("mp-22862", "NaCl", "rocksalt", 5.0, -2.11, 0.0, False),
    ("mp-1265", "MgO", "rocksalt", 4.45, -3.05, 0.0, False),
    ("mp-13", "Fe", "bcc", 0.0, 0.0, 0.0, True),
    ("mp-19770", "Fe2O3", "corundum", 2.04, -1.71, 0.013, True),
]
LATTICE = {"Si": 5.469, "GaAs": 5.75, "AlAs": 5.73, "NaCl": 5.69, "MgO": 4.26, "Fe": 2.84}


def structure_of(formula: str, recipe: str) -> Any:
    """A pymatgen structure for the textbook prototype *recipe*."""
    from pymatgen.core import Lattice, Structure
    from pymatgen.core.composition import Composition

    elements = [el.symbol for el in Composition(formula).elements]
    if recipe == "diamond":
        return Structure.from_spacegroup("Fd-3m", Lattice.cubic(LATTICE[formula]), elements, [[0, 0, 0]])
    if recipe == "zincblende":
        return Structure.from_spacegroup(
            "F-43m", Lattice.cubic(LATTICE[formula]), elements, [[0, 0, 0], [0.25, 0.25, 0.25]]
        )
    if recipe == "rocksalt":
        return Structure.from_spacegroup(
            "Fm-3m", Lattice.cubic(LATTICE[formula]), elements, [[0, 0, 0], [0.5, 0.5, 0.5]]
        )
    if recipe == "bcc":
        return Structure.from_spacegroup("Im-3m", Lattice.cubic(LATTICE[formula]), elements, [[0, 0, 0]])
    if recipe == "wurtzite":
        return Structure.from_spacegroup(
            "P6_3mc", Lattice.hexagonal(3.19, 5.19), ["Ga", "N"], [[1 / 3, 2 / 3, 0], [1 / 3, 2 / 3, 0.377]]
        )
    if recipe == "corundum":
        return Structure.from_spacegroup(
            "R-3c", Lattice.hexagonal(5.04, 13.75), ["Fe", "O"], [[0, 0, 0.3553], [0.3059, 0, 0.25]]
        )
    raise ValueError(recipe)


def _served(doc: Any, material_id: str) -> dict[str, Any]:
    """A document as the live database holds it: visible (not deprecated, licensed BY-C).

    ``material_id`` is set again after dumping: emmet-core writes its own id format.
    """
    record: dict[str, Any] = doc.model_dump(mode="json")
    record["material_id"] = material_id
    record["deprecated"] = False
    record.setdefault("builder_meta", {})
    record["builder_meta"] = {**(record["builder_meta"] or {}), "license": "BY-C"}
    return record


def documents() -> dict[str, list[dict[str, Any]]]:
    """Summary and electronic-structure documents for :data:`MATERIALS`."""
    from emmet.core.electronic_structure import ElectronicStructureDoc
    from emmet.core.summary import SummaryDoc

    summary: list[dict[str, Any]] = []
    electronic: list[dict[str, Any]] = []
    for material_id, formula, recipe, gap, formation, hull, magnetic in MATERIALS:
        structure = structure_of(formula, recipe)
        energy = formation - 5.0
        common: dict[str, Any] = {"material_id": material_id, "deprecated": False}
        summary_doc = SummaryDoc.from_structure(
            meta_structure=structure,
            band_gap=gap,
            is_metal=gap == 0.0,
            is_gap_direct=formula in {"GaAs", "GaN"},
            formation_energy_per_atom=formation,
            energy_above_hull=hull,
            is_stable=hull == 0.0,
            energy_per_atom=energy,
            uncorrected_energy_per_atom=energy,
            is_magnetic=magnetic,
            ordering="FM" if magnetic else "NM",
            theoretical=False,
            **common,
        )
        summary.append(_served(summary_doc, material_id))
        es_doc = ElectronicStructureDoc.from_structure(
            meta_structure=structure,
            band_gap=gap,
            is_metal=gap == 0.0,
            is_gap_direct=formula in {"GaAs", "GaN"},
            efermi=1.0,
            **common,
        )
        electronic.append(_served(es_doc, material_id))
    return {"summary": summary, "electronic_structure": electronic}


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
    docs = documents()
    resources: dict[str, list[Any]] = {"materials": []}
    skipped: list[str] = []
    for package, factory in resource_factories():
        collection = AsyncCollection(database[package])
        key = "thermo_id" if package == "thermo" else "material_id"
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
