"""What the LangChain-bridge host tests share: the cases each host is asked (an answer, a
fallback, every route down, bad arguments) and running a host script in its own venv."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from tests.support.environments import ROOT

SI = {"query": "band gap of Si", "formula": "Si"}
BRIDGE_CASES: dict[str, dict[str, Any]] = {
    "answered": {"arguments": SI},
    "fallback": {"down": ["mp_api"], "arguments": SI},
    "all_down": {"down": ["mp_api", "mp_optimade", "mp_python", "oqmd_api"], "arguments": SI},
    "bad": {"arguments": {"query": "band gap of Si", "limit": 0}},
}


def run_host(
    python: Path,
    script: Path,
    cases: Iterable[Mapping[str, Any]],
    *,
    leading: Iterable[str] = (),
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run *script* under the host's *python* with each case as a JSON argument (after the
    *leading* arguments), the repository on the path; the process, checked by the caller."""
    return subprocess.run(
        [str(python), str(script), *leading, *(json.dumps(case) for case in cases)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=ROOT,
    )


def host_results(
    python: Path, script: Path, cases: Mapping[str, Mapping[str, Any]], timeout: float
) -> dict[str, Any]:
    """The host's JSON report, its ``calls`` keyed by case name as ``results``."""
    done = run_host(python, script, cases.values(), timeout=timeout)
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    out["results"] = dict(zip(cases, out.pop("calls"), strict=True))
    return out
