"""A local OPTIMADE federation: several reference servers, an index meta-database, a providers list.

::

    providers list (FaultServer, static)      /providers/v1/links
      oqmd        -> reference index app       /v1/links: main (A), hang (Hang), broken (500)
      gnome       -> static index              /v1/links: main (B, _gnome_bandgap)
      alexandria  -> static index              /v1/links: pbe (C, _alexandria_band_gap)
      mcloudarchive -> static index            /v1/links: twod (D, _mcloudarchive_band_gap)
      mp          -> static index              /v1/links: main (E, no band gap)
      aiida       -> base_url null

Each database is a real ``optimade.server.main:app`` subprocess with its own provider
prefix, provider fields and a few structures; the band gaps differ a little per database so
that values can be told apart. Nothing touches the network.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.servers.fault_server import FaultServer, Hang, Reply, Status
from tests.servers.optimade_data import build_structures
from tests.servers.optimade_server import OptimadeServer, start_all

FORMULAS = ("Si", "GaAs", "NaCl")
"""The materials every test database serves (reduced formulas)."""


def database_structures(
    prefix: str, renames: dict[str, str], offset: float, *, formulas: tuple[str, ...] = FORMULAS
) -> list[dict[str, Any]]:
    """The OQMD double's structures for *formulas*, ids prefixed, provider attributes renamed
    (``{"band_gap": "bandgap"}``; unnamed ones dropped) and band gaps shifted by *offset*."""
    out = []
    for structure in build_structures():
        attributes = dict(structure["attributes"])
        if attributes["chemical_formula_reduced"] not in formulas:
            continue
        values = {key: attributes.pop(key) for key in ("band_gap", "stability", "delta_e")}
        if values["band_gap"] is not None:
            values["band_gap"] = round(values["band_gap"] + offset, 3)
        attributes.update({new: values[old] for old, new in renames.items()})
        attributes["immutable_id"] = f"{prefix}-{structure['id']}"
        out.append({**structure, "id": f"{prefix}-{structure['id']}", "attributes": attributes})
    return out


def _fields(*names: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"name": n, "type": "float", "unit": unit, "description": f"{n} ({unit})"} for n, unit in names]


def link(database: str, base_url: str | None, *, link_type: str = "child", **extra: Any) -> dict[str, Any]:
    """One links entry as the index app's ``index_links_path`` file holds it."""
    return {
        "id": database,
        "type": "links",
        "name": database,
        "description": f"test database {database}",
        "base_url": base_url,
        "homepage": None,
        "link_type": link_type,
        **extra,
    }


def links_document(entries: list[dict[str, Any]]) -> bytes:
    """A ``/links`` listing (JSON:API) of *entries*."""
    data = [
        {
            "id": e["id"],
            "type": "links",
            "attributes": {k: v for k, v in e.items() if k not in ("id", "type")},
        }
        for e in entries
    ]
    return json.dumps({"data": data, "meta": {"api_version": "1.2.0"}, "links": {"next": None}}).encode()


def static(server: FaultServer, name: str, entries: list[dict[str, Any]]) -> str:
    """Serve a static links listing under ``/<name>/``; returns that base URL."""
    server.route(name, Reply(200, {"content-type": "application/json"}, links_document(entries)))
    return f"{server.url}/{name}"


@dataclass
class Federation:
    """The running federation: databases by provider, the index, the fault server and URLs."""

    databases: dict[str, OptimadeServer]
    index: OptimadeServer
    faults: FaultServer
    providers_url: str
    hang_url: str
    broken_url: str
    stopped: list[str] = field(default_factory=list)

    def stop(self) -> None:
        for server in [*self.databases.values(), self.index]:
            server.stop()
        self.faults.stop()


def start_federation() -> Federation:
    """Start four databases and the index at once, then the static documents around them."""
    databases = {
        "oqmd": OptimadeServer(),
        "gnome": OptimadeServer(
            prefix="gnome",
            name="GNoME",
            provider_fields=_fields(("bandgap", "eV")),
            structures=database_structures("gnome", {"band_gap": "bandgap"}, 0.05),
        ),
        "alexandria": OptimadeServer(
            prefix="alexandria",
            name="Alexandria",
            provider_fields=_fields(("band_gap", "eV"), ("hull_distance", "eV/atom")),
            structures=database_structures(
                "alexandria", {"band_gap": "band_gap", "stability": "hull_distance"}, 0.1
            ),
        ),
        "mp": OptimadeServer(
            prefix="mp",
            name="MP (no band gap)",
            provider_fields=_fields(("delta_e", "eV/atom")),
            structures=database_structures("mp", {"delta_e": "delta_e"}, 0.0),
        ),
        "mcloudarchive": OptimadeServer(
            prefix="mcloudarchive",
            name="Materials Cloud archive",
            provider_fields=_fields(("band_gap", "eV")),
            structures=database_structures("mcloudarchive", {"band_gap": "band_gap"}, 0.2),
        ),
    }
    faults = FaultServer().start()
    faults.route("hang", Hang())
    faults.route("broken", Status(500))
    hang_url, broken_url = f"{faults.url}/hang", f"{faults.url}/broken"
    # the index needs the database URLs, and free ports are picked at launch: start those first
    try:
        start_all(list(databases.values()))
        index = OptimadeServer(
            prefix="oqmd",
            name="OQMD index",
            index_links=[
                link("main", databases["oqmd"].url, aggregate="ok"),
                link("hang", hang_url, aggregate="ok"),
                link("broken", broken_url, aggregate="ok"),
                link("staging", databases["oqmd"].url, aggregate="staging"),
            ],
        ).start()
    except BaseException:
        for server in databases.values():
            server.stop()
        faults.stop()
        raise
    indexes = {
        "oqmd": index.url,
        "gnome": static(faults, "gnome-index", [link("main", databases["gnome"].url)]),
        "alexandria": static(faults, "alexandria-index", [link("pbe", databases["alexandria"].url)]),
        "mcloudarchive": static(faults, "mcloud-index", [link("twod", databases["mcloudarchive"].url)]),
        "mp": static(faults, "mp-index", [link("main", databases["mp"].url)]),
    }
    providers = [link(p, url, link_type="external") for p, url in indexes.items()]
    providers.append(link("aiida", None, link_type="external"))
    providers_url = f"{static(faults, 'providers', providers)}/v1/links"
    return Federation(databases, index, faults, providers_url, hang_url, broken_url)
