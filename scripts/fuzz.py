#!/usr/bin/env python3
"""Runs the coverage-guided fuzz targets (libFuzzer through cargo-fuzz, fuzz/), minimises each target's corpus,
and prints, per target, the inputs executed, the rate, the corpus kept and the findings.

    python3 scripts/fuzz.py [--targets position,moves,...] [--runs N] [--seconds S] [--parallel P]
                            [--no-minimise] [--corpus-kib K]

Each target runs until it has executed N inputs (`--runs`, default 10 000 000) or for S seconds
(`--seconds`, default 3600), whichever comes first, under AddressSanitizer, with libFuzzer's limits: 2 GiB of
memory in all, 1 GiB in one allocation, 10 s for one input. A crash, a hang past the timeout or an allocation
past the limits is a finding: libFuzzer writes the input to fuzz/artifacts/TARGET/; minimise it
(`cargo fuzz tmin`), fix the bug, and keep the input in fuzz/regressions/TARGET/ so that the normal suite
(fuzzing/tests/corpora.rs) replays it from then on. The seeds in fuzz/seeds/TARGET/ are read too.

The corpus grows in fuzz/corpus/TARGET/ and is kept in the repository, so that the next campaign starts where
this one stopped and the normal suite replays it. After a target's run its corpus is minimised (libFuzzer's
`-merge=1` into a fresh folder: the fewest inputs that keep the coverage) and, when that is still more than
K KiB (`--corpus-kib`, default 384: 13 targets stay under 5 MB), cut to the smallest inputs that fit (cheap to
replay, and a fuzzer's small inputs are the ones that reached a feature first). `--no-minimise` leaves it as
the run left it.

The set-up is its own: the stable toolchain with RUSTC_BOOTSTRAP=1 (what cargo-fuzz's sanitizer flags need), and
cargo-fuzz installed from crates.io when missing. Exit status 1 when any target had a finding.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUZZ = os.path.join(ROOT, "fuzz")
ENV = dict(os.environ, RUSTC_BOOTSTRAP="1")
LIMITS = ["-rss_limit_mb=2048", "-malloc_limit_mb=1024", "-timeout=10", "-print_final_stats=1",
          # libtorch, linked into every target, keeps allocations until exit: leaks are not what is looked for.
          "-detect_leaks=0"]


def targets():
    names = [f[:-3] for f in os.listdir(os.path.join(FUZZ, "fuzz_targets")) if f.endswith(".rs")]
    return sorted(names)


def ensure_cargo_fuzz():
    if subprocess.run(["cargo", "fuzz", "--version"], capture_output=True).returncode == 0:
        return
    print("fuzz: installing cargo-fuzz from crates.io", flush=True)
    subprocess.run(["cargo", "install", "cargo-fuzz", "--locked"], check=True)


def build(names):
    subprocess.run(["make", "-s", "setup"], cwd=ROOT, check=True)
    command = ["cargo", "fuzz", "build", "-O", "--fuzz-dir", FUZZ]
    for name in names:
        subprocess.run(command + [name], cwd=ROOT, env=ENV, check=True)


def fuzz_command(name, dirs, options):
    return (["cargo", "fuzz", "run", "-O", "--fuzz-dir", FUZZ, name] + dirs + ["--"] + options + LIMITS)


def run(name, runs, seconds):
    corpus = os.path.join(FUZZ, "corpus", name)
    artifacts = os.path.join(FUZZ, "artifacts", name)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    before = set(os.listdir(artifacts))
    command = fuzz_command(name, [corpus, os.path.join(FUZZ, "seeds", name)],
                           [f"-runs={runs}", f"-max_total_time={seconds}", f"-artifact_prefix={artifacts}/"])
    start = time.time()
    done = subprocess.run(command, cwd=ROOT, env=ENV, capture_output=True, text=True, errors="replace")
    elapsed = time.time() - start
    log = os.path.join(artifacts, "last-run.log")
    with open(log, "w") as f:
        f.write(done.stderr)
    executed = re.findall(r"stat::number_of_executed_units:\s*(\d+)", done.stderr)
    findings = sorted(set(os.listdir(artifacts)) - before - {"last-run.log"})
    return {
        "target": name,
        "executed": int(executed[-1]) if executed else 0,
        "seconds": elapsed,
        "found": len(os.listdir(corpus)),
        "findings": findings,
        "exit": done.returncode,
        "log": log,
    }


def minimise(name, kib):
    """Merges the target's corpus into a fresh folder (the fewest inputs that keep its coverage), cuts it to the
    smallest inputs within `kib` KiB, and puts it in the corpus's place (a failed merge leaves the corpus whole,
    but cut all the same). Returns the inputs and bytes kept."""
    corpus = os.path.join(FUZZ, "corpus", name)
    fresh = corpus + ".merging"
    shutil.rmtree(fresh, ignore_errors=True)
    os.makedirs(fresh)
    artifacts = os.path.join(FUZZ, "artifacts", name)
    done = subprocess.run(fuzz_command(name, [fresh, corpus], ["-merge=1", f"-artifact_prefix={artifacts}/"]),
                          cwd=ROOT, env=ENV, capture_output=True, text=True, errors="replace")
    with open(os.path.join(artifacts, "last-merge.log"), "w") as f:
        f.write(done.stderr)
    if done.returncode != 0:
        shutil.rmtree(fresh)
        print(f"fuzz: merging {name}'s corpus failed, kept as it was; see {artifacts}/last-merge.log", flush=True)
        fresh = corpus
    inputs = sorted((os.path.getsize(os.path.join(fresh, f)), f) for f in os.listdir(fresh))
    total = 0
    for size, f in inputs:
        if total + size > kib * 1024:
            os.remove(os.path.join(fresh, f))
        else:
            total += size
    if fresh != corpus:
        shutil.rmtree(corpus)
        os.rename(fresh, corpus)
    return len(os.listdir(corpus)), total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", default=",".join(targets()))
    parser.add_argument("--runs", type=int, default=10_000_000)
    parser.add_argument("--seconds", type=int, default=3600)
    parser.add_argument("--parallel", type=int, default=1, help="targets run at once (one core each)")
    parser.add_argument("--no-minimise", action="store_true", help="keep the corpus as the run left it")
    parser.add_argument("--corpus-kib", type=int, default=384, help="the most a minimised corpus keeps")
    args = parser.parse_args()
    names = [n for n in args.targets.split(",") if n]
    unknown = sorted(set(names) - set(targets()))
    if unknown:
        sys.exit(f"fuzz: no such target {', '.join(unknown)}; targets: {', '.join(targets())}")
    ensure_cargo_fuzz()
    build(names)
    print(f"{'target':<11} {'inputs':>12} {'seconds':>8} {'inputs/s':>9} {'found':>6} {'kept':>5} {'KiB':>5}  findings",
          flush=True)
    failed = False

    def campaign(name):
        r = run(name, args.runs, args.seconds)
        corpus = os.path.join(FUZZ, "corpus", name)
        if args.no_minimise:
            r["kept"] = len(os.listdir(corpus))
            r["bytes"] = sum(os.path.getsize(os.path.join(corpus, f)) for f in os.listdir(corpus))
        else:
            r["kept"], r["bytes"] = minimise(name, args.corpus_kib)
        return r

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
        for r in pool.map(campaign, names):
            rate = r["executed"] / max(r["seconds"], 1e-9)
            found = ", ".join(r["findings"]) or "none"
            # libFuzzer exits non-zero only on a finding (or when it could not start: the log says which).
            if r["exit"] != 0 and not r["findings"]:
                found = f"exit {r['exit']}, see {r['log']}"
            failed |= r["exit"] != 0 or bool(r["findings"])
            print(f"{r['target']:<11} {r['executed']:>12,} {r['seconds']:>8.0f} {rate:>9.0f} {r['found']:>6} "
                  f"{r['kept']:>5} {r['bytes'] / 1024:>5.0f}  {found}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
