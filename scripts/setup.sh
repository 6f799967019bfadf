#!/usr/bin/env bash
# One-time, idempotent set-up for zero: the libtorch that the `tch` crate builds and links against, taken from
# the PyPI torch wheel, and (with --python) the Python environment of the tests. Every README command runs this
# first.
#
#   scripts/setup.sh            libtorch only (what `make run` needs); silent on the fast path
#   scripts/setup.sh --python   also the venv with torch and the Python packages the tests use (`make test`)
#
# The PyPI wheel is a CUDA build. On a machine with an NVIDIA GPU, libtorch is the wheel installed with its CUDA
# libraries into the venv. Without one, only libtorch's CPU part is unpacked from the downloaded wheels into
# $ZERO_CACHE/libtorch-2.13.0-cpu (scripts/cpu-libtorch.py: 0.5 GB instead of 5.3 GB, no CUDA library but the two
# small ones libtorch_cpu.so names as needed); the --python venv still installs the whole wheel, since Python's
# `import torch` loads the CUDA libraries. ZERO_SETUP_CUDA=1 or 0 overrides the detection.
#
# Everything lives outside the repository, under $ZERO_CACHE (default ~/.cache/zero). Each part is trusted only
# when the marker file `complete` beside it names the exact requirements it was verified with: an interrupted
# install leaves no marker, and the next run wipes the half-built part and starts again instead of trusting it.
set -euo pipefail

TORCH_VERSION="2.13.0"   # tch 0.26 requires exactly this libtorch
# Everything the project's Python side needs: pyarrow, pandas and duckdb (the data tests read zero's Parquet shards
# with them and run every query of docs/data.md), tensorboard (a test reads the run's event files with it),
# onnxruntime (the ONNX export's reference), maturin and pytest (the Python package `zero`: its wheel is built
# and its suite run by scripts/python-package.sh), gymnasium and pettingzoo (the package's environments are checked
# with their own checkers) and pydraughts (a test reads zero's Bashni PDN with it).
REQUIREMENTS="torch==${TORCH_VERSION} numpy pyarrow pandas duckdb tensorboard onnxruntime maturin pytest gymnasium pettingzoo pydraughts"
# Room each part needs; ZERO_SETUP_MIN_FREE_GB overrides it (the set-up tests exercise later steps on small
# scratch disks).
MIN_FREE_GB_VENV=8       # the whole wheel with its CUDA libraries, and the Python packages
MIN_FREE_GB_CPU=2        # the downloaded wheels (0.5 GB) and what is unpacked from them (0.5 GB)
if [[ -n "${ZERO_SETUP_MIN_FREE_GB:-}" && ! "$ZERO_SETUP_MIN_FREE_GB" =~ ^[0-9]+$ ]]; then
    echo "zero setup: FAILED at step: read settings" >&2
    echo "  ZERO_SETUP_MIN_FREE_GB='$ZERO_SETUP_MIN_FREE_GB' is not a whole number of GB" >&2
    exit 1
fi
case "${1:-}" in
    "") want_python=0 ;;
    --python) want_python=1 ;;
    *) echo "zero setup: FAILED at step: read arguments" >&2; echo "  unknown argument '$1' (expected --python or nothing)" >&2; exit 1 ;;
esac

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${ZERO_CACHE:-$HOME/.cache/zero}"
home="$cache/torch-$TORCH_VERSION"
venv="$home/venv"
marker="$home/complete"
cpu_dir="$cache/libtorch-$TORCH_VERSION-cpu"
cpu_marker="$cpu_dir/complete"

fail() {
    echo "zero setup: FAILED at step: $1" >&2
    shift
    for line in "$@"; do echo "  $line" >&2; done
    exit 1
}

# Whether libtorch should be the CUDA build: ZERO_SETUP_CUDA=1/0, else whether an NVIDIA driver is loaded.
use_cuda() {
    case "${ZERO_SETUP_CUDA:-auto}" in
        1 | yes) return 0 ;;
        0 | no) return 1 ;;
        auto) [[ -e /proc/driver/nvidia/version ]] || nvidia-smi -L >/dev/null 2>&1 ;;
        *) fail "read settings" "ZERO_SETUP_CUDA='$ZERO_SETUP_CUDA' is not 1, 0 or auto" ;;
    esac
}

