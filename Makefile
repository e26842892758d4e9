# The workspace's test command: the Rust tests and the Python package's
# tests together, fast enough to run before every commit.
#
#   make test          cargo test --workspace --all-features, then pytest and ruff
#   make test-rust     the Rust tests only
#   make test-python   build the Python package into .venv (incrementally) and run pytest and ruff
#   make python-bench  the side-by-side benchmarks of python/benches/
#
# The virtual environment .venv (gitignored) is created on first use with
# the pinned versions of python/requirements-test.txt, and refreshed when
# that file changes. The package is built with `maturin develop --release`:
# cargo rebuilds only what changed (the binding alone after a change of
# python/src, nothing after a change of Python code, which is installed
# editable).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: test test-rust test-python python-dev python-bench

test: test-rust test-python

test-rust:
	cargo test --workspace --all-features

$(BIN)/.requirements: python/requirements-test.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r python/requirements-test.txt
	touch $@

python-dev: $(BIN)/.requirements
	cd python && VIRTUAL_ENV=$(abspath $(VENV)) $(abspath $(BIN))/maturin develop --release --quiet

test-python: python-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q python/tests

python-bench: python-dev
	$(BIN)/python python/benches/bench_all.py
