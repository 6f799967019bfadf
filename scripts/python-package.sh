#!/usr/bin/env bash
# The Python package `zero` (python/): builds its abi3 wheel with maturin into target/wheels/, installs it into
# the set-up's venv (where torch lives, so `import torch` and `import zero` share a process), and with --test runs
# its pytest suite (the examples included) against the `zero` binary in target/debug/.
#
#   scripts/python-package.sh [--test] [--release]
#
# Run after scripts/setup.sh (the Makefile does). The wheel is built in the dev profile unless --release: the
# suite searches a few dozen simulations, and a dev build shares the workspace's compiled dependencies.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
test=0
profile=dev
for arg in "$@"; do
    case "$arg" in
        --test) test=1 ;;
        --release) profile=release ;;
        *) echo "python-package.sh: unknown argument $arg (expected --test or --release)" >&2; exit 2 ;;
    esac
done

config="$repo/.cargo/config.toml"
python=$(sed -n 's/^ZERO_VENV_PYTHON = "\(.*\)"$/\1/p' "$config" 2>/dev/null || true)
[[ -n "$python" && -x "$python" ]] || {
    echo "python-package.sh: no set-up venv named in $config; run scripts/setup.sh first" >&2
    exit 1
}
venv_bin="$(dirname "$python")"

wheels="$repo/target/wheels"
rm -f "$wheels"/zero-*.whl
"$venv_bin/maturin" build --quiet -m "$repo/python/Cargo.toml" --profile "$profile" -i "$python" -o "$wheels"
wheel=$(ls "$wheels"/zero-*.whl)
"$python" -m pip install --disable-pip-version-check --no-input --quiet --force-reinstall --no-deps "$wheel"
echo "python-package.sh: installed $(basename "$wheel") into $(dirname "$venv_bin")" >&2

if [[ "$test" == 1 ]]; then
    zero_bin="$repo/target/debug/zero"
    [[ -x "$zero_bin" ]] || (cd "$repo" && cargo build --workspace --all-features --bin zero --bin zero-torch)
    # From the repository root, so that python/zero (the sources without the extension) is not on the path.
    cd "$repo"
    ZERO_BIN="$zero_bin" "$python" -m pytest -q -p no:cacheprovider python/tests
fi