# The build environment, written into the checkout's .cargo/config.toml (ignored by git) so that plain `cargo build`,
# `cargo test` and `cargo clippy` find libtorch with nothing exported by hand. [env] reaches build scripts and the
# test binaries cargo runs, not only rustc. The Python lines are there once the venv is.
write_cargo_config() {
    local torch_dir="$1" abi="$2" config="$repo/.cargo/config.toml"
    local want python_lines=""
    if [[ -f "$marker" ]]; then
        python_lines=$(cat <<PYTHON
# Tests that read zero's files from Python use this interpreter.
ZERO_VENV_PYTHON = "$venv/bin/python"
# The Python package's PyO3 build: this interpreter, and no link against libpython (an extension module takes
# Python's symbols from the interpreter that loads it), also when cargo builds the whole workspace.
PYO3_PYTHON = "$venv/bin/python"
PYO3_BUILD_EXTENSION_MODULE = "1"
PYTHON
)
    fi
    want=$(cat <<CONFIG
# Written by scripts/setup.sh; do not edit (it is rewritten when the set-up changes).
[env]
# torch-sys builds against this libtorch (the PyPI wheel's, whole or its CPU part).
LIBTORCH = "$torch_dir"
LIBTORCH_CXX11_ABI = "$abi"
# libtorch's OpenMP busy-waits by default, which makes 2 threads many times slower than 1 on a loaded small
# machine; it must be in the environment before the process starts (the zero binary also sets it for itself).
OMP_WAIT_POLICY = "PASSIVE"
$python_lines
CONFIG
)
    if [[ ! -f "$config" || "$(cat "$config")" != "$want" ]]; then
        mkdir -p "$repo/.cargo"
        printf '%s\n' "$want" >"$config.tmp" && mv "$config.tmp" "$config"
    fi
}

# A python3 of version 3.10 or newer, in $python_bin.
find_python() {
    python_bin="${ZERO_PYTHON:-python3}"
    command -v "$python_bin" >/dev/null 2>&1 ||
        fail "find python3" "'$python_bin' is not on PATH." \
            "Install Python 3.10 or newer (Debian: apt-get install python3 python3-venv) or set ZERO_PYTHON."
    "$python_bin" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
        fail "check python version" "$("$python_bin" --version 2>&1) is too old: torch $TORCH_VERSION needs Python 3.10+." \
            "Set ZERO_PYTHON to a newer interpreter."
}

# Stops unless the cache's disk has $1 GB free (ZERO_SETUP_MIN_FREE_GB instead, when set); $2 says for what.
check_disk() {
    local need="${ZERO_SETUP_MIN_FREE_GB:-$1}" free_kb
    mkdir -p "$cache" || fail "create cache directory" "could not create $cache; set ZERO_CACHE to a writable place."
    free_kb=$(df -Pk "$cache" | awk 'NR==2 {print $4}')
    if [[ -n "$free_kb" && "$free_kb" -lt $((need * 1024 * 1024)) ]]; then
        fail "check disk space" "only $((free_kb / 1024 / 1024)) GB free under $cache; $2 need ${need} GB." \
            "Free some space or set ZERO_CACHE to a larger disk (ZERO_SETUP_MIN_FREE_GB lowers the bar at your own risk)."
    fi
}

# Explains a failed pip run whose log is $2, at step $1.
pip_failed() {
    if grep -qiE 'No space left' "$2"; then
        fail "$1" "the disk filled up while installing; free space under $cache and run again."
    elif grep -qiE 'NewConnectionError|Connection refused|Failed to establish|Name or service|Temporary failure in name resolution|timed out|ProxyError|SSLError|from versions: none' "$2"; then
        fail "$1" "could not reach the Python package registry (PyPI), or it offers no torch $TORCH_VERSION wheel for this platform:" \
            "$(grep -iE 'error|warning' "$2" | tail -n 3)" \
            "Check network access (or PIP_INDEX_URL for a mirror) and run again."
    else
        fail "$1" "pip failed; last lines of $2:" "$(tail -n 5 "$2")"
    fi
}

# A venv at $1 with pip (Debian needs python3-venv for it).
make_venv() {
    mkdir -p "$(dirname "$1")"
    "$python_bin" -m venv "$1" 2>"$1.log" ||
        fail "create venv" "'$python_bin -m venv $1' failed:" "$(tail -n 3 "$1.log")" "Debian: apt-get install python3-venv"
    rm -f "$1.log"
}

