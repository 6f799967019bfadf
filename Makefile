# The two commands of the README. Each runs the set-up first (idempotent; a few seconds once done).
.PHONY: run test setup

CARGO ?= cargo

setup:
	@scripts/setup.sh

# The main job on an embedded default.
run: setup
	$(CARGO) build --release --workspace
	scripts/demo.sh target/release/zero

# Formatting, lints and every test.
test: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace
