#!/usr/bin/env python3
"""Followers launched by `zero run` ([cluster]), locally or on Slurm, killed at random; or measured.

    python3 scripts/cluster-campaign.py --launcher slurm --kills 20 --run-dir /tmp/cc-slurm [--seed 1]
    python3 scripts/cluster-campaign.py --launcher local --measure --run-dir /tmp/cc-local

Both start a short real run on the quick Bagh Chal config with two followers (`cluster.followers = 2`, one
self-play thread each). With `--launcher slurm` the followers are a job array on a single-node Slurm cluster that
the script starts in RUN_DIR-slurm (scripts/slurm-local.sh) and stops at the end.

Kills (the default): until it has killed `--kills` followers, it waits a random 1-5 s and kills one of the
launched followers (SIGKILL of the process, or `scancel` of the Slurm task); once, at a random moment among them,
it kills the run itself with SIGKILL and starts it again (the resumed run adopts the live followers). Each time, it
notes the complete follower shards in data/. Then it lets the run finish and checks:

- the run exits 0, and `zero check RUN_DIR` finds nothing wrong (every shard readable, no game counted twice);
- every generation has exactly one summary and holds at least the games the config asks for;
- every follower shard ever seen complete is still there (followers' shards are never merged or removed);
- no follower process is left and no job queued; it says how many killed followers the run saw failing and
  started again (a follower killed as a session ends is cancelled by it instead).

--measure: no kills; the run plays its generations (`--generations`, default 4) and the script prints the games
per second its followers played together in the generations that play with a network (1 and later): their games
there over the span between the first and the last of their shards.

It exits 1 on any failure. Results are in docs/cluster.md.
"""

import argparse
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import finished_run

ROOT = pathlib.Path(__file__).resolve().parent.parent


def settings(launcher, generations, games, poll_seconds=0.5):
    return [
        f"run.generations={generations}",
        f"run.games_per_generation={games}",
        "run.eval_games=4",
        "run.eval_openings=4",
        "run.eval_equal_time_games=0",
        "selfplay.games_in_flight=4",
        "selfplay.workers=1",
        f'cluster.launcher="{launcher}"',
        "cluster.followers=2",
        "cluster.follower_workers=1",
        "cluster.follower_batch_games=4",
        f"cluster.poll_seconds={poll_seconds}",
        "cluster.restart_backoff_seconds=0.5",
        "cluster.max_restarts=100",
        "cluster.slurm.cpus_per_task=1",
    ]


def start_run(zero, run_dir, sets, log, env):
    args = [zero, "run", str(ROOT / "configs" / "baghchal-quick.toml"), "--run-dir", run_dir]
    for s in sets:
        args += ["--set", s]
    return subprocess.Popen(args, stdout=log, stderr=log, env=env)


def launched(run_dir):
    try:
        return json.loads((pathlib.Path(run_dir) / "cluster.json").read_text())
    except (OSError, ValueError):
        return {}


def follower_shards(run_dir):
    """The complete follower shards of data/: both halves in place."""
    data = pathlib.Path(run_dir) / "data"
    names = {p.name for p in data.iterdir()} if data.exists() else set()
    return {n for n in names if "-follow-" in n and n.endswith(".positions.parquet")
            and n.replace(".positions.parquet", ".games.parquet") in names}


def follower_processes(run_dir):
    wanted = os.path.realpath(run_dir).encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--follow" in args and wanted in args:
            found.append(int(pid))
    return found


def kill_follower(launcher, job, env):
    if launcher == "local":
        try:
            os.kill(int(job), signal.SIGKILL)
        except ProcessLookupError:
            return False
        return True
    return subprocess.run(["scancel", job], env=env, capture_output=True).returncode == 0


class Cluster:
    """A single-node Slurm cluster of scripts/slurm-local.sh (nothing for local followers)."""

    def __init__(self, launcher, run_dir):
        self.dir = f"{run_dir}-slurm" if launcher == "slurm" else None
        self.env = dict(os.environ)
        if self.dir:
            subprocess.run([str(ROOT / "scripts" / "slurm-local.sh"), "start", self.dir], check=True,
                           stdout=subprocess.DEVNULL)
            self.env["SLURM_CONF"] = f"{self.dir}/slurm.conf"

    def queue(self):
        if not self.dir:
            return ""
        return subprocess.run(["squeue", "-h", "-r"], env=self.env, capture_output=True, text=True).stdout.strip()

    def stop(self):
        if self.dir:
            subprocess.run([str(ROOT / "scripts" / "slurm-local.sh"), "stop", self.dir])


