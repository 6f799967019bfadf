#!/usr/bin/env bash
# The workspace-hack crate (workspace-hack/, managed by cargo hakari) is current: its dependency list unifies the
# third-party crates' features, and every member depends on it. Stale, a one-member build (zero-play, the Python
# wheel) would recompile most dependencies again. Installs cargo-hakari from crates.io once. Run by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.9.39
if [[ "$(cargo hakari --version 2>/dev/null)" != *"$version"* ]]; then
    echo "check-hakari: installing cargo-hakari $version from crates.io" >&2
    cargo install cargo-hakari --version "$version" --locked --quiet
fi
fail() {
    echo "check-hakari: $1; run cargo hakari generate && cargo hakari manage-deps, then commit" >&2
    exit 1
}
cargo hakari generate --diff --quiet || fail "workspace-hack/Cargo.toml is not what the dependencies need"
cargo hakari manage-deps --dry-run --quiet || fail "a member does not depend on zero-workspace-hack"
cargo hakari verify --quiet || fail "some third-party crate still builds with more than one feature set"
echo "check-hakari: workspace-hack current"
