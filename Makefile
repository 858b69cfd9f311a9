# One-command set-up: `make demo` and `make test` work on a fresh machine with Python and pip.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint typecheck unit bench anchor-venv mp-venv soak soak-local redis clean

# --compile-bytecode: the machine sets PYTHONDONTWRITEBYTECODE=1, so without .pyc files from the
# install every Python process of the suite (each xdist worker, CLI run, cookbook script)
# compiles langchain, llama_index, mcp, ... from source again.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	VIRTUAL_ENV=$(abspath $(VENV)) $(BIN)/uv pip install -q --compile-bytecode -e ".[all,dev]"
	touch $(STAMP)

setup: $(STAMP)

redis:
	@sh .ci/ensure-redis

demo: setup
	$(BIN)/python cookbook/demo.py

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check schemarouter_integrations
	$(BIN)/lint-imports

typecheck: setup
	$(BIN)/mypy schemarouter_integrations

unit: setup
	$(BIN)/pytest tests/unit -q

# The whole suite in TEST_WORKERS pytest-xdist workers; each xdist group (tests/conftest.py)
# runs whole on one worker, so a costly fixture (the real MP server) is built once.
# `make test TEST_WORKERS=0` runs it in one process; docs/how-to/testing-under-load.md.
TEST_WORKERS ?= 2
PYTEST_PARALLEL = $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder)

test: setup redis mp-venv lint typecheck
	$(BIN)/pytest -q $(PYTEST_PARALLEL) --durations=30

# The fleet soak: 4 worker processes on one real redis-server (killed with SIGKILL and
# restarted twice), random faults; a few minutes, exit 1 when an invariant fails.
soak: setup redis
	$(BIN)/python -m tests.support.fleet_soak --workers 4 --runs 4000 --burst 40 --kills 2 --max-seconds 240

# The single-process soak: 10,000 runs with random faults over 20 routes, no Redis.
soak-local: setup
	$(BIN)/python -m tests.support.soak --runs 10000 --burst 200

# The anchor (PyPI schemarouter 0.17.0) lives only in its own venv, created when missing;
# when it cannot be installed, the anchor rows of the benchmark are skipped with the reason.
anchor-venv: setup
	$(BIN)/python -m benchmarks.anchor.environment

# The Materials Project API server (PyPI emmet-api) lives only in its own venv, created when
# missing; the real-MP tests and cookbook/materials_project.py run it as a subprocess.
mp-venv: setup
	$(BIN)/python -m cookbook.services.materials_project.environment

bench: setup redis anchor-venv
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache
