# The two commands of the README. Each runs the set-up first (idempotent; a few seconds once done).
.PHONY: run build test test-fast setup setup-python python

CARGO ?= cargo

# libtorch (scripts/setup.sh: CPU-only where there is no GPU).
setup:
	@scripts/setup.sh

# libtorch and the venv of the Python side (the tests' Python packages, maturin).
setup-python:
	@scripts/setup.sh --python

# The Python package `zero`: its wheel (maturin) installed into the set-up's venv. Release, so that after
# `make run` it reuses that build's compiled dependencies (`make test` builds its own, in the dev profile).
python: setup-python
	scripts/python-package.sh --release

# The main job on its embedded default: a short real training run (configs/bashni-quick.toml) in runs/. Built
# without the ONNX runtime (tract), which the main job never runs and which is a third of a clean release build;
# `make build` builds every command.
run: setup
	$(CARGO) build --release --no-default-features --bin zero --bin zero-torch
	target/release/zero run

# The whole program, the ONNX runtime of `zero bot --runtime onnx` and `zero export` included.
build: setup
	$(CARGO) build --release --bin zero --bin zero-torch

# Formatting, the workspace-hack's check, lints, code shape, the advisory check and every test, the slow tier and the
# Python package's suite included (what CI runs).
test: setup-python
	scripts/setup-slurm.sh
	$(CARGO) fmt --all -- --check
	scripts/check-hakari.sh
	$(CARGO) clippy --workspace --all-targets --all-features -- -D warnings
	python3 scripts/check-shape.py
	python3 scripts/audit.py
	$(CARGO) test --workspace --all-features
	scripts/python-package.sh --test

# The same without the slow tier (learning, kill-and-resume runs, the browser): a few minutes.
test-fast: setup-python
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	python3 scripts/check-shape.py
	$(CARGO) test --workspace
