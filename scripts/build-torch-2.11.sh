#!/usr/bin/env bash
# Builds `zero` and `zero-torch` against libtorch 2.11 (tch 0.24) instead of the project's 2.13 (tch 0.26), for a
# machine whose PyTorch is 2.11: the GPU machines this project borrows have torch 2.11.0+cu130 and nothing can
# be installed there. The PyPI wheel bundles the CUDA libtorch, so the binaries run on such a GPU and on a CPU.
#
#   scripts/build-torch-2.11.sh [OUT]    OUT: where the two stripped binaries go (default target/torch-2.11)
#
# It builds the committed HEAD (uncommitted changes are not in it) in a git worktree under
# $ZERO_CACHE/torch-2.11.0 (default ~/.cache/zero), with tch and torch-sys set to 0.24 there and the torch 2.11
# wheel in a venv beside it (installed once, about 5 GB). Copy both binaries into one directory on the other
# machine: `zero` finds libtorch 2.11 through `python3`'s torch there, or ZERO_LIBTORCH (src/libtorch.rs).
# docs/gpu.md has what one GPU measured with them.
set -euo pipefail

TORCH_VERSION="2.11.0"
TCH_VERSION="0.24"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$(realpath -m "${1:-$repo/target/torch-2.11}")"
home="${ZERO_CACHE:-$HOME/.cache/zero}/torch-$TORCH_VERSION"
venv="$home/venv"
src="$home/src"

fail() {
    echo "build-torch-2.11: FAILED at step: $1" >&2
    shift
    for line in "$@"; do echo "  $line" >&2; done
    exit 1
}

# Step 1: the torch wheel, trusted only with the marker a finished install leaves.
if [[ ! -f "$home/complete" || ! -x "$venv/bin/python" ]]; then
    echo "build-torch-2.11: installing torch==$TORCH_VERSION into $venv (once; about 5 GB)" >&2
    rm -rf "$venv"
    mkdir -p "$home"
    python3 -m venv "$venv" || fail "create venv" "'python3 -m venv $venv' failed (Debian: apt-get install python3-venv)"
    "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off \
        "torch==$TORCH_VERSION" >"$home/pip.log" 2>&1 ||
        fail "install torch" "pip install torch==$TORCH_VERSION failed; the end of $home/pip.log:" \
            "$(tail -n 3 "$home/pip.log")"
    touch "$home/complete"
fi
torch_dir="$("$venv/bin/python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')" ||
    fail "find torch" "$venv/bin/python cannot import torch; remove $home and run again"

# Step 2: HEAD in a worktree of its own (a git revision for `zero --version`), its tch pinned to 2.11's.
git -C "$repo" worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
git -C "$repo" worktree prune
git -C "$repo" worktree add --detach --force "$src" HEAD >/dev/null ||
    fail "check out HEAD" "git worktree add $src HEAD failed"
sed -i "s/^tch = \"0\.26\"\$/tch = \"$TCH_VERSION\"/; s/^torch-sys = \"0\.26\"\$/torch-sys = \"$TCH_VERSION\"/" \
    "$src/Cargo.toml"
grep -q "^tch = \"$TCH_VERSION\"\$" "$src/Cargo.toml" && grep -q "^torch-sys = \"$TCH_VERSION\"\$" "$src/Cargo.toml" ||
    fail "pin tch" "Cargo.toml no longer has the lines 'tch = \"0.26\"' and 'torch-sys = \"0.26\"' this script rewrites"
mkdir -p "$src/.cargo"
cat >"$src/.cargo/config.toml" <<EOF
[env]
LIBTORCH = "$torch_dir"
LIBTORCH_CXX11_ABI = "1"
OMP_WAIT_POLICY = "PASSIVE"
EOF

# Step 3: the two binaries, in a target directory that outlives the worktree (later builds are incremental).
(cd "$src" && CARGO_TARGET_DIR="$home/target" cargo build --release --bin zero --bin zero-torch) ||
    fail "cargo build" "the build against libtorch $TORCH_VERSION failed (output above)"
mkdir -p "$out"
for bin in zero zero-torch; do
    strip -o "$out/$bin.tmp" "$home/target/release/$bin" && mv "$out/$bin.tmp" "$out/$bin"
done
git -C "$repo" worktree remove --force "$src"
echo "build-torch-2.11: $out/zero and $out/zero-torch, built against libtorch $TORCH_VERSION" >&2
