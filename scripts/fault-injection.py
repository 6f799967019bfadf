#!/usr/bin/env python3
"""Damage a finished training run in every way a disk or a person can, resume it, and check that each damage is
detected, named with its file in a clear error, and that the run goes on or stops cleanly without losing
anything it had.

    python3 scripts/fault-injection.py --work-dir /tmp/inject [--zero target/release/zero]

It makes a base run (the quick Bagh Chal config, 2 generations, small), then for each fault copies it, injects
the fault, and runs `zero run` on the copy for one more generation (and `zero check` on it). Each fault expects
one of two outcomes:

- goes on: the resumed run succeeds and its output names the damaged file (the trainer and the replay window
  skip a damaged shard), or, for a file training never reads (a games file), succeeds and leaves the naming to
  `zero check`;
- stops: the resumed run exits non-zero with an error naming the damaged file, and once the file is put back
  the same command succeeds.

Either way every file of the base run that was not damaged is still there, byte for byte, and `zero check`
names the damaged file while it is damaged. A full disk and a read-only directory are made with a small tmpfs
(root only: mount), filled or remounted read-only, and given room or write access back before the resume that
must succeed. Prints one line per fault and exits 1 on any failure. The latest results are in
docs/reliability.md.
"""

import argparse
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys

SETTINGS = [
    "run.games_per_generation=40",
    "run.eval_games=4",
    "run.eval_openings=4",
    "run.eval_equal_time_games=0",
    "selfplay.games_in_flight=4",
]


def zero_run(zero, config, run_dir, generations):
    args = [zero, "run", config, "--run-dir", str(run_dir), "--set", f"run.generations={generations}"]
    for s in SETTINGS:
        args += ["--set", s]
    done = subprocess.run(args, capture_output=True, text=True, errors="replace", timeout=1800)
    return done.returncode, done.stdout + done.stderr


def zero_check(zero, run_dir):
    done = subprocess.run([zero, "check", str(run_dir)], capture_output=True, text=True, errors="replace")
    return done.returncode, done.stdout + done.stderr


def digests(run_dir):
    """SHA-256 of every finished file of a run (temporaries, the lease and the report are not what is kept)."""
    out = {}
    for path in sorted(pathlib.Path(run_dir).rglob("*")):
        rel = str(path.relative_to(run_dir))
        if path.is_file() and ".zero-tmp-" not in rel and not rel.startswith("report") and not rel.startswith("lease"):
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def newest(run_dir, pattern):
    found = sorted(pathlib.Path(run_dir).glob(pattern))
    return found[-1]


def truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def flip(path):
    data = bytearray(path.read_bytes())
    middle = len(data) * 2 // 3
    for i in range(middle, min(middle + 16, len(data))):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


def edit_checkpoint_metadata(path):
    """An edit a person might make: a network size in the header, same length, so the file still parses."""
    data = path.read_bytes()
    # The metadata is a JSON string inside the header's JSON: its quotes are escaped.
    edited = data.replace(b'value_hidden\\":64', b'value_hidden\\":99', 1)
    assert edited != data, "no value_hidden of 64 in the checkpoint header"
    path.write_bytes(edited)


# (name, the file it damages (a glob, newest match), how, whether the run goes on or stops)
FILE_FAULTS = [
    ("truncated positions shard", "data/g0001-*-merged.parquet", truncate, "goes on"),
    ("corrupted positions shard", "data/g0001-*-merged.parquet", flip, "goes on"),
    # Training reads no games file: the run goes on without reading it; zero check names it.
    ("truncated games file", "data/g0001-*.games.parquet", truncate, "goes on unread"),
    ("truncated checkpoint", "checkpoints/gen-0002.safetensors", truncate, "stops"),
    ("corrupted checkpoint", "checkpoints/gen-0002.safetensors", flip, "stops"),
    ("edited checkpoint metadata", "checkpoints/gen-0002.safetensors", edit_checkpoint_metadata, "stops"),
    ("truncated trainer state", "checkpoints/gen-0002.train.safetensors", truncate, "stops"),
    ("corrupted trainer state", "checkpoints/gen-0002.train.safetensors", flip, "stops"),
    ("truncated state.json", "state.json", truncate, "stops"),
    ("corrupted config.toml", "config.toml", flip, "stops"),
]


def report(name, ok, verdict, out, needle, failures):
    """One line per fault, and under it the line of the run's output that names the damage."""
    if not ok:
        failures.append(f"{name}: {verdict}\n{out[-2000:]}")
    error_line = next((line for line in out.splitlines() if needle in line), "")
    print(f"{name:<28} {'ok' if ok else 'FAILED':<7} {verdict}\n{'':<36}{error_line.strip()[:160]}", flush=True)


