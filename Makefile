# The two commands of the README. Each runs the set-up first (idempotent; a few seconds once done).
.PHONY: run test setup

CARGO ?= cargo

setup:
	@scripts/setup.sh

# The main job on its embedded default: a short real training run (configs/bashni-quick.toml) in runs/.
run: setup
	$(CARGO) build --release --workspace
	target/release/zero run

# Formatting, lints and every test.
test: setup
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace
