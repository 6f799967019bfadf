#!/usr/bin/env python3
"""Fail each file-system call of a run's life in turn, and cut the power at each, then check that the run resumes
with nothing finished lost.

    python3 scripts/fs-faults.py --work-dir DIR [--per-kind N | --every] [--cuts N | --every]
                                 [--zero target/release/zero]
    python3 scripts/fs-faults.py --work-dir DIR --case fail:KIND:N[:TEXT] --case cut:N ...

A shim loaded with LD_PRELOAD (scripts/fsfault.c, built here with cc) numbers every call the run makes under its
run directory: open, write, fsync, directory sync, rename, unlink, mkdir, link and truncate, in every process of
the run, in the order they take effect. A first run of a small Bagh Chal config (2 generations) counts them.

Failed calls: for each kind, the shim makes the n-th call of that kind fail with EIO (every n with --every, else
--per-kind values spread evenly over the run's calls of that kind), in a fresh run each time. The run may go on or
stop; either way it must not panic or hang, and a stop must say what failed.

`--case` runs only the cases it names: `fail:unlink:1:/data/` fails the first unlink of a path holding `/data/`.

Power cuts: the shim kills the run's process group before its n-th call of any kind takes effect, and everything
not made durable is then undone, as a power cut would: a file's bytes past its size at its last fsync (all of
them if it was never synced), and a create, rename, unlink, mkdir or link whose directory was not synced after it.
Names that a rename or an unlink dropped are kept as hard links by the shim until then, so that they can be put
back. This is stricter than ext4, which keeps much of that.

After each case: the finished games (by id and moves, read by `zero games`) and the checkpoints (by SHA-256) on
the disk are noted, the run is resumed without the shim until it ends, and then it must hold every one of them
unchanged, pass `zero check`, and have each generation summarised once with its checkpoint and its games. Prints
one line per case and a summary per kind; exits 1 on any failure. The results are in docs/reliability.md.
"""

import argparse
import collections
import contextlib
import hashlib
import io
import os
import pathlib
import shutil
import subprocess
import sys

import finished_run

ROOT = pathlib.Path(__file__).resolve().parent.parent
GENERATIONS = 2
GAMES = 8
SETTINGS = [
    f"run.generations={GENERATIONS}",
    f"run.games_per_generation={GAMES}",
    "run.eval_games=2",
    "run.eval_openings=2",
    "run.eval_equal_time_games=0",
    "selfplay.games_in_flight=4",
    "selfplay.workers=1",
]
KINDS = ["open", "write", "fsync", "dirsync", "rename", "unlink", "mkdir", "link", "truncate"]
TIMEOUT = 600


class Op:
    """One line of the shim's log."""

    def __init__(self, line):
        f = line.rstrip("\n").split("\t")
        self.seq, self.kind, self.status = int(f[0]), f[1], f[3]
        self.path, self.second = f[4], (None if f[5] == "-" else f[5])
        self.ino, self.size, self.note = int(f[6]), int(f[7]), f[8]


def read_log(path):
    if not path.exists():
        return []
    ops = [Op(line) for line in path.read_text().splitlines() if line.count("\t") == 8]
    return sorted(ops, key=lambda op: op.seq)


def build_shim(work):
    shim = work / "fsfault.so"
    subprocess.run(["cc", "-O1", "-Wall", "-shared", "-fPIC", "-o", shim, ROOT / "scripts" / "fsfault.c", "-ldl",
                    "-lpthread"], check=True)
    return shim


# The config every case runs, copied at the start so that the campaign's binary and config stay a pair.
CONFIG = ROOT / "configs" / "baghchal-quick.toml"


def zero_run(zero, run_dir, env=None):
    """`zero run` of the small config, in its own process group (a power cut kills the group); (status, output)."""
    args = [zero, "run", str(CONFIG), "--run-dir", str(run_dir)]
    for s in SETTINGS:
        args += ["--set", s]
    try:
        done = subprocess.run(args, env=env, capture_output=True, text=True, errors="replace", timeout=TIMEOUT,
                              start_new_session=True)
        return done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as e:
        return "hang", str(e)


def shimmed(case_dir, shim, mode, kind=None, nth=None, match=None):
    """The environment of a run under the shim, its log and state files fresh in `case_dir`."""
    state = case_dir / "state"
    state.write_bytes(bytes(4096))
    (case_dir / "backup").mkdir()
    env = dict(os.environ, LD_PRELOAD=str(shim), FSFAULT_MODE=mode, FSFAULT_ROOT=str(case_dir / "disk"),
               FSFAULT_STATE=str(state), FSFAULT_LOG=str(case_dir / "log"), FSFAULT_BACKUP=str(case_dir / "backup"))
    if kind:
        env["FSFAULT_KIND"] = kind
    if nth:
        env["FSFAULT_NTH"] = str(nth)
    if match:
        env["FSFAULT_MATCH"] = match
    return env


def last_dirsyncs(ops):
    """The call number of each directory's last successful sync."""
    return {op.path: op.seq for op in ops if op.kind == "dirsync" and op.status == "ok"}


def power_cut(ops, disk):
    """Undoes on the disk what the logged calls did and no sync made durable. Returns what it undid, by kind."""
    synced = last_dirsyncs(ops)
    done = [op for op in ops if op.status == "ok"]
    undone = collections.Counter()
    for op in reversed(done):
        names = [op.path] + ([op.second] if op.second else [])
        if op.kind in ("open", "rename", "unlink", "mkdir", "link") and not all(
                synced.get(os.path.dirname(n), 0) > op.seq for n in names):
            if undo(op):
                undone["create" if op.kind == "open" else op.kind] += 1
    durable = {}
    for op in done:
        if op.kind == "open" and op.ino not in durable:
            durable[op.ino] = 0 if op.note == "created" else op.size
        elif op.kind == "fsync":
            durable[op.ino] = op.size
    for path in disk.rglob("*"):
        st = path.lstat()
        if path.is_file() and st.st_ino in durable and st.st_size > durable[st.st_ino]:
            os.truncate(path, durable[st.st_ino])
            undone["unsynced bytes"] += 1
    return undone


def published(ops):
    """The files whose writing the run had finished at the cut, with their SHA-256: each renamed into place, then
    its directory synced, and still the file the rename put there."""
    synced, files = last_dirsyncs(ops), {}
    for op in ops:
        if op.status != "ok":
            continue
        if op.kind == "rename":
            files[op.second] = op
        elif op.kind == "unlink":
            files.pop(op.path, None)
    return {path: digest_of(path) for path, op in files.items()
            if synced.get(os.path.dirname(path), 0) > op.seq and same_file(path, op.ino)}


def digest_of(path):
    """The SHA-256 of the file at `path`, None where there is none."""
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest() if os.path.isfile(path) else None


def same_file(path, ino):
    return os.path.lexists(path) and os.lstat(path).st_ino == ino


def undo(op):
    """Undoes one create, rename, unlink, mkdir or link; whether there was something to undo."""
    if op.kind == "open" and op.note == "created" and same_file(op.path, op.ino):
        os.unlink(op.path)
    elif op.kind == "mkdir" and os.path.isdir(op.path):
        shutil.rmtree(op.path)
    elif op.kind == "rename" and same_file(op.second, op.ino) and os.path.isdir(os.path.dirname(op.path)):
        os.rename(op.second, op.path)
        if op.note != "-":
            os.link(op.note, op.second)
    elif op.kind == "unlink" and op.note == "dir":
        os.makedirs(op.path, exist_ok=True)
    elif op.kind == "unlink" and op.note != "-" and not os.path.lexists(op.path) and os.path.isdir(
            os.path.dirname(op.path)):
        os.link(op.note, op.path)
    elif op.kind == "link" and same_file(op.second, op.ino):
        os.unlink(op.second)
    else:
        return False
    return True


def finished(zero, run_dir):
    """The run's finished games (id: record) and checkpoints (name: SHA-256) on the disk, and what could not be
    read."""
    games, problems = {}, []
    # A run stopped before its config was written is no run yet: it has nothing finished.
    if (run_dir / "data").is_dir() and (run_dir / "config.toml").is_file():
        done = subprocess.run([zero, "games", str(run_dir), "--only", "selfplay", "--out", "-"],
                              capture_output=True, text=True, errors="replace")
        if done.returncode != 0:
            problems.append(f"zero games: {done.stderr.strip()[-300:]}")
        for record in done.stdout.split("\n\n[GameType")[0:]:
            for line in record.splitlines():
                if line.startswith('[GameId "'):
                    games[line[9:-2]] = record.split("\n\n", 1)[-1].strip()
    checkpoints = {p.name: digest_of(p) for p in sorted((run_dir / "checkpoints").glob("gen-*.safetensors"))}
    return games, checkpoints, problems


def check_case(zero, run_dir, status, output, cut):
    """The failures of one case once its faulty run has ended: a panic or a hang, a stop that names nothing, and
    after the resume anything finished that is gone or changed."""
    failures = []
    if status == "hang":
        return ["the run hung"]
    if "panicked" in output:
        failures.append("panicked: " + next(line for line in output.splitlines() if "panicked" in line))
    if status != 0 and not cut and "error" not in output:
        failures.append(f"stopped (exit {status}) without an error")
    games, checkpoints, problems = finished(zero, run_dir)
    failures += problems
    status2, output2 = zero_run(zero, run_dir)
    if status2 != 0:
        return failures + [f"the resume exited {status2}: {output2.strip()[-300:]}"]
    after_games, after_checkpoints, problems = finished(zero, run_dir)
    failures += problems
    lost = [g for g in games if after_games.get(g) != games[g]]
    failures += [f"{len(lost)} finished games lost or changed, e.g. {lost[0]}"] if lost else []
    failures += [f"checkpoint {c} lost or changed" for c in checkpoints if after_checkpoints.get(c) != checkpoints[c]]
    with contextlib.redirect_stdout(io.StringIO()):
        failures += finished_run.failures_of(zero, str(run_dir), 0, GENERATIONS, GAMES)
    return failures


SELF_TEST = """
import os
def write(path, data, durable):
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, data)
    if durable:
        os.fsync(fd)
    os.close(fd)
    os.rename(tmp, path)
    if durable:
        d = os.open(os.path.dirname(path), os.O_RDONLY)
        os.fsync(d)
        os.close(d)
disk = os.environ["FSFAULT_ROOT"]
write(disk + "/kept", b"synced", True)
write(disk + "/renamed-only", b"not synced", False)
write(disk + "/kept", b"replaced, not synced", False)
os.mkdir(disk + "/never")
"""


def self_test(work, shim):
    """The power cut itself, on a program that syncs one file and not the rest: only the synced bytes stay."""
    case_dir = work / "self-test"
    shutil.rmtree(case_dir, ignore_errors=True)
    (case_dir / "disk").mkdir(parents=True)
    env = shimmed(case_dir, shim, "crash", None, 10**9)
    subprocess.run([sys.executable, "-c", SELF_TEST], env=env, check=True)
    undone = power_cut(read_log(case_dir / "log"), case_dir / "disk")
    left = sorted(p.name for p in (case_dir / "disk").iterdir())
    kept = (case_dir / "disk" / "kept").read_bytes() if left == ["kept"] else None
    if kept != b"synced":
        sys.exit(f"the power cut's self-test failed: left {left}, kept {kept!r}, undid {dict(undone)}")
    shutil.rmtree(case_dir)


def spread(count, n):
    """n values spread evenly over 1..count (all of them when n >= count)."""
    if n >= count:
        return list(range(1, count + 1))
    return sorted({1 + round(i * (count - 1) / max(n - 1, 1)) for i in range(n)})


def first_error(output):
    lines = [line for line in output.splitlines() if "error" in line.lower()]
    return (lines[0].strip() if lines else "")[:150]


def run_case(args, shim, name, mode, kind, nth, match=None):
    case_dir = args.work_dir / name
    shutil.rmtree(case_dir, ignore_errors=True)
    case_dir.mkdir(parents=True)
    (case_dir / "disk").mkdir()
    run_dir = case_dir / "disk" / "run"
    status, output = zero_run(args.zero, run_dir, shimmed(case_dir, shim, mode, kind, nth, match))
    ops = read_log(case_dir / "log")
    undone, failures = collections.Counter(), []
    if mode == "crash":
        before = published(ops)
        undone = power_cut(ops, case_dir / "disk")
        failures = [f"{os.path.relpath(path, run_dir)}, written and synced before the cut, lost or changed in it"
                    for path, digest in before.items() if digest_of(path) != digest]
    hit = any(op.status == "failed" for op in ops) if mode == "fail" else status == -9
    failures += check_case(args.zero, run_dir, status, output, mode == "crash")
    undid = ", ".join(f"{n} {k}" for k, n in sorted(undone.items())) or "nothing"
    what = f"undid {undid}" if mode == "crash" else ("went on" if status == 0 else first_error(output))
    print(f"{name:<22} {'ok' if not failures else 'FAILED':<7} {'hit' if hit else 'not reached':<12} {what}",
          flush=True)
    for failure in failures:
        print(f"    {failure}", flush=True)
    if not failures and not args.keep:
        shutil.rmtree(case_dir)
    return hit, failures, status


