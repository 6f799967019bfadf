"""A run directory as tables: shards through pyarrow, metrics and generations as rows a DataFrame takes."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

import zero
from conftest import GAMES


def test_a_run_opens_as_tables(run_dirs):
    run = zero.Run(run_dirs["bashni"])
    positions = run.positions()
    games = run.games()
    assert positions.num_rows > 0 and games.num_rows == GAMES["bashni"]
    assert set(positions.column("game_id").to_pylist()) == set(games.column("game_id").to_pylist())
    header = run.header()
    assert header["game"] == "bashni" and header["input_shape"] == [44, 8, 8]
    frame = positions.to_pandas()
    assert (frame.groupby("game_id").ply.min() == 0).all()
    metrics = pd.DataFrame(run.metrics())
    assert {"generation", "elapsed_seconds", "policy_loss"} <= set(metrics.columns)
    assert (metrics.generation == 1).all()
    generations = pd.DataFrame(run.generations())
    assert list(generations.generation) == [1]
    assert [p.name for p in run.checkpoints()] == ["gen-0001.safetensors"]
    assert len(run.positions(["game_id", "result"]).column_names) == 2


def test_a_torn_last_metrics_line_is_left_out_and_a_bad_middle_line_is_named(run_dirs, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(run_dirs["baghchal"], copy)
    metrics = copy / "metrics.jsonl"
    rows = len(zero.Run(copy).metrics())
    metrics.write_text(metrics.read_text() + '{"step": 99, "lo')
    assert len(zero.Run(copy).metrics()) == rows
    lines = metrics.read_text().split("\n")
    metrics.write_text("\n".join([lines[0], "not json", *lines[1:]]))
    with pytest.raises(ValueError, match="metrics.jsonl:2"):
        zero.Run(copy).metrics()


def test_missing_and_empty_directories_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a directory"):
        zero.Run(tmp_path / "missing")
    with pytest.raises(FileNotFoundError, match="no positions file"):
        zero.Run(tmp_path).positions()
    with pytest.raises(FileNotFoundError, match="metrics.jsonl"):
        zero.Run(tmp_path).metrics()
