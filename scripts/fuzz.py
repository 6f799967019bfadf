#!/usr/bin/env python3
"""Runs the coverage-guided fuzz targets (libFuzzer through cargo-fuzz, fuzz/) and prints, per target, the inputs
executed, the rate, the corpus and the findings.

    python3 scripts/fuzz.py [--targets position,moves,...] [--runs N] [--seconds S] [--parallel P]

Each target runs until it has executed N inputs (`--runs`, default 10 000 000) or for S seconds
(`--seconds`, default 3600), whichever comes first, under AddressSanitizer, with libFuzzer's limits: 2 GiB of
memory in all, 1 GiB in one allocation, 10 s for one input. A crash, a hang past the timeout or an allocation
past the limits is a finding: libFuzzer writes the input to fuzz/artifacts/TARGET/; minimise it
(`cargo fuzz tmin`), fix the bug, and keep the input in fuzz/regressions/TARGET/ so that the normal suite
(fuzzing/tests/corpora.rs) replays it from then on. The corpus grows in fuzz/corpus/TARGET/ (not committed); the
seeds in fuzz/seeds/TARGET/ are read too.

The set-up is its own: the stable toolchain with RUSTC_BOOTSTRAP=1 (what cargo-fuzz's sanitizer flags need), and
cargo-fuzz installed from crates.io when missing. Exit status 1 when any target had a finding.
"""
import argparse
import concurrent.futures
import os
import re
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


def run(name, runs, seconds):
    corpus = os.path.join(FUZZ, "corpus", name)
    artifacts = os.path.join(FUZZ, "artifacts", name)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    before = set(os.listdir(artifacts))
    command = ["cargo", "fuzz", "run", "-O", "--fuzz-dir", FUZZ, name, corpus, os.path.join(FUZZ, "seeds", name),
               "--", f"-runs={runs}", f"-max_total_time={seconds}", f"-artifact_prefix={artifacts}/"] + LIMITS
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
        "corpus": len(os.listdir(corpus)),
        "findings": findings,
        "exit": done.returncode,
        "log": log,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", default=",".join(targets()))
    parser.add_argument("--runs", type=int, default=10_000_000)
    parser.add_argument("--seconds", type=int, default=3600)
    parser.add_argument("--parallel", type=int, default=1, help="targets run at once (one core each)")
    args = parser.parse_args()
    names = [n for n in args.targets.split(",") if n]
    unknown = sorted(set(names) - set(targets()))
    if unknown:
        sys.exit(f"fuzz: no such target {', '.join(unknown)}; targets: {', '.join(targets())}")
    ensure_cargo_fuzz()
    build(names)
    print(f"{'target':<11} {'inputs':>12} {'seconds':>8} {'inputs/s':>9} {'corpus':>7}  findings", flush=True)
    failed = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
        for r in pool.map(lambda n: run(n, args.runs, args.seconds), names):
            rate = r["executed"] / max(r["seconds"], 1e-9)
            found = ", ".join(r["findings"]) or "none"
            # libFuzzer exits non-zero only on a finding (or when it could not start: the log says which).
            if r["exit"] != 0 and not r["findings"]:
                found = f"exit {r['exit']}, see {r['log']}"
            failed |= r["exit"] != 0 or bool(r["findings"])
            print(f"{r['target']:<11} {r['executed']:>12,} {r['seconds']:>8.0f} {rate:>9.0f} {r['corpus']:>7}  {found}",
                  flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
