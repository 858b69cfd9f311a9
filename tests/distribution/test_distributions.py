"""The built sdist and wheel: valid metadata (``twine check --strict``), the licence, one
version, and nothing in the sdist that is not source (no caches, no virtual environments)."""

from __future__ import annotations

import re
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import schemarouter_integrations
from tests.distribution.conftest import ROOT, Distributions, checked

pytestmark = pytest.mark.distribution

NOT_SOURCE = (
    ".hypothesis",
    "__pycache__",
    ".venv",
    ".mp-venv",
    ".anchor-venv",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".cache",
)


def sdist_names(dists: Distributions) -> list[str]:
    with tarfile.open(dists.sdist) as archive:
        return [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]


def wheel_metadata(dists: Distributions) -> dict[str, list[str]]:
    with zipfile.ZipFile(dists.wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(archive.read(name).decode())
    return {key: message.get_all(key) or [] for key in set(message.keys())}


def wheel_description(dists: Distributions) -> str:
    with zipfile.ZipFile(dists.wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(archive.read(name).decode())
    assert message.get("Description-Content-Type", "").startswith("text/markdown")
    return str(message.get_payload())


def test_the_package_description_links_and_images_are_absolute(distributions: Distributions) -> None:
    description = wheel_description(distributions)
    targets = re.findall(r"\]\(([^)\s]+)\)", description)
    assert len(targets) > 20, targets  # the README's links are all there
    relative = [t for t in targets if not t.startswith(("https://", "http://", "#", "mailto:"))]
    assert relative == []
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", description)
    assert images and all(i.startswith("https://raw.githubusercontent.com/") for i in images), images


def test_the_package_description_links_docs_pages_to_the_site(distributions: Distributions) -> None:
    description = wheel_description(distributions)
    site = wheel_metadata(distributions)["Project-URL"]
    documentation = dict(url.split(", ", 1) for url in site)["Documentation"]
    assert documentation.startswith("https://") and "/tree/" not in documentation
    assert f"]({documentation}getting-started/)" in description
    assert f"]({documentation}reference/api/)" in description


def test_twine_check_strict_passes_on_both_distributions(distributions: Distributions) -> None:
    twine = Path(sys.executable).parent / "twine"
    checked([str(twine), "check", "--strict", str(distributions.sdist), str(distributions.wheel)])


def test_the_sdist_holds_no_caches_or_virtual_environments(distributions: Distributions) -> None:
    names = sdist_names(distributions)
    shipped = [n for n in names if set(Path(n).parts) & set(NOT_SOURCE) or n.endswith((".pyc", ".pyo"))]
    assert shipped == []


def test_the_sdist_holds_the_licence_changelog_and_tests(distributions: Distributions) -> None:
    names = set(sdist_names(distributions))
    assert {
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "pyproject.toml",
        "schemarouter_integrations/py.typed",
    } <= names
    assert "tests/distribution/scripts/quickstart.py" in names


def test_the_wheel_holds_the_package_and_the_licence_only(distributions: Distributions) -> None:
    with zipfile.ZipFile(distributions.wheel) as archive:
        tops = {name.split("/", 1)[0] for name in archive.namelist()}
        names = archive.namelist()
    version = schemarouter_integrations.__version__
    assert tops == {"schemarouter_integrations", f"schemarouter_integrations-{version}.dist-info"}
    assert f"schemarouter_integrations-{version}.dist-info/licenses/LICENSE" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_the_wheel_declares_the_mit_licence_by_pep_639(distributions: Distributions) -> None:
    metadata = wheel_metadata(distributions)
    assert metadata["License-Expression"] == ["MIT"]
    assert metadata["License-File"] == ["LICENSE"]
    assert "License" not in metadata  # the legacy field is gone


def test_the_wheel_names_authors_urls_and_classifiers(distributions: Distributions) -> None:
    metadata = wheel_metadata(distributions)
    assert metadata["Author"] == ["schemarouter-integrations developers"]
    urls = dict(url.split(", ", 1) for url in metadata["Project-URL"])
    assert {"Homepage", "Documentation", "Changelog", "Issues", "Source"} <= set(urls)
    assert "Typing :: Typed" in metadata["Classifier"]
    assert "Programming Language :: Python :: 3.11" in metadata["Classifier"]


def test_the_version_has_one_source(distributions: Distributions) -> None:
    metadata = wheel_metadata(distributions)
    assert metadata["Version"] == [schemarouter_integrations.__version__]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" in project["dynamic"]
    assert "version" not in project


def test_development_tools_are_not_a_published_extra(distributions: Distributions) -> None:
    metadata = wheel_metadata(distributions)
    assert "dev" not in metadata["Provides-Extra"]
    assert not [r for r in metadata["Requires-Dist"] if r.startswith(("pytest", "ruff", "mypy"))]
