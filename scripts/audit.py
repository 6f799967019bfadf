#!/usr/bin/env python3
"""Checks every dependency in Cargo.lock and fuzz/Cargo.lock against the RustSec advisory database, with
cargo-audit, offline: warnings (unmaintained, unsound, yanked) fail like vulnerabilities, except those
`.cargo/audit.toml` ignores with a reason.

    python3 scripts/audit.py                  check (what `make test` runs)
    python3 scripts/audit.py --update MIRROR  refresh audit/advisory-db from a clone of rustsec/advisory-db

This machine cannot reach GitHub, where the database lives, so the advisories of the crates the project uses are
kept in audit/advisory-db (audit/README.md says from which commit), with the names of every crate the whole
database had advisories for (audit/advisory-db/INDEX). The check fails when a lock file names a crate of that
index whose advisories are not kept: a new dependency with known advisories is never passed unread. cargo-audit
is installed from crates.io when missing.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DB = ROOT / "audit" / "advisory-db"
LOCKS = [ROOT / "Cargo.lock", ROOT / "fuzz" / "Cargo.lock"]


def crates_in(lock):
    return set(re.findall(r'^name = "([^"]+)"$', lock.read_text(), flags=re.M))


def ensure_cargo_audit():
    if subprocess.run(["cargo", "audit", "--version"], capture_output=True).returncode == 0:
        return
    print("audit: installing cargo-audit from crates.io", flush=True)
    subprocess.run(["cargo", "install", "cargo-audit", "--locked"], check=True)


def update(mirror):
    """Copies the advisories of every crate in the lock files out of a clone of rustsec/advisory-db (with a work
    tree, or bare: then its HEAD is read)."""
    mirror = pathlib.Path(mirror)
    commit = subprocess.run(["git", "-C", str(mirror), "log", "-1", "--format=%H %cs"], capture_output=True,
                            text=True).stdout.strip()
    if not (mirror / "crates").is_dir():
        tree = pathlib.Path(tempfile.mkdtemp(prefix="advisory-db-"))
        archive = subprocess.run(["git", "-C", str(mirror), "archive", "HEAD", "crates"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        mirror = tree
    used = set().union(*(crates_in(lock) for lock in LOCKS))
    everything = sorted(p.name for p in (mirror / "crates").iterdir() if p.is_dir())
    shutil.rmtree(DB, ignore_errors=True)
    (DB / "crates").mkdir(parents=True)
    for name in sorted(used & set(everything)):
        shutil.copytree(mirror / "crates" / name, DB / "crates" / name)
    (DB / "INDEX").write_text("".join(f"{name}\n" for name in everything))
    (DB / "SOURCE").write_text(f"rustsec/advisory-db {commit or 'unknown commit'}\n")
    print(f"audit: kept the advisories of {len(used & set(everything))} crates of {len(everything)} ({commit})")


def check():
    index = set((DB / "INDEX").read_text().split())
    kept = {p.name for p in (DB / "crates").iterdir()}
    missing = sorted(set().union(*(crates_in(lock) for lock in LOCKS)) & index - kept)
    if missing:
        sys.exit(f"audit: the lock files use {', '.join(missing)}, which have advisories not kept in {DB}: "
                 "run scripts/audit.py --update MIRROR")
    ensure_cargo_audit()
    failed = False
    for lock in LOCKS:
        done = subprocess.run(["cargo", "audit", "--db", str(DB), "--no-fetch", "--stale", "--deny", "warnings",
                               "--file", str(lock)], cwd=ROOT)
        failed |= done.returncode != 0
    print(f"audit: {(DB / 'SOURCE').read_text().strip()}; {'FAILED' if failed else 'no unexplained advisory'}")
    sys.exit(1 if failed else 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", metavar="MIRROR", help="a clone of rustsec/advisory-db")
    args = parser.parse_args()
    if args.update:
        update(args.update)
    else:
        check()


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
