#!/usr/bin/env bash
# Idempotent set-up of the OpenSpiel peer: a venv of its own holding open_spiel 2.0.2 and the JAX stack its Python
# AlphaZero needs, every package pinned in scripts/peers/requirements-openspiel.txt.
#
#   scripts/peers/setup-openspiel.sh      install (once) and verify; prints the venv's python on stdout
#
# The venv lives at ${ZERO_CACHE:-$HOME/.cache/zero}/peers/openspiel-venv, beside the project's own set-up
# (scripts/setup.sh). It is trusted only when its marker file names the SHA-256 of the requirements file it was
# verified with: an interrupted install leaves no marker, and the next run wipes the half-built venv and starts
# again; a changed requirements file reinstalls.
#
# Python: the interpreter scripts/setup.sh uses (ZERO_PYTHON, else python3 on PATH), which must be CPython 3.11
# because open_spiel 2.0.2's wheel is cp311; when python3 is another version, python3.11 or /usr/bin/python3.11 is
# tried instead.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/requirements-openspiel.txt"
cache="${ZERO_CACHE:-$HOME/.cache/zero}"
venv="$cache/peers/openspiel-venv"
marker="$venv/.zero-peer-complete"

fail() {
    echo "openspiel setup: FAILED at step: $1" >&2
    shift
    for line in "$@"; do echo "  $line" >&2; done
    exit 1
}

[[ -f "$requirements" ]] || fail "read requirements" "$requirements is missing."
want="requirements-sha256=$(sha256sum "$requirements" | cut -d' ' -f1)"

# Fast path: installed and verified with these exact requirements.
if [[ -f "$marker" && "$(head -n1 "$marker")" == "$want" && -x "$venv/bin/python" ]]; then
    echo "$venv/bin/python"
    exit 0
fi

# Step 1: a CPython 3.11.
is311() { "$1" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' >/dev/null 2>&1; }
python_bin=""
for candidate in "${ZERO_PYTHON:-python3}" python3.11 /usr/bin/python3.11; do
    if command -v "$candidate" >/dev/null 2>&1 && is311 "$candidate"; then
        python_bin="$("$candidate" -c 'import sys; print(sys.executable)')"   # the real interpreter, not a shim
        break
    fi
done
[[ -n "$python_bin" ]] ||
    fail "find python 3.11" "open_spiel 2.0.2 has a wheel for CPython 3.11 only (cp311); none of ${ZERO_PYTHON:-python3}, python3.11, /usr/bin/python3.11 is one." \
        "Debian: apt-get install python3.11 python3.11-venv, or set ZERO_PYTHON."

echo "openspiel setup: installing open_spiel and its AlphaZero's JAX stack into $venv with $python_bin (once; about 800 MB)" >&2

# Step 2: a fresh venv (an unmarked one is a leftover of an interrupted run and is not trusted).
mkdir -p "$cache/peers" || fail "create cache directory" "could not create $cache/peers; set ZERO_CACHE to a writable place."
rm -rf "$venv"
"$python_bin" -m venv "$venv" 2>"$cache/peers/openspiel-venv.log" ||
    fail "create venv" "'$python_bin -m venv $venv' failed:" "$(tail -n 3 "$cache/peers/openspiel-venv.log")" \
        "Debian: apt-get install python3.11-venv"

# Step 3: the pinned packages (binary wheels only: nothing is compiled here).
log="$venv/pip.log"
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off --only-binary=:all: \
    -r "$requirements" >"$log" 2>&1; then
    fail "pip install" "pip failed; last lines of $log:" "$(tail -n 5 "$log")" \
        "Check access to PyPI (or PIP_INDEX_URL for a mirror) and run again."
fi

# Step 4: verify that the AlphaZero imports and the versions are the pinned ones.
"$venv/bin/python" - "$requirements" >"$venv/verify.log" 2>&1 <<'PY' ||
import sys
from importlib import metadata
import pyspiel
from open_spiel.python.algorithms.alpha_zero import alpha_zero, evaluator, model_linen  # noqa: F401
assert pyspiel.load_game("connect_four").num_distinct_actions() == 7
bad = []
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, version = line.split("==")
    got = metadata.version(name)
    if got != version:
        bad.append(f"{name}: want {version}, got {got}")
if bad:
    sys.exit("version mismatch: " + "; ".join(bad))
PY
    fail "verify" "the installed AlphaZero does not import or has other versions than pinned:" "$(tail -n 5 "$venv/verify.log")"

# Only now is the venv trusted.
printf '%s\npython=%s\n' "$want" "$("$venv/bin/python" --version 2>&1)" >"$marker.tmp"
mv "$marker.tmp" "$marker"
echo "openspiel setup: ready in $venv" >&2
echo "$venv/bin/python"
