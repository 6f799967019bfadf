"""Encoding parity: the planes `State.encode` gives are the ones self-play stored for the network, position by
position, over every searched position of a real run of each game (thousands per game). Each game is replayed
from its record action by action, so positions in the middle of a multi-jump capture are compared too."""

from __future__ import annotations

import numpy as np
import pytest

import zero


def quantized(planes: np.ndarray) -> np.ndarray:
    """The shards' bytes of float planes: round(v x 255) with halves away from zero, as Rust's `f32::round`."""
    scaled = np.clip(planes, 0, 1) * np.float32(255)
    rounded = np.where(scaled - np.floor(scaled) == 0.5, np.ceil(scaled), np.rint(scaled))
    return rounded.astype(np.uint8)


def stored_rows(run: zero.Run) -> dict[tuple[str, int], dict]:
    columns = ["game_id", "step", "position", "input", "legal_actions"]
    return {(r["game_id"], r["step"]): r for r in run.positions(columns).to_pylist()}


@pytest.mark.parametrize("name", zero.games())
def test_encode_matches_the_planes_self_play_stored(name, run_dirs):
    run = zero.Run(run_dirs[name])
    header = run.header()
    game = zero.Game(name, options=header["rules"])
    assert list(game.input_shape) == header["input_shape"] and game.action_space == header["action_space"]
    rows = stored_rows(run)
    compared = 0
    for record in run.games(["game_id", "start_position", "moves"]).to_pylist():
        state = game.state(record["start_position"])
        step = 0
        for mv in record["moves"]:
            for action in state.move_actions(mv):
                row = rows.get((record["game_id"], step))
                if row is not None:
                    assert state.position == row["position"], (record["game_id"], step)
                    planes = quantized(state.encode())
                    stored = np.frombuffer(row["input"], dtype=np.uint8).reshape(game.input_shape)
                    assert np.array_equal(planes, stored), (record["game_id"], step, state.position)
                    indices = sorted(state.policy_index(a) for a in state.legal_actions())
                    assert indices == sorted(row["legal_actions"]), (record["game_id"], step)
                    compared += 1
                state.apply_action(action)
                step += 1
    assert compared == len(rows), f"{len(rows) - compared} stored positions were never reached"
    assert compared >= 2000, f"only {compared} positions"
    print(f"{name}: {compared} stored positions encoded alike")
