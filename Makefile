# One-command set-up: `make demo` and `make test` work on a fresh machine with Python and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The demo's own small venv: the core and the [langchain,cli] extras, nothing else. It is made
# by uv (installed alone with pip --target), so no pip is bootstrapped into it.
DEMO_VENV := .venv-demo
DEMO_STAMP := $(DEMO_VENV)/.installed
UV_TOOL := .cache/uv-tool

.PHONY: setup demo test lint typecheck unit dist docs docs-serve bench eval anchor-venv peers-venv mp-venv node host-envs soak soak-local redis clean

# --compile-bytecode: the machine sets PYTHONDONTWRITEBYTECODE=1, so without .pyc files from the
# install every Python process of the suite (each xdist worker, CLI run, cookbook script)
# compiles langchain, llama_index, mcp, ... from source again.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	VIRTUAL_ENV=$(abspath $(VENV)) $(BIN)/uv pip install -q --compile-bytecode -e ".[all]" --group dev
	touch $(STAMP)

setup: $(STAMP)

redis:
	@sh .ci/ensure-redis

$(DEMO_STAMP): pyproject.toml
	test -x $(UV_TOOL)/bin/uv || PIP_ROOT_USER_ACTION=ignore $(PYTHON) -m pip install -q --target $(UV_TOOL) uv
	test -x $(DEMO_VENV)/bin/python || $(UV_TOOL)/bin/uv venv -q --python $(PYTHON) $(DEMO_VENV)
	$(UV_TOOL)/bin/uv pip install -q --python $(DEMO_VENV)/bin/python -e ".[langchain,cli]"
	touch $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(DEMO_VENV)/bin/python cookbook/demo.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check schemarouter_integrations
	$(BIN)/lint-imports

typecheck: setup
	$(BIN)/mypy schemarouter_integrations

unit: setup
	$(BIN)/pytest tests/unit -q

# The documentation site (mkdocs-material + mkdocstrings); `make test` builds it too
# (tests/docs/test_site_builds.py) and runs every ```python block of docs/ and the README.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

# `pytest -q` includes tests/distribution: it builds the sdist and wheel, runs `twine check
# --strict` on them and installs the wheel into a fresh venv per extra (the core alone, each
# extra alone, [all]), where the quick start and each extra's promise run outside the repository.
# The whole suite in TEST_WORKERS pytest-xdist workers; each xdist group (tests/conftest.py)
# runs whole on one worker, so a costly fixture (the real MP server) is built once.
# `make test TEST_WORKERS=0` runs it in one process; docs/how-to/testing-under-load.md.
TEST_WORKERS ?= 2
PYTEST_PARALLEL = $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder)

test: setup redis mp-venv host-envs lint typecheck
	$(BIN)/pytest -q $(PYTEST_PARALLEL) --durations=30

# The distributions a release would upload, checked.
dist: setup
	rm -rf dist
	$(BIN)/uv build --out-dir dist
	$(BIN)/twine check --strict dist/*

# The fleet soak: 4 worker processes on one real redis-server (killed with SIGKILL and
# restarted twice), random faults; a few minutes, exit 1 when an invariant fails. Then the
# stores soak: 4 workers sharing Redis for their answer cache, cooldowns and rate limits for
# 120 s (Redis killed twice and hung once), two tenants on one namespace, half the workers'
# clocks 120 s ahead, a router of routers three levels deep with an inner outage; it prints
# its counts and exits 1 when an invariant fails (tests/support/store_soak.py).
soak: setup redis
	$(BIN)/python -m tests.support.fleet_soak --workers 4 --runs 4000 --burst 40 --kills 2 --max-seconds 240
	$(BIN)/python -m tests.support.store_soak --workers 4 --seconds 120 --kills 2 --hangs 1 --skew-seconds 120

# The single-process soak: 10,000 runs with random faults over 20 routes, no Redis.
soak-local: setup
	$(BIN)/python -m tests.support.soak --runs 10000 --burst 200

# The evaluation corpus (benchmarks/eval/): real OpenAPI/OPTIMADE documents served over loopback,
# every question asked through the LangChain tool as a model asks it; writes benchmarks/EVAL.md,
# docs/evaluation.md with its plot, and benchmarks/eval/results/latest.json. A few minutes at most;
# not part of `make test` (its smoke subset is: tests/integration/test_eval_smoke.py).
eval: setup mp-venv
	$(BIN)/python -m benchmarks.eval

# The anchor (PyPI schemarouter 0.17.0) lives only in its own venv, created when missing;
# when it cannot be installed, the anchor rows of the benchmark are skipped with the reason.
anchor-venv: setup
	$(BIN)/python -m benchmarks.anchor.environment

# The tools registration is compared with (fastmcp 4.2.3, LangChain's OpenAPI tools) live only
# in their own venv, created when missing; when they cannot be installed, the peer rows of the
# benchmark are skipped with the reason (benchmarks/peers/environment.py).
peers-venv: setup
	$(BIN)/python -m benchmarks.peers.environment

# The Materials Project API server (PyPI emmet-api) lives only in its own venv, created when
# missing; the real-MP tests and cookbook/materials_project.py run it as a subprocess.
mp-venv: setup
	$(BIN)/python -m cookbook.services.materials_project.environment

# The cross-host tests (tests/integration/hosts/) drive MCP hosts written for node: node and npm
# come from apt when missing.
node:
	@command -v node >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs; }
	@command -v npm >/dev/null || apt-get install -y -qq npm

# Heavy test environments, each built once into .cache/ (tests/support/environments.py): Arize
# Phoenix, langchain-mcp-adapters with mcp 1.x, the mcp 1.x line (the router's MCP server and an
# mcp 1.x client), the MCP conformance suite (npm ci from tests/conformance/, with node 22 from
# npm), the node hosts (npm ci from tests/hosts/node/), the
# third-party MCP servers (npm ci from tests/servers/third_party_mcp/; mcp-server-time in a venv).
host-envs: setup node
	$(BIN)/python -m tests.support.environments

# Every benchmark, each in its own interpreter, with its seconds beside its budget (the whole
# run: under 15 minutes). The benchmarks that mostly wait (timeouts, sleeps) run in a second
# lane beside the others; `make bench BENCH_LANES=1` runs everything one after the other.
BENCH_LANES ?= 2
bench: setup redis anchor-venv peers-venv
	$(BIN)/python benchmarks/run_all.py --lanes $(BENCH_LANES)

clean:
	rm -rf $(VENV) $(DEMO_VENV) $(UV_TOOL) .mypy_cache .ruff_cache site dist
