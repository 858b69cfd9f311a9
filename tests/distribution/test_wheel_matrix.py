"""The wheel as users install it: in a fresh virtual environment per extra (the core alone,
each extra alone, and ``[all]``), from a folder outside the repository, the package imports
what the extra promises and the README quick start answers through its fallback."""

from __future__ import annotations

import json

import pytest

import schemarouter_integrations
from tests.distribution.conftest import ENVIRONMENTS, EXTRAS, Environment

# The matrix is made (and its checks run) while the first test waits: minutes on a cold cache.
pytestmark = [pytest.mark.distribution, pytest.mark.timeout(900)]

CHECKED = {
    "core",
    "all",
    "cli",
    "fast",
    "langchain",
    "langgraph",
    "llamaindex",
    "mcp",
    "optimade",
    "otel",
    "re2",
    "redis",
    "testing",
}


def passed(done: object) -> str:
    code, out, err = done.returncode, done.stdout, done.stderr  # type: ignore[attr-defined]
    assert code == 0, f"exit {code}\n--- stdout\n{out}\n--- stderr\n{err}"
    return str(out)


def test_every_extra_of_pyproject_has_a_check() -> None:
    assert set(EXTRAS) - CHECKED == set(), "add a check to tests/distribution/scripts/promises.py"


@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_the_quick_start_answers_through_its_fallback(
    environments: dict[str, Environment], name: str
) -> None:
    out = passed(environments[name].results["promises"])
    assert "answered by mp_python after mp_api.search -> mp_python.search" in out
    assert "quick start ok" in out


@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_the_environment_imports_what_its_extra_promises(
    environments: dict[str, Environment], name: str
) -> None:
    assert f"{name}: ok" in passed(environments[name].results["promises"])


def test_the_installed_version_is_the_package_version(environments: dict[str, Environment]) -> None:
    version, distributed = passed(environments["core"].results["version"]).split()
    assert version == distributed == schemarouter_integrations.__version__


def test_without_an_extra_its_face_names_the_extra_to_install(environments: dict[str, Environment]) -> None:
    assert "missing extras ok" in passed(environments["core"].results["missing extras"])


@pytest.mark.parametrize("way", ["console script", "python -m"])
def test_without_the_cli_extra_the_command_line_exits_2_naming_it(
    environments: dict[str, Environment], way: str
) -> None:
    done = environments["core"].results[way]
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert 'pip install "schemarouter-integrations[cli]"' in done.stderr
    assert "Traceback" not in done.stderr


def test_the_console_script_prints_its_version(environments: dict[str, Environment]) -> None:
    out = passed(environments["cli"].results["version"])
    assert out == f"schemarouter-integrations {schemarouter_integrations.__version__}\n"


def test_the_console_script_answers_the_quick_start_landscape(environments: dict[str, Environment]) -> None:
    assert "ok (2 route(s))" in passed(environments["cli"].results["validate"])
    answer = json.loads(passed(environments["cli"].results["query"]))
    assert answer["route"] == ["mp_api.search", "mp_python.search"]
    assert answer["records"] == [{"band_gap": 0.61, "formula": "Si", "material_id": "mp-149"}]


def test_the_demo_runs_from_the_wheel_with_the_cli_and_langchain_extras(
    environments: dict[str, Environment],
) -> None:
    out = passed(environments["all"].results["demo"])
    assert "mp_api now hangs" in out and "reopened: health" in out, out[-3000:]


def test_the_demo_without_langchain_exits_2_naming_the_extras(environments: dict[str, Environment]) -> None:
    done = environments["cli"].results["demo"]
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert 'pip install "schemarouter-integrations[cli,langchain]"' in done.stderr
    assert "Traceback" not in done.stderr
