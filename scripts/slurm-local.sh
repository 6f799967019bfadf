#!/usr/bin/env bash
# A single-node Slurm cluster in a folder of its own, for the Slurm test tier (tests/cluster.rs) and the cluster
# measurements (scripts/cluster-campaign.py):
#
#   scripts/slurm-local.sh start DIR   # munged, slurmctld and slurmd with a generated DIR/slurm.conf; waits until
#                                      # the node is idle, then prints SLURM_CONF=DIR/slurm.conf
#   scripts/slurm-local.sh stop DIR    # cancels every job and stops the three daemons it started
#
# Commands of that cluster need SLURM_CONF=DIR/slurm.conf in their environment. It needs the Debian packages
# slurm-wlm and munge (scripts/setup-slurm.sh installs them) and root (the daemons run as root).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(realpath -m "$2")

start() {
    local missing=()
    for program in munged slurmctld slurmd sbatch squeue scancel sinfo; do
        command -v "$program" >/dev/null || missing+=("$program")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "Slurm is not installed here (missing ${missing[*]}): scripts/setup-slurm.sh installs the Debian" \
            "packages slurm-wlm and munge, which needs apt-get and root" >&2
        exit 1
    fi
    mkdir -p "$dir"/{munge,state,spool,log}
    # A fixed key: the cluster lives in this folder only, and no other host ever joins it.
    python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 7 + 13) % 256 for i in range(1024)))' \
        >"$dir/munge/munge.key"
    chmod 400 "$dir/munge/munge.key"
    chmod 711 "$dir/munge"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/sock" --pid-file="$dir/munge/pid" \
        --log-file="$dir/munge/log" --seed-file="$dir/munge/seed"
    local host cpus
    host=$(hostname -s)
    cpus=$(nproc)
    cat >"$dir/slurm.conf" <<EOF
ClusterName=zerotest
SlurmctldHost=$host
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/sock
SlurmUser=root
SlurmdUser=root
SlurmctldPort=26817
SlurmdPort=26818
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    for _ in $(seq 1 450); do
        if [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; then
            echo "SLURM_CONF=$SLURM_CONF"
            return
        fi
        sleep 0.2
    done
    echo "the Slurm node of $dir did not become idle in 90 s; logs in $dir/log" >&2
    exit 1
}

stop() {
    SLURM_CONF="$dir/slurm.conf" scancel --user=root 2>/dev/null || true
    for pid_file in slurmd.pid slurmctld.pid munge/pid; do
        if [ -f "$dir/$pid_file" ]; then
            kill -TERM "$(cat "$dir/$pid_file")" 2>/dev/null || true
        fi
    done
    sleep 1
}

case "$action" in
    start) start ;;
    stop) stop ;;
    *) usage ;;
esac
