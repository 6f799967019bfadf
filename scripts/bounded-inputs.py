#!/usr/bin/env python3
"""Every special or oversized file the audit of issue 103 named, handed to the command that reads it: each must be
refused (exit status 1, the file named on stderr) within 5 seconds and 1 GiB of memory. Prints one row per case
with the seconds and the peak memory (`/usr/bin/time`), and exits 1 if any case misses a bound.

    python3 scripts/bounded-inputs.py [ZERO]     ZERO: the zero binary (default target/release/zero)

Needs a bundle to damage: it exports one from one short generation of the quick run, so run it after a release
build with the ONNX runtime (`make build`). The results are in docs/reliability.md, "Bounded inputs".
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

LIMIT_SECONDS = 5.0
LIMIT_KB = 1 << 20


def measure(zero, args, stdin=None):
    """(exit status, seconds, peak KB, stderr) of `zero ARGS`, killed after 60 s."""
    start = time.monotonic()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M", zero, *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )
    seconds = time.monotonic() - start
    lines = proc.stderr.strip().splitlines()
    peak_kb = int(lines[-1]) if lines and lines[-1].isdigit() else -1
    return proc.returncode, seconds, peak_kb, "\n".join(lines[:-1])


def tiny_bundle(zero, work):
    """A bundle of a small Bashni network: one short generation of the embedded quick run, exported."""
    run, bundle = os.path.join(work, "run"), os.path.join(work, "b")
    sets = ["run.generations=1", "run.games_per_generation=8", "run.eval_games=2", "run.eval_equal_time_games=0"]
    subprocess.run([zero, "run", "--run-dir", run, *[a for s in sets for a in ("--set", s)]],
                   check=True, capture_output=True)
    subprocess.run([zero, "export", run, "--out", bundle], check=True, capture_output=True)
    return bundle


def damaged(bundle, work, name, damage):
    """A copy of `bundle` named `name` with `damage` applied to it."""
    copy = os.path.join(work, name)
    shutil.copytree(bundle, copy)
    damage(copy)
    return copy


def cases(zero, work):
    big = os.path.join(work, "huge.toml")
    with open(big, "wb") as f:
        f.truncate(1 << 30)
    fifo = os.path.join(work, "fifo.pdn")
    os.mkfifo(fifo)
    bundle = tiny_bundle(zero, work)

    def manifest_to(target):
        def damage(b):
            os.remove(os.path.join(b, "manifest.json"))
            if target == "fifo":
                os.mkfifo(os.path.join(b, "manifest.json"))
            else:
                os.symlink(target, os.path.join(b, "manifest.json"))
        return damage

    def sparse_weights(b):
        with open(os.path.join(b, "network.pt"), "r+b") as f:
            f.truncate(2 << 30)

    def linked_outside(b):
        outside = b + ".outside"
        os.rename(os.path.join(b, "network.pt"), outside)
        os.symlink(outside, os.path.join(b, "network.pt"))

    yield "zero run /dev/zero", ["run", "/dev/zero"], "/dev/zero"
    yield "zero run (1 GiB sparse config)", ["run", big], big
    yield "zero replay /dev/zero", ["replay", "/dev/zero"], "/dev/zero"
    yield "zero replay FIFO", ["replay", fifo], fifo
    for name, damage in [("manifest -> /dev/zero", manifest_to("/dev/zero")), ("manifest FIFO", manifest_to("fifo")),
                         ("2 GiB sparse listed file", sparse_weights), ("file linked from outside", linked_outside)]:
        copy = damaged(bundle, work, name.replace(" ", "-").replace("/", "_"), damage)
        yield f"zero bot ({name})", ["bot", copy], os.path.basename(copy)


def main():
    zero = sys.argv[1] if len(sys.argv) > 1 else "target/release/zero"
    failures = 0
    with tempfile.TemporaryDirectory(prefix="zero-bounded-") as work:
        print(f"| case | exit | seconds | peak memory | named |\n|---|---|---|---|---|")
        for name, args, path in cases(zero, work):
            status, seconds, peak_kb, err = measure(zero, args)
            named = path in err
            ok = status == 1 and named and seconds <= LIMIT_SECONDS and 0 < peak_kb <= LIMIT_KB
            failures += not ok
            print(f"| {name} | {status} | {seconds:.2f} | {peak_kb / 1024:.0f} MB | {'yes' if named else 'NO'} |"
                  + ("" if ok else f" FAILED: {err.strip()[:200]}"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
