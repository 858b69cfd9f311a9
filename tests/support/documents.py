"""Real OpenAPI documents from the wild, downloaded at test time and cached (never committed).

They come from the ``openapi-spec-validator`` 0.9.0 sdist (GitHub's and Stripe's REST
descriptions, two Petstores), are cached in ``.cache/documents/`` at the repository root
(gitignored), and each YAML document is also written once as JSON (for JSON-form
measurements). :func:`real_documents` raises :class:`DocumentsUnavailable` when the download
fails; the fixture turns that into a skip locally and a failure under ``CI=true``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import yaml

from tests.support.locks import building

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "documents"
SDIST = "openapi-spec-validator==0.9.0"
MEMBERS = {
    "github.yaml": "tests/bench/specs/github.yaml",
    "stripe.yaml": "tests/bench/specs/stripe.yaml",
    "petstore-v3.yaml": "tests/bench/specs/petstore-v3.yaml",
    "petstore.yaml": "tests/integration/data/v3.0/petstore.yaml",
}
"""Cached file name -> path inside the sdist."""


class DocumentsUnavailable(RuntimeError):
    """The documents could not be downloaded (no network, no pip, ...)."""


def real_documents(cache: Path = CACHE) -> dict[str, Path]:
    """Every cached document by file name (``github.yaml``, ``github.json``, ...), fetched once."""
    wanted = [*MEMBERS, *(name.replace(".yaml", ".json") for name in MEMBERS)]
    if not all((cache / name).is_file() for name in wanted):
        with building("documents"):  # another pytest-xdist worker may be downloading them
            if not all((cache / name).is_file() for name in wanted):
                cache.mkdir(parents=True, exist_ok=True)
                _download(cache)
                for name in MEMBERS:
                    _write_json(cache / name)
    return {name: cache / name for name in wanted}


def _download(cache: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="openapi-documents-") as tmp:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", SDIST]
        try:
            done = subprocess.run(
                [*command, "-d", tmp], capture_output=True, text=True, timeout=180, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DocumentsUnavailable(f"`{' '.join(command)}` failed: {exc}") from exc
        archives = sorted(Path(tmp).glob("openapi_spec_validator-*.tar.gz"))
        if done.returncode != 0 or not archives:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise DocumentsUnavailable(f"`{' '.join(command)}` failed: {' / '.join(tail)}")
        with tarfile.open(archives[0]) as archive:
            members = {m.name.split("/", 1)[-1]: m for m in archive.getmembers() if m.isfile()}
            for name, inner in MEMBERS.items():
                member = members.get(inner)
                source = archive.extractfile(member) if member is not None else None
                if source is None:
                    raise DocumentsUnavailable(f"{SDIST} has no {inner}")
                (cache / name).write_bytes(source.read())


def _write_json(path: Path) -> None:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with path.open("rb") as stream:
        data = yaml.load(stream, Loader=loader)
    partial = path.with_suffix(".json.partial")  # renamed when whole: a reader never sees half a file
    partial.write_text(json.dumps(data, default=str), encoding="utf-8")
    partial.replace(path.with_suffix(".json"))
