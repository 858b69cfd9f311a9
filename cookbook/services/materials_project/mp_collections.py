"""Every collection the MP server serves, as the live database holds them (run in the MP venv).

The specialised collections hold the real documents :mod:`mp_documents` builds from emmet's
test data, each for the materials its data covers. The summary holds every material: for
each, the ``SummaryDoc`` emmet-core builds from its structure and the summary fields of its
property documents (the fields of ``ThermoSummary``, ``MagnetismSummary``, ... that the
property document carries), as MP's summary builder folds them; the eight illustrative
materials (:mod:`mp_illustrative`) keep their pinned values. Real materials whose formula is
one of those eight's under another id (Fe and Fe2O3 polymorphs of the Li-Fe-O data) stay out
of the summary so that those formulas keep one summary record each; their thermo documents
are served. The core collection (``/materials/core/``: structure, symmetry, formula) holds
the ``MaterialsDoc`` emmet-core builds from each summary material's structure.
"""

from __future__ import annotations

from typing import Any

import mp_documents as docs
import mp_illustrative

HAS_PROPS = {"thermo", "xas", "electronic_structure", "magnetism", "elasticity", "dielectric", "provenance"}
"""The collections served here that the summary's ``has_props`` names."""


def _summary_fields(collection: str, record: dict[str, Any]) -> dict[str, Any]:
    """The summary fields *record* (a document of *collection*) gives its material."""
    from emmet.core import summary

    models = {
        "thermo": summary.ThermoSummary,
        "magnetism": summary.MagnetismSummary,
        "elasticity": summary.ElasticitySummary,
        "dielectric": summary.DielectricSummary,
        "electronic_structure": summary.ElectronicStructureSummary,
        "provenance": summary.ProvenanceSummary,
    }
    if collection == "xas":
        return {"xas": [{k: record[k] for k in ("edge", "absorbing_element", "spectrum_type")}]}
    model = models.get(collection)
    if model is None:
        return {}
    return {name: record[name] for name in model.model_fields if name in record and record[name] is not None}


def _real() -> tuple[dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The specialised collections (served form) and the structure of each material by id."""
    thermo, structures = docs.thermo_docs()
    built: dict[str, list[Any]] = {
        "thermo": thermo,
        "elasticity": docs.elasticity_docs(),
        "magnetism": docs.magnetism_docs(),
        "dielectric": docs.dielectric_docs(),
        "electronic_structure": docs.electronic_structure_docs(),
        "provenance": docs.provenance_docs(),
        "xas": docs.xas_docs(),
    }
    from pymatgen.core import Structure

    for collection in ("magnetism", "elasticity", "dielectric", "electronic_structure", "provenance"):
        for doc in built[collection]:
            structures.setdefault(str(doc.material_id), getattr(doc, "structure", None))
    for record in docs._raw("magnetism_mats_sample.json.gz"):
        structures[record["task_id"]] = Structure.from_dict(record["structure"])
    structures["mp-149"] = docs.si_structure()
    structures["mp-856"] = docs._load("SnO2_structure.json.gz")
    structures[docs.SIC_ID] = docs._load("SiC_fitting_data.json.gz")["structure"]
    structures["mp-25375"] = docs._load("es_dos_objs.json.gz")[0]["data"].structure
    for doc in built["xas"]:
        structures[str(doc.task_id)] = doc.spectrum.structure
    served = {name: [docs.served(doc) for doc in found] for name, found in built.items()}
    served["robocrys"] = docs.precomputed("robocrys_docs.json")
    served["similarity"] = docs.precomputed("similarity_docs.json")
    served["synthesis"] = docs.synthesis_docs()
    return served, {docs.alpha(k): v for k, v in structures.items() if v is not None}


def collections() -> dict[str, list[dict[str, Any]]]:
    """Each collection's documents, by the emmet-api resource package that serves it."""
    from emmet.core.material import MaterialsDoc
    from emmet.core.summary import SummaryDoc

    served, structures = _real()
    illustrative = {docs.alpha(k): v for k, v in mp_illustrative.summary_fields().items()}
    structures.update({docs.alpha(k): v for k, v in mp_illustrative.structures().items()})
    fields: dict[str, dict[str, Any]] = {material_id: {} for material_id in structures}
    has: dict[str, dict[str, bool]] = {material_id: {} for material_id in structures}
    for collection, records in served.items():
        for record in records:
            material_id = record.get("material_id")
            if material_id in fields:
                fields[material_id].update(_summary_fields(collection, record))
                has[material_id][collection] = True
    summary, core = [], []
    for material_id, structure in structures.items():
        formula = structure.composition.reduced_formula
        if material_id not in illustrative and formula in mp_illustrative.FORMULAS:
            continue
        values = {**fields[material_id], **illustrative.get(material_id, {})}
        doc = SummaryDoc.from_structure(
            meta_structure=structure, material_id=material_id, deprecated=False, **values
        )
        record = docs.served(doc)
        known = {k: v for k, v in has[material_id].items() if k in HAS_PROPS}
        record["has_props"] = {**(record.get("has_props") or {}), **known}
        summary.append(record)
        material = MaterialsDoc.from_structure(structure, material_id=material_id, deprecated=False)
        core.append(docs.served(material))
    return {"summary": summary, "materials": core, **served}
