"""The API reference has an entry for every public name, and for every public method and field
of every public class (inherited ones included), read from the built site's ``objects.inv``."""

from __future__ import annotations

import importlib
import inspect
import zlib
from pathlib import Path

import pytest

from tests.docs.site import PUBLIC_MODULES

PACKAGE = "schemarouter_integrations"


def inventory(site: Path) -> set[str]:
    """The object names of a Sphinx-format inventory (what mkdocstrings writes)."""
    raw = (site / "objects.inv").read_bytes()
    body = raw.split(b"\n", 4)[4]
    lines = zlib.decompress(body).decode("utf-8").splitlines()
    return {line.split(" ", 1)[0] for line in lines if line.strip()}


def own_members(cls: type) -> set[str]:
    """The public methods, properties and (pydantic or dataclass) fields that the package's own
    classes define, inherited from each other included; what a framework base class defines
    (LangChain's ``BaseTool``, pydantic's ``BaseModel``) is that framework's to document."""
    names: set[str] = set()
    for base in cls.__mro__:
        if not base.__module__.startswith(PACKAGE):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") or name.startswith("model_"):
                continue
            if callable(value) or isinstance(value, property | classmethod | staticmethod):
                names.add(name)
        names.update(n for n in getattr(base, "__annotations__", {}) if not n.startswith("_"))
    return {n for n in names if not n.startswith("model_")}


def written_out(cls: type) -> bool:
    """False for a class built at run time (LlamaIndex's event classes are derived from the
    router's event classes, whose reference entries list the fields)."""
    try:
        inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return True


def public_entries() -> list[str]:
    entries: list[str] = []
    for module_name in PUBLIC_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:  # pragma: no cover - every extra is installed by make setup
            pytest.fail(f"{module_name} does not import: {exc}")
        for name in module.__all__:
            entries.append(f"{module_name}.{name}")
            value = getattr(module, name)
            if inspect.isclass(value) and value.__module__.startswith(PACKAGE) and written_out(value):
                entries.extend(f"{module_name}.{name}.{member}" for member in sorted(own_members(value)))
    return entries


def test_every_public_name_method_and_field_has_a_reference_entry(built_site: Path) -> None:
    documented = inventory(built_site)
    missing = [entry for entry in public_entries() if entry not in documented]
    assert missing == [], f"{len(missing)} public names have no reference entry: {missing[:40]}"


def test_the_completeness_check_sees_inherited_registration_methods() -> None:
    entries = public_entries()
    for method in ("add_url", "add_callable", "add_mcp", "add_optimade_federation", "register"):
        assert f"{PACKAGE}.SchemaRouter.{method}" in entries
    assert f"{PACKAGE}.PlanRequest.query" in entries


def test_the_reference_shows_no_private_module_names(built_site: Path) -> None:
    import html
    import re

    leaks: list[str] = []
    for page in (built_site / "reference" / "api").rglob("index.html"):
        text = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
        leaks += [f"{page.parent.name}: {m}" for m in re.findall(rf"{PACKAGE}\._\w+", text)]
    assert leaks == []


def test_sphinx_roles_render_as_links_or_code(built_site: Path) -> None:
    import re

    raw = [
        page.parent.name
        for page in (built_site / "reference" / "api").rglob("index.html")
        if re.search(r":(class|meth|func|attr|mod|exc|data|obj):", page.read_text(encoding="utf-8"))
    ]
    assert raw == []
