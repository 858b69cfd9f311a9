"""Build the robocrystallographer and similarity documents once (minutes), into ``data/``.

Run by the MP venv's interpreter: ``python precompute.py``. Robocrystallographer (inside
emmet-core) takes 10-20 s a structure and CrystalNN fingerprints about as long for a few
dozen sites, too long for every server start; the server loads what this writes
(``data/robocrys_docs.json``, ``data/similarity_docs.json``) as built.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import mp_documents as docs
import mp_illustrative

ROBOCRYS_IDS = ["mp-149", "mp-856", docs.SIC_ID, "mp-25375", "mp-1057787"]
"""Si, SnO2 (rutile), SiC, WO2, KP: the materials given a robocrystallographer description."""


def real_structures() -> dict[str, Any]:
    """The structures of emmet's test data, by the material id we serve them under."""
    magnetic = {m["task_id"]: m["structure"] for m in docs._raw("magnetism_mats_sample.json.gz")}
    from pymatgen.core import Structure

    return {
        "mp-149": docs.si_structure(),
        "mp-856": docs._load("SnO2_structure.json.gz"),
        docs.SIC_ID: docs._load("SiC_fitting_data.json.gz")["structure"],
        "mp-25375": docs._load("es_dos_objs.json.gz")[0]["data"].structure,
        "mp-1057787": Structure.from_dict(magnetic["mp-1057787"]),
    }


def main() -> None:
    from emmet.core.robocrys import RobocrystallogapherDoc
    from emmet.core.similarity import CrystalNNSimilarity

    warnings.simplefilter("ignore")
    real = real_structures()
    robocrys = [
        docs.served(RobocrystallogapherDoc.from_structure(structure=real[i], material_id=i, deprecated=False))
        for i in ROBOCRYS_IDS
    ]
    (docs.DATA / "robocrys_docs.json").write_text(json.dumps(robocrys, indent=1))
    every = {**mp_illustrative.structures(), **real}
    similar = CrystalNNSimilarity().build_similarity_collection_from_structures(every, num_procs=1, num_top=5)
    (docs.DATA / "similarity_docs.json").write_text(json.dumps([docs.served(d) for d in similar], indent=1))


if __name__ == "__main__":
    main()