def check_kept(before, run_dir, damaged, failures, name):
    after = digests(run_dir)
    for rel, digest in before.items():
        if rel == damaged or rel in ("state.json", "metrics.jsonl", "generations.jsonl", "config.toml"):
            continue  # the damaged file, and the records a successful resume appends to
        if after.get(rel) != digest:
            failures.append(f"{name}: {rel} was {'changed' if rel in after else 'lost'}")


def file_fault(args, base, fault, failures):
    name, pattern, damage, expected = fault
    run_dir = pathlib.Path(args.work_dir) / name.replace(" ", "-")
    shutil.copytree(base, run_dir)
    target = newest(run_dir, pattern)
    rel = str(target.relative_to(run_dir))
    original = target.read_bytes()
    before = digests(run_dir)
    damage(target)
    code, check_out = zero_check(args.zero, run_dir)
    if code == 0 or target.name not in check_out:
        failures.append(f"{name}: zero check did not name {rel} (exit {code})")
    code, out = zero_run(args.zero, args.config, run_dir, 3)
    named = target.name in out
    if expected == "goes on":
        ok = code == 0 and named
        verdict = f"went on, named {rel}" if ok else f"exit {code}, named: {named}"
    elif expected == "goes on unread":
        ok = code == 0
        verdict = f"went on (zero check named {rel})" if ok else f"exit {code}"
    else:
        ok = code != 0 and named
        verdict = f"stopped with exit {code} naming {rel}" if ok else f"exit {code}, named: {named}"
        target.write_bytes(original)
        again, again_out = zero_run(args.zero, args.config, run_dir, 3)
        if again != 0:
            ok = False
            verdict += f"; with the file put back it failed again: {again_out.strip().splitlines()[-1:]}"
    report(name, ok, verdict, out, target.name, failures)
    check_kept(before, run_dir, rel, failures, name)


def mount_tmpfs(path, size_mb, options=""):
    path.mkdir(parents=True, exist_ok=True)
    opts = f"size={size_mb}m" + (f",{options}" if options else "")
    subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)], check=True)


def remount(path, options):
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)


def disk_fault(args, base, name, failures):
    """A full disk or a read-only directory under the run, then room or write access back."""
    mount = pathlib.Path(args.work_dir) / name.replace(" ", "-")
    used_mb = sum(p.stat().st_size for p in pathlib.Path(base).rglob("*") if p.is_file()) // (1 << 20)
    mount_tmpfs(mount, used_mb + 64)
    try:
        run_dir = mount / "run"
        shutil.copytree(base, run_dir)
        before = digests(run_dir)
        if name == "full disk":
            # Everything but a few KiB taken: the next shard or checkpoint cannot be written.
            free = shutil.disk_usage(mount).free
            with open(mount / "filler", "wb") as f:
                f.write(b"\0" * max(free - 16 * 1024, 0))
            problem = "No space left"
        else:
            remount(mount, "ro")
            problem = "Read-only file system"
        code, out = zero_run(args.zero, args.config, run_dir, 3)
        ok = code != 0 and problem in out
        verdict = f"stopped with exit {code}: {problem}" if ok else f"exit {code}, '{problem}' named: {problem in out}"
        if name == "full disk":
            os.remove(mount / "filler")
        else:
            remount(mount, "rw")
        again, again_out = zero_run(args.zero, args.config, run_dir, 3)
        if again != 0:
            ok = False
            verdict += f"; with room back it failed again: {again_out.strip().splitlines()[-3:]}"
        code, check_out = zero_check(args.zero, run_dir)
        if code != 0:
            ok = False
            verdict += f"; zero check afterwards: {check_out.strip().splitlines()[-3:]}"
        report(name, ok, verdict, out, problem, failures)
        check_kept(before, run_dir, None, failures, name)
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--zero", default="target/release/zero")
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    args.config = str(root / "configs" / "baghchal-quick.toml")
    if os.path.exists(args.work_dir):
        sys.exit(f"{args.work_dir} exists: give a fresh directory")
    os.makedirs(args.work_dir)
    base = pathlib.Path(args.work_dir) / "base"
    code, out = zero_run(args.zero, args.config, base, 2)
    if code != 0:
        sys.exit(f"the base run failed (exit {code}):\n{out[-3000:]}")
    failures = []
    for fault in FILE_FAULTS:
        file_fault(args, base, fault, failures)
    if os.geteuid() == 0:
        for name in ("full disk", "read-only directory"):
            disk_fault(args, base, name, failures)
    else:
        failures.append("the full disk and read-only directory need root (mount): run as root")
    for failure in failures:
        print(f"FAILED: {failure}")
    if failures:
        sys.exit(1)
    print(f"ok: {len(FILE_FAULTS) + 2} faults, each detected and named, nothing lost")


if __name__ == "__main__":
    main()
