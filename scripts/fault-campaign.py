#!/usr/bin/env python3
"""Kill a training run and its follower with SIGKILL at random moments, many times, and check that nothing was
lost or counted twice.

    python3 scripts/fault-campaign.py --kills 100 --run-dir /tmp/fault-run [--seed 1] [--zero target/release/zero]

It starts `zero run` on the quick Bagh Chal config (small generations, so that every phase is hit often) with
one follower (`zero selfplay --follow`), and until it has killed the run `--kills` times: waits a random 0.2-6 s,
sends SIGKILL to the run (and to the follower one time in three), and starts what it killed again. Then it lets
the run finish and checks:

- `zero check RUN_DIR` finds nothing wrong: every shard and checkpoint readable, no game counted twice, the state
  consistent with the records;
- every generation has exactly one summary in generations.jsonl, and a checkpoint;
- every generation holds at least the games the config asks for.

It prints one line per kill (the phase it hit) and a summary, and exits 1 on any failure. The latest results
are in docs/reliability.md.
"""

import argparse
import collections
import json
import os
import pathlib
import random
import signal
import subprocess
import sys
import time

import finished_run

SETTINGS = [
    "run.generations=6",
    "run.games_per_generation=40",
    "run.eval_games=4",
    "run.eval_openings=4",
    "run.eval_equal_time_games=0",
    "selfplay.games_in_flight=4",
]


def start_run(zero, config, run_dir, log):
    args = [zero, "run", config, "--run-dir", run_dir]
    for s in SETTINGS:
        args += ["--set", s]
    return subprocess.Popen(args, stdout=log, stderr=log)


def start_follower(zero, run_dir, log):
    return subprocess.Popen([zero, "selfplay", "--follow", run_dir, "--games", "4", "--workers", "1"],
                            stdout=log, stderr=log)


def state_of(run_dir):
    try:
        state = json.loads((pathlib.Path(run_dir) / "state.json").read_text())
        return f"gen {state['generation']} {state['phase']}"
    except (OSError, ValueError, KeyError):
        return "no state yet"


def kill(process):
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait()


def campaign(args):
    rng = random.Random(args.seed)
    root = pathlib.Path(__file__).resolve().parent.parent
    config = str(root / "configs" / "baghchal-quick.toml")
    run_dir = args.run_dir
    if os.path.exists(run_dir):
        sys.exit(f"{run_dir} exists: give a fresh directory")
    log = open(f"{run_dir}.log", "w")
    run = start_run(args.zero, config, run_dir, log)
    time.sleep(3)  # the run writes its config before the follower reads it
    follower = start_follower(args.zero, run_dir, log)
    hits = collections.Counter()
    kills = 0
    while kills < args.kills:
        time.sleep(rng.uniform(0.2, 6.0))
        if run.poll() is not None:
            # Finished before all the kills: go on past the planned end so that there is more to kill.
            if run.returncode != 0:
                sys.exit(f"the run failed on its own (exit {run.returncode}); see {run_dir}.log")
            SETTINGS[0] = "run.generations=%d" % (int(SETTINGS[0].split("=")[1]) + 2)
            run = start_run(args.zero, config, run_dir, log)
            continue
        where = state_of(run_dir)
        kill(run)
        kills += 1
        hits[where.split()[-1]] += 1
        also = ""
        if rng.random() < 1 / 3:
            kill(follower)
            follower = start_follower(args.zero, run_dir, log)
            also = " and the follower"
        print(f"kill {kills:3}: the run{also} during {where}", flush=True)
        run = start_run(args.zero, config, run_dir, log)
    code = run.wait()
    kill(follower)
    failures = finished_run.failures_of(args.zero, run_dir, code, int(SETTINGS[0].split("=")[1]), 40)
    print(f"{kills} kills: " + ", ".join(f"{n} in {phase}" for phase, n in sorted(hits.items())))
    for failure in failures:
        print(f"FAILED: {failure}")
    if failures:
        sys.exit(1)
    print("ok: no game or checkpoint lost, none counted twice, every resume clean")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--run-dir", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--zero", default="target/release/zero")
    campaign(parser.parse_args())


if __name__ == "__main__":
    main()
