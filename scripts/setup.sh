#!/usr/bin/env bash
# One-time, idempotent set-up for zero: a Python venv holding the PyPI torch wheel whose bundled libtorch the
# `tch` crate builds and links against. Every README command runs this first.
#
#   scripts/setup.sh     install (once), verify, and point this checkout's cargo at it; silent on the fast path
#
# The venv lives outside the repository, under $ZERO_CACHE (default ~/.cache/zero). It is trusted only when the
# marker file `complete` beside it names the exact requirements it was verified with: an interrupted install
# leaves no marker, and the next run wipes the half-built venv and starts again instead of trusting it.
set -euo pipefail

TORCH_VERSION="2.13.0"   # tch 0.26 requires exactly this libtorch
# Everything the project's Python side needs: pyarrow, pandas and duckdb (the data tests read zero's Parquet shards
# with them and run every query of docs/data.md), tensorboard (a test reads the run's event files with it),
# onnxruntime (the ONNX export's reference), maturin and pytest (the Python package `zero`: its wheel is built
# and its suite run by scripts/python-package.sh), gymnasium and pettingzoo (the package's environments are checked
# with their own checkers) and pydraughts (a test reads zero's Bashni PDN with it).
REQUIREMENTS="torch==${TORCH_VERSION} numpy pyarrow pandas duckdb tensorboard onnxruntime maturin pytest gymnasium pettingzoo pydraughts"
# Room the wheel and its CUDA libraries need; ZERO_SETUP_MIN_FREE_GB overrides it (a CPU-only mirror needs less,
# and the set-up tests exercise later steps on small scratch disks).
MIN_FREE_GB="${ZERO_SETUP_MIN_FREE_GB:-8}"
[[ "$MIN_FREE_GB" =~ ^[0-9]+$ ]] || { echo "zero setup: FAILED at step: read settings" >&2; echo "  ZERO_SETUP_MIN_FREE_GB='$MIN_FREE_GB' is not a whole number of GB" >&2; exit 1; }

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ZERO_CACHE:-$HOME/.cache/zero}"
home="$cache/torch-$TORCH_VERSION"
venv="$home/venv"
marker="$home/complete"

fail() {
    echo "zero setup: FAILED at step: $1" >&2
    shift
    for line in "$@"; do echo "  $line" >&2; done
    exit 1
}

# The build environment, written into the checkout's .cargo/config.toml (ignored by git) so that plain `cargo build`,
# `cargo test` and `cargo clippy` find libtorch with nothing exported by hand. [env] reaches build scripts and the
# test binaries cargo runs, not only rustc.
write_cargo_config() {
    local torch_dir="$1" abi="$2" config="$repo/.cargo/config.toml"
    local want
    want=$(cat <<CONFIG
# Written by scripts/setup.sh; do not edit (it is rewritten when the set-up changes).
[env]
# torch-sys builds against the libtorch inside the PyPI torch wheel of the set-up venv.
LIBTORCH = "$torch_dir"
LIBTORCH_CXX11_ABI = "$abi"
# libtorch's OpenMP busy-waits by default, which makes 2 threads many times slower than 1 on a loaded small
# machine; it must be in the environment before the process starts (the zero binary also sets it for itself).
OMP_WAIT_POLICY = "PASSIVE"
# Tests that read zero's files from Python use this interpreter.
ZERO_VENV_PYTHON = "$venv/bin/python"
# The Python package's PyO3 build: this interpreter, and no link against libpython (an extension module takes
# Python's symbols from the interpreter that loads it), also when cargo builds the whole workspace.
PYO3_PYTHON = "$venv/bin/python"
PYO3_BUILD_EXTENSION_MODULE = "1"
CONFIG
)
    if [[ ! -f "$config" || "$(cat "$config")" != "$want" ]]; then
        mkdir -p "$repo/.cargo"
        printf '%s\n' "$want" >"$config.tmp" && mv "$config.tmp" "$config"
    fi
}

want_marker="requirements=$REQUIREMENTS"

if [[ -f "$marker" && "$(head -n1 "$marker")" == "$want_marker" && -x "$venv/bin/python" ]]; then
    # Fast path: verified before; check the library is still where the marker says.
    torch_dir=$(sed -n 's/^torch_dir=//p' "$marker")
    abi=$(sed -n 's/^cxx11_abi=//p' "$marker")
    if [[ -n "$torch_dir" && -f "$torch_dir/lib/libtorch.so" ]]; then
        write_cargo_config "$torch_dir" "$abi"
        exit 0
    fi
    echo "zero setup: $venv is marked complete but $torch_dir/lib/libtorch.so is missing; reinstalling" >&2
