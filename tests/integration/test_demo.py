"""The demo (``make demo``): the outage side by side with LangChain ``with_fallbacks``, the
fallback tree, a cooldown and its reopen by a probe; nothing cut at any width, no machine path.

The demo runs once, in-process, on a recording console; its transcript (every renderable it
printed) is then rendered again at other widths. A word is cut when a rendering lacks a word
that the unconstrained rendering (500 columns) has: folded, ellipsised or cropped.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import anyio
import pytest
from rich.console import Console, RenderableType

from schemarouter_integrations._demo import story as demo
from schemarouter_integrations._demo import view

pytestmark = pytest.mark.integration

WIDTHS = [60, 61, 67, 72, 80, 99, 100, 119, 120, 160, 200]
GUIDES = re.compile(r"^[\u2500-\u259f]+$")  # box drawing, tree guides, rules


@pytest.fixture(scope="module")
def transcript() -> list[RenderableType]:
    console = Console(file=io.StringIO(), width=120, record=True)
    return anyio.run(demo.run, console)


def render(items: list[RenderableType], width: int) -> str:
    console = Console(file=io.StringIO(), width=width, record=True, color_system=None)
    for item in items:
        console.print(item)
    return console.export_text()


def words(text: str) -> Counter[str]:
    return Counter(word for word in text.split() if not GUIDES.match(word))


def cut_words(items: list[RenderableType], width: int) -> Counter[str]:
    """Words of the unconstrained rendering missing from the rendering at *width*."""
    return words(render(items, 500)) - words(render(items, width))


@pytest.fixture(scope="module")
def text(transcript: list[RenderableType]) -> str:
    return render(transcript, 200)


def test_the_side_by_side_result_counts_requests_to_the_hung_primary(text: str) -> None:
    row = next(line for line in text.splitlines() if "requests to the hung primary" in line)
    with_fallbacks, router, _hedged = re.findall(r"│\s*(\d+)\s*", row)
    assert (int(with_fallbacks), int(router)) == (demo.QUESTIONS, 1), row
    assert f"LangChain with_fallbacks: {demo.QUESTIONS} of {demo.QUESTIONS} answered" in text
    assert "x faster than LangChain with_fallbacks" in text


def test_the_fallback_tree_shows_primary_fallbacks_and_rejections(text: str) -> None:
    assert "primary: mp_api.search" in text
    assert "fallback 1 (same_provider): mp_mirror.search" in text
    assert "fallback 2 (cross_provider): oqmd.search" in text
    assert "mp_api.heartbeat: exposes no field for 'band_gap'" in text


def test_the_first_question_falls_back_and_cools_the_primary(text: str) -> None:
    assert re.search(r"router\s+tool\.fallback\s+mp_api\.search -> mp_mirror\.search", text)
    assert re.search(
        r"router\s+tool\.error\s+mp_api\.search\s+InvocationUnavailableError: ReadTimeout after 0\.5 s", text
    )
    assert re.search(r"router\s+route\.unavailable\s+mp_api\.search\s+cooling down for 30 s", text)
    assert re.search(r"hedged\s+tool\.hedge\s+mp_api\.search -> mp_mirror\.search", text)
    assert re.search(
        r"mp_api\.search\s+│ cooling down\s+│.*│ InvocationUnavailableError: ReadTimeout after 0\.5 s", text
    )
    assert "The next plan leaves it out: mp_api.search: unavailable: in cooldown" in text


def test_a_probe_reopens_the_primary_before_its_cooldown_ends(text: str) -> None:
    assert re.search(r"router\s+health\.probe\s+mp_api\.search\s+ok=True", text)
    assert re.search(r"router\s+route\.available\s+mp_api\.search\s+reopened: health probe succeeded", text)
    assert "the next question answered by mp_api.search" in text


def test_no_machine_path_is_printed(text: str) -> None:
    assert str(demo.ROOT) not in text
    assert not [word for word in text.split() if word.startswith(("/", "~"))]


@pytest.mark.parametrize("width", WIDTHS)
def test_nothing_is_cut_at_width(transcript: list[RenderableType], width: int) -> None:
    assert "…" not in render(transcript, width)
    assert cut_words(transcript, width) == Counter()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_live_race_is_not_cut_at_width(width: int) -> None:
    names = ("LangChain with_fallbacks", "SchemaRouterTool, hedged")
    sides = [view.Side(name, demo.QUESTIONS) for name in names]
    sides[0].latencies = [0.512] * 7
    sides[1].latencies = [0.055] * demo.QUESTIONS
    assert cut_words([view.race(sides)], width) == Counter()


@pytest.fixture(scope="module")
def demo_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with what ``make demo`` installs: the package with ``[langchain,cli]``, nothing else."""
    uv = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    if not Path(uv).exists():
        pytest.skip("uv is not installed")
    venv = tmp_path_factory.mktemp("demo") / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], check=True, timeout=120)
    install = [uv, "pip", "install", "-q", "--python", str(venv / "bin" / "python")]
    install += ["-e", f"{demo.ROOT}[langchain,cli]"]
    if subprocess.run([*install, "--offline"], capture_output=True, timeout=300).returncode != 0:
        subprocess.run(install, check=True, timeout=600)  # the uv cache lacks something: ask the index
    return venv


@pytest.mark.timeout(900)
def test_the_demo_runs_with_only_the_core_and_the_langchain_and_cli_extras(demo_venv: Path) -> None:
    done = subprocess.run(
        [str(demo_venv / "bin" / "python"), "cookbook/demo.py", "--width", "60"],
        capture_output=True,
        text=True,
        cwd=demo.ROOT,
        env={key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV"}},
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "mp_api.search  reopened: health" in done.stdout, done.stdout[-3000:]
    assert max(len(line) for line in done.stdout.splitlines()) <= 60
    assert done.stderr == ""
