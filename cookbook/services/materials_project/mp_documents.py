"""Real MP documents, built by emmet-core from emmet's own test data (``data/``).

Run inside the MP server's venv (imported by ``mp_server.py``). Each ``*_docs`` function
builds one collection the way emmet's tests build it, from the files vendored in ``data/``
(see ``data/SOURCE.md``). The collections hold different materials, as MP's do: the summary
(:func:`summary_docs`) every material, a specialised collection only the ones its test data
covers. Robocrystallographer descriptions and similarity fingerprints take minutes to compute,
so they were computed once by ``precompute.py`` with the same emmet-core and are loaded built.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


def _load(name: str) -> Any:
    from monty.serialization import loadfn

    return loadfn(DATA / name)


def _raw(name: str) -> Any:
    with gzip.open(DATA / name, "rt") as handle:
        return json.load(handle)


def alpha(material_id: str) -> str:
    """``mp-149`` as emmet-api stores and queries it (``mp-aaaaaaft``)."""
    from emmet.core.mpid import AlphaID

    return str(AlphaID(material_id, padlen=8))


def served(doc: Any) -> dict[str, Any]:
    """A document as the live database holds it: visible (not deprecated, licensed BY-C), AlphaID."""
    record: dict[str, Any] = doc.model_dump(mode="json") if hasattr(doc, "model_dump") else dict(doc)
    if record.get("material_id"):
        record["material_id"] = alpha(str(record["material_id"]))
    record["deprecated"] = False
    record["builder_meta"] = {**(record.get("builder_meta") or {}), "license": "BY-C"}
    return record


def si_structure() -> Any:
    from pymatgen.core import Structure

    return Structure.from_file(DATA / "Si_mp_149.cif")


THERMO_MAX_SITES = 8
"""Thermo documents are built for the hull's materials and those of at most this many sites."""


def thermo_docs() -> tuple[list[Any], dict[str, Any]]:
    """``ThermoDoc.from_entries`` on the Li-Fe-O GGA/GGA+U entries (one document per material).

    The phase diagram holds all 375 entries; documents are built for the stable materials and
    the small cells (:data:`THERMO_MAX_SITES`), about 90, to keep the server's start short.
    Returns the documents and each material's structure by id.
    """
    from emmet.core.thermo import ThermoDoc
    from pymatgen.entries.computed_entries import ComputedStructureEntry

    entries = [ComputedStructureEntry.from_dict(entry) for entry in _raw("Li-Fe-O.json.gz")]
    diagram = ThermoDoc.construct_phase_diagram(entries)
    stable = {entry.data["material_id"] for entry in diagram.stable_entries}
    chosen = [e for e in entries if e.data["material_id"] in stable or len(e.structure) <= THERMO_MAX_SITES]
    built = ThermoDoc.from_entries(chosen, thermo_type="GGA_GGA+U", phase_diagram=diagram, deprecated=False)
    return list(built), {str(e.data["material_id"]): e.structure for e in chosen}


SIC_ID = "mp-8062"
"""The id we give the SiC of the elasticity fitting data (the test data carries none)."""


def elasticity_docs() -> list[Any]:
    """``ElasticityDoc.from_deformations_and_stresses`` on the SiC fitting data."""
    from emmet.core.elasticity import ElasticityDoc
    from pymatgen.analysis.elasticity import Deformation, Stress

    data = _load("SiC_fitting_data.json.gz")
    doc = ElasticityDoc.from_deformations_and_stresses(
        structure=data["structure"],
        deformations=[Deformation(x) for x in data["deformations"]],
        stresses=[Stress(x) for x in data["stresses"]],
        equilibrium_stress=Stress(data["equilibrium_stress"]),
        material_id=SIC_ID,
    )
    return [doc]


def magnetism_docs() -> list[Any]:
    """``MagnetismDoc.from_structure`` for each of the ten sampled materials."""
    from emmet.core.magnetism import MagnetismDoc
    from emmet.core.utils import jsanitize
    from pymatgen.core import Structure

    return [
        MagnetismDoc.from_structure(
            structure=Structure.from_dict(jsanitize(material["structure"])),
            material_id=material["task_id"],
            total_magnetization=material["magnetism"]["total_magnetization"],
            deprecated=False,
        )
        for material in _raw("magnetism_mats_sample.json.gz")
    ]


def _si_tasks() -> list[dict[str, Any]]:
    return list(_raw("test_si_tasks.json.gz"))


