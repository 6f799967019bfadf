"""What the kill campaigns (scripts/fault-campaign.py, scripts/cluster-campaign.py) check of a run once it has
finished: nothing lost, nothing counted twice."""

import json
import pathlib
import subprocess


def failures_of(zero, run_dir, exit_code, generations, games):
    """The failures of a finished run, as sentences: its exit status; `zero check` (every shard and checkpoint
    readable, no game counted twice); each of `generations` generations with exactly one summary, a checkpoint,
    and at least `games` games."""
    failures = []
    if exit_code != 0:
        failures.append(f"the last run exited {exit_code}")
    check = subprocess.run([zero, "check", run_dir], capture_output=True, text=True)
    print(check.stdout, end="")
    if check.returncode != 0:
        failures.append("zero check found problems")
    lines = (pathlib.Path(run_dir) / "generations.jsonl").read_text().splitlines()
    summaries = [json.loads(line) for line in lines if line.strip()]
    for g in range(1, generations + 1):
        n = sum(1 for s in summaries if s["generation"] == g)
        if n != 1:
            failures.append(f"generation {g} has {n} summaries")
        if not (pathlib.Path(run_dir) / "checkpoints" / f"gen-{g:04}.safetensors").exists():
            failures.append(f"generation {g} has no checkpoint")
    failures += [f"generation {s['generation']} holds {s['games']} games, fewer than {games}"
                 for s in summaries if s["games"] < games]
    return failures