def check_run(args, run_dir, code, sets, games, seen, cluster, killed):
    failures = finished_run.failures_of(args.zero, run_dir, code, int(sets[0].split("=")[1]), games)
    gone = seen - follower_shards(run_dir)
    if gone:
        failures.append(f"{len(gone)} follower shards seen complete are gone: {sorted(gone)[:3]}")
    log = pathlib.Path(f"{run_dir}.log").read_text(errors="replace")
    noticed = [job for job in killed if any(f"{job} (slot" in line and "failed" in line for line in log.splitlines())]
    time.sleep(2)
    if follower_processes(run_dir):
        failures.append(f"follower processes left: {follower_processes(run_dir)}")
    if cluster.queue():
        failures.append(f"jobs left in the queue: {cluster.queue()}")
    print(f"{len(seen)} follower shards seen complete, all kept; {len(noticed)} of the {len(killed)} killed "
          "followers seen failing and started again (the others were killed as their session ended)")
    return failures


def campaign(args, cluster):
    rng = random.Random(args.seed)
    run_dir, games = args.run_dir, 40
    sets = settings(args.launcher, 6, games)
    log = open(f"{run_dir}.log", "w")
    run = start_run(args.zero, run_dir, sets, log, cluster.env)
    leader_kill_at = rng.randrange(args.kills // 4, max(args.kills * 3 // 4, 1))
    kills, seen, tried, killed = 0, set(), set(), set()
    while kills < args.kills:
        time.sleep(rng.uniform(1.0, 5.0))
        seen |= follower_shards(run_dir)
        if run.poll() is not None:
            if run.returncode != 0:
                sys.exit(f"the run failed on its own (exit {run.returncode}); see {run_dir}.log")
            sets[0] = "run.generations=%d" % (int(sets[0].split("=")[1]) + 2)
            run = start_run(args.zero, run_dir, sets, log, cluster.env)
            continue
        if kills == leader_kill_at:
            run.send_signal(signal.SIGKILL)
            run.wait()
            print(f"kill {kills + 1:3}: the run itself", flush=True)
            leader_kill_at = -1
            run = start_run(args.zero, run_dir, sets, log, cluster.env)
            continue
        # Each launched follower once: one already killed may still be listed as running until the next look.
        live = [f for f in launched(run_dir).get("followers", [])
                if f.get("state") == "running" and f["job"] not in tried]
        if not live:
            continue
        victim = rng.choice(live)
        tried.add(victim["job"])
        if kill_follower(args.launcher, victim["job"], cluster.env):
            killed.add(victim["job"])
            kills += 1
            print(f"kill {kills:3}: follower {victim['job']} (slot {victim['slot']})", flush=True)
    code = run.wait()
    seen |= follower_shards(run_dir)
    return check_run(args, run_dir, code, sets, games, seen, cluster, killed)


def measure(args, cluster):
    run_dir = args.run_dir
    # The default look every 10 s (the kills above look every 0.5 s to restart followers quickly).
    sets = settings(args.launcher, args.generations, 40, poll_seconds=10)
    with open(f"{run_dir}.log", "w") as log:
        code = start_run(args.zero, run_dir, sets, log, cluster.env).wait()
    if code != 0:
        return [f"the run exited {code}; see {run_dir}.log"]
    # Generation 0 plays with random rollouts, far faster than with a network, and a follower that starts later
    # (Slurm schedules it) plays fewer of those games: the rate is taken over the generations played with a network.
    status = json.loads(subprocess.run([args.zero, "status", "--json", run_dir], capture_output=True,
                                       text=True, check=True).stdout)
    games = sum(p["games"] for g in status["selfplay"] if g["generation"] >= 1
                for p in g["producers"] if p["producer"].startswith("follow-"))
    times = [p.stat().st_mtime for p in (pathlib.Path(run_dir) / "data").glob("g*-follow-*.positions.parquet")
             if int(p.name[1:5]) >= 1]
    seconds = max(times) - min(times)
    print(f"{args.launcher} followers: {games} games of generations 1-{args.generations - 1} in {seconds:.1f} s, "
          f"{games / seconds:.3f} games/s together")
    return []


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launcher", choices=["local", "slurm"], required=True)
    parser.add_argument("--run-dir", required=True)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--generations", type=int, default=4, help="with --measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--zero", default="target/release/zero")
    args = parser.parse_args()
    if os.path.exists(args.run_dir):
        sys.exit(f"{args.run_dir} exists: give a fresh directory")
    cluster = Cluster(args.launcher, args.run_dir)
    try:
        failures = measure(args, cluster) if args.measure else campaign(args, cluster)
    finally:
        cluster.stop()
    for failure in failures:
        print(f"FAILED: {failure}")
    if failures:
        sys.exit(1)
    if not args.measure:
        print("ok: no finished game lost or counted twice, every resume clean, nothing left running or queued")


if __name__ == "__main__":
    main()
