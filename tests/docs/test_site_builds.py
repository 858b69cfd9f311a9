"""The documentation site builds with ``mkdocs build --strict``: every page in the nav exists,
every link and anchor resolves, every API page renders from the docstrings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.blocks import ROOT


@pytest.mark.timeout(300)
def test_mkdocs_build_strict_passes(built_site: Path) -> None:
    assert (built_site / "index.html").is_file()


def test_every_page_is_in_the_nav() -> None:
    import yaml

    def paths(items: object) -> list[str]:
        if isinstance(items, str):
            return [items]
        if isinstance(items, list):
            return [p for item in items for p in paths(item)]
        if isinstance(items, dict):
            return [p for value in items.values() for p in paths(value)]
        return []

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    in_nav = set(paths(config["nav"]))
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages == in_nav
