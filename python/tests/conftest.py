"""Fixtures of the pytest suite: a real short `zero run` of each game (its shards, metrics and checkpoint) and the
bot bundle `zero export` writes from it. ZERO_BIN names the `zero` binary (scripts/python-package.sh sets it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import zero

REPO = Path(__file__).resolve().parents[2]

# Games per generation: enough for thousands of stored positions per game (resignation off, so games are played
# out). A game not named here plays 128, enough for short games (Connect Four's last at most 42 plies); the long
# ones play fewer.
GAMES = {name: {"bashni": 32, "baghchal": 48, "tours": 10}.get(name, 128) for name in zero.games()}


def zero_bin() -> Path:
    path = Path(os.environ.get("ZERO_BIN", REPO / "target" / "debug" / "zero"))
    if not path.is_file():
        raise RuntimeError(f"no zero binary at {path}: build it (cargo build) or set ZERO_BIN")
    return path


def run_zero(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([str(zero_bin()), "-q", *args], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"zero {' '.join(args)} failed:\n{done.stderr}")
    return done


@pytest.fixture(scope="session")
def run_dirs(tmp_path_factory) -> dict[str, Path]:
    """One short real run per game: one generation of self-play played out to the end, trained and rated."""
    runs = {}
    for game, games in GAMES.items():
        run_dir = tmp_path_factory.mktemp(f"run-{game}")
        settings = [
            "run.generations=1",
            f"run.games_per_generation={games}",
            "run.eval_games=2",
            "run.eval_openings=2",
            "run.eval_equal_time_games=0",
            "selfplay.games_in_flight=4",
            "selfplay.resign.threshold=-1",
        ]
        config = REPO / "configs" / f"{game}-quick.toml"
        run_zero("run", str(config), "--run-dir", str(run_dir), *[a for s in settings for a in ("--set", s)])
        runs[game] = run_dir
    return runs


@pytest.fixture(scope="session")
def bundles(run_dirs, tmp_path_factory) -> dict[str, Path]:
    """Each run's network exported as a bot bundle (with its network.onnx)."""
    out = {}
    for game, run_dir in run_dirs.items():
        bundle = tmp_path_factory.mktemp(f"bundle-{game}") / "bundle"
        run_zero("export", str(run_dir), "--out", str(bundle))
        out[game] = bundle
    return out