def planned_cases(args, shim):
    """(kind or None for a power cut, n, text to match or None) of each case: those --case names, or else a sweep
    over the calls a first run counts."""
    if args.case:
        for case in args.case:
            parts = case.split(":")
            if parts[0] == "cut" and len(parts) == 2:
                yield None, int(parts[1]), None
            elif parts[0] == "fail" and len(parts) in (3, 4) and parts[1] in KINDS:
                yield parts[1], int(parts[2]), (parts[3] if len(parts) == 4 else None)
            else:
                sys.exit(f"--case {case}: expected fail:KIND:N[:TEXT] (KIND one of {', '.join(KINDS)}) or cut:N")
        return
    case_dir = args.work_dir / "count"
    shutil.rmtree(case_dir, ignore_errors=True)
    (case_dir / "disk").mkdir(parents=True)
    status, output = zero_run(args.zero, case_dir / "disk" / "run", shimmed(case_dir, shim, "count"))
    if status != 0:
        sys.exit(f"the counting run failed (exit {status}):\n{output[-2000:]}")
    ops = read_log(case_dir / "log")
    counts = collections.Counter(op.kind for op in ops)
    total = max(op.seq for op in ops)
    print(f"a run's life: {total} calls: " + ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k]), flush=True)
    for kind in [k for k in KINDS if counts[k]]:
        for nth in spread(counts[kind], counts[kind] if args.every else args.per_kind):
            yield kind, nth, None
    for nth in spread(total, total if args.every else args.cuts):
        yield None, nth, None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work-dir", required=True, type=pathlib.Path)
    parser.add_argument("--zero", default=str(ROOT / "target" / "release" / "zero"))
    parser.add_argument("--per-kind", type=int, default=12, help="failed calls per kind, spread over the run")
    parser.add_argument("--cuts", type=int, default=60, help="power cuts, spread over the run's calls")
    parser.add_argument("--every", action="store_true", help="fail every call in turn and cut before every call")
    parser.add_argument("--keep", action="store_true", help="keep the directories of cases that passed")
    parser.add_argument("--case", action="append", help="fail:KIND:N[:TEXT] or cut:N; only these cases")
    args = parser.parse_args()
    args.work_dir = args.work_dir.resolve()
    args.work_dir.mkdir(parents=True, exist_ok=True)
    shim = build_shim(args.work_dir)
    self_test(args.work_dir, shim)
    global CONFIG
    CONFIG = pathlib.Path(shutil.copy(CONFIG, args.work_dir / "config.toml"))

    results = collections.defaultdict(lambda: [0, 0, 0, 0])  # cases, hit, went on, failed

    def record(row, hit, failures, status):
        r = results[row]
        r[0] += 1
        r[1] += hit
        r[2] += hit and status == 0
        r[3] += bool(failures)

    for kind, nth, match in planned_cases(args, shim):
        name = f"cut-{nth}" if kind is None else f"fail-{kind}-{nth}"
        name += f"-{match.strip('/').replace('/', '_')}" if match else ""
        mode = "crash" if kind is None else "fail"
        record("power cut" if kind is None else f"fail {kind}", *run_case(args, shim, name, mode, kind, nth, match))
    print(f"\n{'case':<16} {'cases':>6} {'hit':>6} {'went on':>8} {'failed':>7}")
    for name, (cases, hit, went_on, failed) in results.items():
        print(f"{name:<16} {cases:>6} {hit:>6} {went_on:>8} {failed:>7}")
    if any(r[3] for r in results.values()):
        sys.exit(1)
    print("ok: every case resumed with every finished game and checkpoint kept")


if __name__ == "__main__":
    main()
