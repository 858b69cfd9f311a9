"""The maintainer's map (``docs/concepts/architecture.md``) draws the layers the import-linter
contract in ``pyproject.toml`` holds, and names only files that exist."""

from __future__ import annotations

import re
import tomllib

from tests.docs.blocks import ROOT

PAGE = (ROOT / "docs" / "concepts" / "architecture.md").read_text()
PACKAGE = ROOT / "schemarouter_integrations"


def contract_layers() -> list[set[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [contract["layers"] for contract in config["contracts"] if contract["type"] == "layers"]
    return [{name.strip() for name in row.split("|")} for row in layers]


def mapped_layers() -> list[set[str]]:
    section = PAGE.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| \d+ \|", line)]
    return [set(re.findall(r"`([\w.]+)`", row.split("|")[2])) for row in rows]


def test_the_map_draws_the_layers_of_the_import_contract_in_order() -> None:
    assert mapped_layers() == contract_layers()


def test_every_file_the_map_names_exists() -> None:
    """A path is relative to the package, or to the repository when it starts at its top; a
    bare file name (written under the folder the text is about) is a module of the package."""
    named = set(re.findall(r"`([\w/]+\.py)`", PAGE))
    modules = {path.name for path in PACKAGE.rglob("*.py")}

    def exists(path: str) -> bool:
        if "/" not in path:
            return path in modules
        return (PACKAGE / path).exists() or (ROOT / path).exists()

    assert named and sorted(path for path in named if not exists(path)) == []
