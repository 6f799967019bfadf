"""The examples run as a user runs them, on a real run directory and its bundle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(*args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / args[0]), *args[1:]], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_analyse_run_prints_each_generation(run_dirs):
    out = run_example("analyse_run.py", str(run_dirs["tours"]))
    assert "tours, rules" in out and "mean_plies" in out and "value_target_std" in out
    assert "how games ended" in out and "mean loss by generation" in out


def test_bot_match_plays_both_sides(bundles):
    out = run_example("bot_match.py", str(bundles["baghchal"]), str(bundles["baghchal"]), "--games", "2", "--sims", "4")
    lines = out.splitlines()
    assert lines[0].startswith("game 1: A plays goats") and lines[1].startswith("game 2: A plays tigers")
    assert lines[-1].startswith("A scores ") and lines[-1].endswith(" of 2")
