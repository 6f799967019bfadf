# The two commands of the README. Each runs the set-up first (idempotent; a few seconds once done).
.PHONY: run test test-fast setup python

CARGO ?= cargo

setup:
	@scripts/setup.sh

# The Python package `zero`: its wheel (maturin) installed into the set-up's venv. Release, so that after
# `make run` it reuses that build's compiled dependencies (`make test` builds its own, in the dev profile).
python: setup
	scripts/python-package.sh --release

# The main job on its embedded default: a short real training run (configs/bashni-quick.toml) in runs/.
run: setup
	$(CARGO) build --release --bin zero --bin zero-torch
	target/release/zero run

# Formatting, the workspace-hack's check, lints, code shape, the advisory check and every test, the slow tier and the
# Python package's suite included (what CI runs).
test: setup
	scripts/setup-slurm.sh
	$(CARGO) fmt --all -- --check
	scripts/check-hakari.sh
	$(CARGO) clippy --workspace --all-targets --all-features -- -D warnings
	python3 scripts/check-shape.py
	python3 scripts/audit.py
	$(CARGO) test --workspace --all-features
	scripts/python-package.sh --test

# The same without the slow tier (learning, kill-and-resume runs, the browser): a few minutes.
test-fast: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	python3 scripts/check-shape.py
	$(CARGO) test --workspace