# The venv: the whole torch wheel with its CUDA libraries and every Python package the project uses.
install_venv() {
    local want="requirements=$REQUIREMENTS" got version abi
    if [[ -f "$marker" && "$(head -n1 "$marker")" == "$want" && -x "$venv/bin/python" &&
        -f "$(sed -n 's/^torch_dir=//p' "$marker")/lib/libtorch.so" ]]; then
        return 0
    fi
    [[ -f "$marker" ]] && echo "zero setup: $venv is out of date or incomplete; installing again" >&2
    echo "zero setup: installing $REQUIREMENTS into $venv (once; about 5 GB, a few minutes)" >&2
    find_python
    check_disk "$MIN_FREE_GB_VENV" "the torch wheel, its CUDA libraries and the Python packages"
    # A venv without a marker is a leftover of an interrupted run and is never trusted: it is removed. A marked
    # venv whose requirements changed is upgraded in place (pip's own cache makes that quick).
    [[ -f "$marker" ]] || rm -rf "$venv"
    rm -f "$marker"
    [[ -x "$venv/bin/python" ]] || { rm -rf "$venv"; make_venv "$venv"; }
    # pip resumes cleanly over a partial earlier install.
    "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off $REQUIREMENTS \
        >"$home/pip.log" 2>&1 || pip_failed "pip install" "$home/pip.log"
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
    printf '%s\nversion=%s\ntorch_dir=%s\ncxx11_abi=%s\n' "$want" "$version" "$torch_dir" "$abi" >"$marker.tmp"
    mv "$marker.tmp" "$marker"
    echo "zero setup: torch $version ready in $venv" >&2
}

# libtorch's CPU part, unpacked from the downloaded wheels (no install, no CUDA library but the two that
# libtorch_cpu.so names) into $cpu_dir, which is assembled beside it and renamed into place when it loads.
install_cpu_libtorch() {
    local want="torch==$TORCH_VERSION cpu" tmp="$cpu_dir.tmp"
    if [[ -f "$cpu_marker" && "$(cat "$cpu_marker")" == "$want" ]]; then
        return 0
    fi
    echo "zero setup: unpacking libtorch $TORCH_VERSION's CPU part into $cpu_dir (once; 0.5 GB, about a minute)" >&2
    find_python
    check_disk "$MIN_FREE_GB_CPU" "the torch wheel and libtorch's CPU part"
    rm -rf "$tmp" "$cpu_dir"
    mkdir -p "$tmp"
    make_venv "$tmp/pip-venv"
    local pip=("$tmp/pip-venv/bin/python" -m pip download --disable-pip-version-check --no-input --progress-bar off
        --only-binary=:all: -d "$tmp/wheels")
    "${pip[@]}" --no-deps "torch==$TORCH_VERSION" >"$tmp/pip.log" 2>&1 || pip_failed "pip download" "$tmp/pip.log"
    # The CUDA runtime and CUPTI at the versions this torch pins (its cuda-toolkit requirement).
    local toolkit
    toolkit=$("$python_bin" -c 'import sys, zipfile, glob, re
w = zipfile.ZipFile(glob.glob(sys.argv[1] + "/torch-*.whl")[0])
meta = next(n for n in w.namelist() if n.endswith(".dist-info/METADATA"))
m = re.search(r"^Requires-Dist: cuda-toolkit\[[^]]*\]==([0-9.]+)", w.read(meta).decode(), re.M)
print(m.group(1) if m else "")' "$tmp/wheels") || fail "read the torch wheel" "$tmp/wheels holds no readable torch wheel."
    [[ -n "$toolkit" ]] || fail "read the torch wheel" "the torch wheel names no cuda-toolkit version."
    "${pip[@]}" "cuda-toolkit[cudart,cupti]==$toolkit" >>"$tmp/pip.log" 2>&1 || pip_failed "pip download" "$tmp/pip.log"
    "$python_bin" "$repo/scripts/cpu-libtorch.py" "$tmp/wheels" "$tmp/libtorch" 2>"$tmp/unpack.log" ||
        fail "unpack libtorch" "$(tail -n 3 "$tmp/unpack.log")"
    "$python_bin" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$tmp/libtorch/lib/libtorch_cpu.so" 2>"$tmp/verify.log" ||
        fail "load libtorch" "libtorch_cpu.so does not load:" "$(tail -n 3 "$tmp/verify.log")"
    mv "$tmp/libtorch" "$cpu_dir"
    rm -rf "$tmp"
    echo "$want" >"$cpu_marker"
    echo "zero setup: libtorch $(cat "$cpu_dir/build-version") (CPU part) ready in $cpu_dir" >&2
}

# Decided once: the detection may run nvidia-smi.
cuda=0
use_cuda && cuda=1
if [[ "$want_python" == 1 || "$cuda" == 1 ]]; then
    install_venv
fi
if [[ "$cuda" == 1 ]]; then
    write_cargo_config "$(sed -n 's/^torch_dir=//p' "$marker")" "$(sed -n 's/^cxx11_abi=//p' "$marker")"
else
    install_cpu_libtorch
    write_cargo_config "$cpu_dir" "$(cat "$cpu_dir/cxx11-abi")"
fi
exit 0
