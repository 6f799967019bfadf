#!/usr/bin/env bash
# The Slurm test tier's set-up (tests/cluster.rs): installs Slurm and munge from the Debian packages slurm-wlm and
# munge when their programs are missing. Idempotent and silent once they are there. The test starts its own
# single-node cluster in a temporary directory; nothing is configured or started here.
#
#   scripts/setup-slurm.sh
#
# Where they cannot be installed (no apt-get, not root, no network), this says why and exits 0: the test then
# fails with that reason instead of being skipped.
set -uo pipefail

programs=(munged slurmctld slurmd sbatch squeue scancel sinfo)
missing=()
for p in "${programs[@]}"; do
    command -v "$p" >/dev/null 2>&1 || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

why=""
if ! command -v apt-get >/dev/null 2>&1; then
    why="apt-get is not available"
elif [[ "$(id -u)" != 0 ]]; then
    why="installing packages needs root"
else
    echo "zero setup: installing slurm-wlm and munge (missing: ${missing[*]})" >&2
    log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } >"$log" 2>&1; then
        why="apt-get failed: $(tail -n 3 "$log" | tr '\n' ' ')"
    fi
    rm -f "$log"
fi
if [[ -n "$why" ]]; then
    echo "zero setup: WARNING: Slurm and munge are missing (${missing[*]}) and were not installed: $why." >&2
    echo "  tests/cluster.rs will fail until they are (apt-get install slurm-wlm munge)." >&2
fi
exit 0