def dielectric_docs() -> list[Any]:
    """``DielectricDoc.from_ionic_and_electronic`` on Si's DFPT dielectric task (mp-149)."""
    from emmet.core.polar import DielectricDoc

    task = next(t for t in _si_tasks() if t["calc_type"] == "GGA DFPT Dielectric")
    return [
        DielectricDoc.from_ionic_and_electronic(
            material_id="mp-149",
            structure=si_structure(),
            epsilon_static=task["calcs_reversed"][0]["output"]["epsilon_static"],
            epsilon_ionic=task["calcs_reversed"][0]["output"]["epsilon_ionic"],
            deprecated=False,
        )
    ]


def electronic_structure_docs() -> list[Any]:
    """Fe (mp-13, ``from_dos``: its DOS) and WO2 (mp-25375, ``from_bsdos``: band structure and DOS)."""
    from emmet.core.electronic_structure import ElectronicStructureDoc
    from emmet.core.material import PropertyOrigin
    from emmet.core.mpid import AlphaID
    from emmet.core.types.electronic_structure import BSShim, DosShim

    fe_structure = _load("Fe_structure.json.gz")
    fe = ElectronicStructureDoc.from_dos(
        dos=DosShim(dos=("mp-1671247", _load("Fe_dos.json.gz"), 2)),
        is_gap_direct=False,
        origins=[PropertyOrigin(name="dos", task_id="mp-1671247")],
        structures={AlphaID("mp-1671247", padlen=8): fe_structure},
        material_id="mp-13",
        deprecated=False,
        meta_structure=fe_structure,
    )
    dos = _load("es_dos_objs.json.gz")[0]["data"]
    bs = _load("es_bs_objs.json.gz")[0]["data"]
    wo2 = ElectronicStructureDoc.from_bsdos(
        bandstructures=BSShim(setyawan_curtarolo=("mp-1612487", bs, 2)),
        dos=DosShim(dos=("mp-823888", dos, 2)),
        origins=[
            PropertyOrigin(name="setyawan_curtarolo", task_id="mp-1612487"),
            PropertyOrigin(name="dos", task_id="mp-823888"),
        ],
        structures={
            AlphaID("mp-823888", padlen=8): dos.structure,
            AlphaID("mp-1612487", padlen=8): bs.structure,
        },
        material_id="mp-25375",
        deprecated=False,
        meta_structure=dos.structure,
    )
    return [fe, wo2]


MP_URL = "https://materialsproject.org"


def provenance_docs() -> list[Any]:
    """``ProvenanceDoc.from_SNLs`` for Si (mp-149): one SNL per Si task, as MP's history records it."""
    from datetime import datetime

    from emmet.core.provenance import ProvenanceDoc, SNLDict
    from pymatgen.util.provenance import Author, HistoryNode, StructureNL

    structure = si_structure()
    snls = []
    for task in _si_tasks():
        snl = StructureNL(
            structure,
            authors=[Author("Materials Project", "feedback@materialsproject.org").as_dict()],
            history=[
                HistoryNode(task["calc_type"], "https://materialsproject.org", {"task_id": task["task_id"]})
            ],
            created_at=datetime.fromisoformat(task["completed_at"]),
            references="",
        ).as_dict()
        snl["snl_id"] = f"mp-{task['task_id'].split('-')[-1]}"
        snls.append(SNLDict(**snl))
    return [ProvenanceDoc.from_SNLs(material_id="mp-149", structure=structure, snls=snls, deprecated=False)]


def xas_docs() -> list[Any]:
    """``XASDoc`` of BaH4O3 (mp-626735, H K-edge EXAFS) as emmet's test builds it."""
    from emmet.core.xas import XASDoc

    record = _load_plain("xasdoc_nonpos_mp_626735.json.gz")
    return [XASDoc(**record, material_id=record["task_id"])]


def _load_plain(name: str) -> Any:
    from monty.serialization import loadfn

    return loadfn(DATA / name, cls=None)


def synthesis_docs() -> list[dict[str, Any]]:
    """The three recipes: emmet's synthesis document and its two adaptors' sources, converted."""
    from emmet.api.routes.materials.synthesis.data_adaptor import convert_recipe
    from emmet.api.routes.materials.synthesis.data_adaptor_synpro import convert_one
    from emmet.core.synthesis import SynthesisRecipe

    recipes = [
        _raw("synth_doc.json.gz"),
        convert_recipe(dict(_raw("synth_doc_adaptor.json.gz")["src"])),
        convert_one(_raw("synth_doc_adaptor_synpro.json.gz")["src"]),
    ]
    return [SynthesisRecipe(**recipe).model_dump(mode="json") for recipe in recipes]


def precomputed(name: str) -> list[dict[str, Any]]:
    """Documents built once by ``precompute.py`` (robocrys, similarity), as served."""
    return list(json.loads((DATA / name).read_text()))