fi

echo "zero setup: installing $REQUIREMENTS into $venv (once; about 5 GB, a few minutes)" >&2

# Step 1: a usable Python.
python_bin="${ZERO_PYTHON:-python3}"
command -v "$python_bin" >/dev/null 2>&1 ||
    fail "find python3" "'$python_bin' is not on PATH." \
        "Install Python 3.10 or newer (Debian: apt-get install python3 python3-venv) or set ZERO_PYTHON."
"$python_bin" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
    fail "check python version" "$("$python_bin" --version 2>&1) is too old: torch $TORCH_VERSION needs Python 3.10+." \
        "Set ZERO_PYTHON to a newer interpreter."

# Step 2: room on disk.
mkdir -p "$cache" || fail "create cache directory" "could not create $cache; set ZERO_CACHE to a writable place."
free_kb=$(df -Pk "$cache" | awk 'NR==2 {print $4}')
if [[ -n "$free_kb" && "$free_kb" -lt $((MIN_FREE_GB * 1024 * 1024)) ]]; then
    fail "check disk space" "only $((free_kb / 1024 / 1024)) GB free under $cache; the torch wheel and its CUDA libraries need ${MIN_FREE_GB} GB." \
        "Free some space or set ZERO_CACHE to a larger disk (ZERO_SETUP_MIN_FREE_GB lowers the bar at your own risk)."
fi

# Step 3: a fresh venv. A venv without a marker is a leftover of an interrupted run and is never trusted: it is
# removed. A marked venv whose requirements changed is upgraded in place (pip's own cache makes that quick).
if [[ ! -f "$marker" ]]; then
    rm -rf "$venv"
fi
rm -f "$marker"
if [[ ! -x "$venv/bin/python" ]]; then
    rm -rf "$venv"
    mkdir -p "$home"
    "$python_bin" -m venv "$venv" 2>"$home/venv.log" ||
        fail "create venv" "'$python_bin -m venv $venv' failed:" "$(tail -n 3 "$home/venv.log")" \
            "Debian: apt-get install python3-venv"
fi

# Step 4: the packages. pip resumes cleanly over a partial earlier install.
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off $REQUIREMENTS \
    >"$home/pip.log" 2>&1; then
    if grep -qiE 'No space left' "$home/pip.log"; then
        fail "pip install" "the disk filled up while installing; free space under $cache and run again."
    elif grep -qiE 'NewConnectionError|Connection refused|Failed to establish|Name or service|Temporary failure in name resolution|timed out|ProxyError|SSLError|from versions: none' "$home/pip.log"; then
        fail "pip install" "could not reach the Python package registry (PyPI), or it offers no torch $TORCH_VERSION wheel for this platform:" \
            "$(grep -iE 'error|warning' "$home/pip.log" | tail -n 3)" \
            "Check network access (or PIP_INDEX_URL for a mirror) and run again."
    else
        fail "pip install" "pip failed; last lines of $home/pip.log:" "$(tail -n 5 "$home/pip.log")"
    fi
fi

# Step 5: verify what was installed, and find libtorch.
got=$("$venv/bin/python" -c 'import torch, os; print(torch.__version__); print(os.path.dirname(torch.__file__)); print(int(torch._C._GLIBCXX_USE_CXX11_ABI))' 2>"$home/verify.log") ||
    fail "import torch" "the installed torch does not import:" "$(tail -n 3 "$home/verify.log")" "Delete $home and run again."
version=$(sed -n 1p <<<"$got")
torch_dir=$(sed -n 2p <<<"$got")
abi=$(sed -n 3p <<<"$got")
[[ "${version%%+*}" == "$TORCH_VERSION" ]] ||
    fail "check torch version" "found torch $version, need $TORCH_VERSION (tch 0.26 links only against it)." "Delete $home and run again."
[[ -f "$torch_dir/lib/libtorch.so" ]] || fail "find libtorch" "$torch_dir/lib/libtorch.so does not exist."
"$venv/bin/python" -c 'import pyarrow, numpy, pandas, duckdb' 2>>"$home/verify.log" || fail "import pyarrow, pandas, duckdb" "$(tail -n 3 "$home/verify.log")"

# Only now is the venv trusted.
printf '%s\nversion=%s\ntorch_dir=%s\ncxx11_abi=%s\n' "$want_marker" "$version" "$torch_dir" "$abi" >"$marker.tmp"
mv "$marker.tmp" "$marker"
write_cargo_config "$torch_dir" "$abi"
echo "zero setup: torch $version ready in $venv" >&2
exit 0
