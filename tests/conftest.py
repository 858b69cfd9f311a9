"""Shared test configuration: the anyio backend, the real-server fixtures, the fixtures that
unit and integration tests both use, and how the tests are shared among pytest-xdist workers.

Parallel runs (``make test`` runs ``pytest -n $(TEST_WORKERS) --dist loadgroup``; see
``docs/how-to/testing-under-load.md``). Every test belongs to one xdist group, and a group runs
whole on one worker, so a fixture is built once per group, not once per worker:

- a test whose fixtures include one of :data:`HEAVY_SESSION_FIXTURES` joins that fixture's
  group (all the tests needing the real Materials Project server run on one worker, which
  starts it once); these groups are scheduled first, costliest first (:data:`GROUP_ORDER`);
- a test already marked ``@pytest.mark.xdist_group("name")`` keeps its group (use it for a
  set of tests sharing something costly that no fixture names);
- every other test joins its module's group, so module-scoped fixtures are built once.

A new suite with a costly session fixture (a server that takes many seconds to start): add
the fixture's name to :data:`HEAVY_SESSION_FIXTURES` (and to :data:`GROUP_ORDER` if it is
long), and keep its tests free of fixed ports and shared files (use free ports, ``tmp_path``,
and :func:`tests.support.locks.building` for a cache under ``.cache/``). Run without ``-n``
(a plain ``pytest``) everything works as before: the groups are then ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.support.llamaindex import CapturingHandler

pytest_plugins = ["tests.servers.fixtures"]


HEAVY_SESSION_FIXTURES = {
    "mp_landscape": "mp_landscape",  # the real MP API server: 20-70 s to start, 0.3 GB
    "github_spec": "real_documents",  # GitHub's and Stripe's whole documents, registered once
    "stripe_spec": "real_documents",
    "science_api": "science_documents",  # six science documents served from their schemas
    "built_site": "docs_site",  # mkdocs build --strict, once for every test that reads the site
}
"""Session fixture name -> the xdist group of every test that uses it (first match wins, in
this order)."""

GROUP_ORDER = (
    "tests/integration/test_cookbook.py",  # every cookbook script, the real MP one included
    "tests/integration/test_soak.py",
    "mp_landscape",
    "tests/integration/test_readme.py",
    "science_documents",
    "real_documents",
    "tests/integration/test_cli_degraded_start.py",
    "tests/integration/test_cli.py",
)
"""Groups handed out first, in this order (the longest ones, measured with ``--durations``,
so no worker ends up waiting for one started last); the other groups follow in collection
order. The OPTIMADE reference server (``optimade_server``, a few seconds) is left to start
once per worker that needs it, rather than making one long group."""


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups into node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every test its xdist group and put the longest groups first (see the module's
    docstring); without ``--dist loadgroup`` the marks change nothing."""
    if not config.pluginmanager.hasplugin("xdist"):
        return  # a venv from before pytest-xdist: the xdist_group marker is not even known
    groups: dict[str, str] = {}
    for item in items:
        marked = item.get_closest_marker("xdist_group")
        if marked is not None:
            groups[item.nodeid] = str(marked.args[0] if marked.args else marked.kwargs.get("name", "default"))
            continue
        names = getattr(item, "fixturenames", ())
        group = next((g for fixture, g in HEAVY_SESSION_FIXTURES.items() if fixture in names), None)
        group = group or item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(group))
        groups[item.nodeid] = group
    rank = {group: index for index, group in enumerate(GROUP_ORDER)}
    items.sort(key=lambda item: rank.get(groups[item.nodeid], len(rank)))  # stable: else as collected


@pytest.hookimpl(tryfirst=True)  # before the worker reports its collection
def pytest_collection_finish(session: pytest.Session) -> None:
    """In a ``--dist loadgroup`` worker, every node id must carry its group by now; pytest 9.2
    broke that silently (xdist issue 1386: each worker then started the MP server)."""
    grouping = session.config.getoption("loadgroup", default=False)
    if grouping and session.items and "@" not in session.items[0].nodeid:
        raise pytest.UsageError(
            "pytest-xdist did not apply the xdist groups (--dist loadgroup) with this pytest; "
            "install the pytest pinned in pyproject.toml (make setup)"
        )


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def captured() -> Iterator[CapturingHandler]:
    """Every LlamaIndex instrumentation event on the root dispatcher during the test."""
    from tests.support.llamaindex import capturing  # only the tests that ask need llama_index

    with capturing() as handler:
        yield handler


async def _no_real_dns(host: str) -> list[str]:
    """The tests' stand-in for the system resolver: they never ask real DNS."""
    if host == "localhost":
        return ["127.0.0.1", "::1"]
    raise OSError(f"the tests never resolve {host!r} through real DNS; pass resolver= to SchemaRouter")


@pytest.fixture(autouse=True)
def no_real_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The router's network check resolves names with the system's resolver unless given one;
    here that resolver knows only ``localhost``, so no test sends a DNS query. A name the
    check cannot resolve is let through when the application gave it (the request fails as
    it would have) and refused when a document named it."""
    monkeypatch.setattr("schemarouter_integrations.adapters._network.system_resolver", _no_real_dns)
