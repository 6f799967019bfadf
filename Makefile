# The two commands of the README. Each runs the set-up first (idempotent; a few seconds once done).
.PHONY: run test test-fast setup

CARGO ?= cargo

setup:
	@scripts/setup.sh

# The main job on its embedded default: a short real training run (configs/bashni-quick.toml) in runs/.
run: setup
	$(CARGO) build --release --workspace
	target/release/zero run

# Formatting, lints, code shape, the advisory check and every test, the slow tier included (what CI runs).
test: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --all-features -- -D warnings
	python3 scripts/check-shape.py
	python3 scripts/audit.py
	$(CARGO) test --workspace --all-features

# The same without the slow tier (learning, kill-and-resume runs, the browser): a few minutes.
test-fast: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	python3 scripts/check-shape.py
	$(CARGO) test --workspace
