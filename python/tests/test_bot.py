"""A bundle's bot through Python: moves, visits, the network's policy and WDL, budgets and refusals."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

import zero


@pytest.mark.parametrize("name", zero.games())
def test_analysis_reports_a_legal_move_with_its_visits_policy_and_wdl(name, bundles):
    bot = zero.Bot(bundles[name], sims=24)
    assert bot.game.name == name and bot.default_sims == 24 and bot.level is None
    state = bot.game.new_state()
    analysis = bot.analyse(state)
    assert analysis.move in state.legal_moves()
    assert analysis.simulations >= 24 and analysis.line[0] == analysis.move
    assert sum(analysis.visits.values()) > 0 and set(analysis.visits) <= set(state.legal_moves())
    assert {m.move for m in analysis.top} == set(analysis.visits)
    # In the search's order: its choice first, then most visited (PUCT) or the halving's order (Gumbel).
    assert analysis.top[0].move == analysis.move
    if analysis.top[0].gumbel is None:
        assert all(a.visits >= b.visits for a, b in zip(analysis.top, analysis.top[1:]))
    else:
        assert all(m.gumbel is not None for m in analysis.top)
    assert -1 <= analysis.value <= 1 and abs(sum(analysis.wdl) - 1) < 1e-4
    policy = analysis.policy
    legal = state.legal_actions()
    assert policy.shape == (bot.game.action_space,) and abs(policy[legal].sum() - 1) < 1e-4
    assert np.delete(policy, legal).sum() == 0
    # The same position and budget give the same move (the bot's seed is fixed).
    assert zero.Bot(bundles[name], sims=24).choose(state) == analysis.move


def test_budgets_in_simulations_milliseconds_and_levels(bundles):
    bot = zero.Bot(bundles["baghchal"])
    state = bot.game.new_state()
    assert bot.analyse(state, sims=8).simulations >= 8
    start = time.monotonic()
    timed = bot.analyse(state, ms=200)
    assert timed.simulations > 0 and time.monotonic() - start < 5
    beginner = zero.Bot(bundles["baghchal"], level="beginner")
    assert beginner.level == "beginner" and beginner.choose(state) in state.legal_moves()
    policy, wdl = bot.evaluate(state)
    assert np.allclose(policy, bot.analyse(state, sims=1).policy) and len(wdl) == 3


def test_bad_requests_are_refused_with_the_reason(bundles, tmp_path):
    bot = zero.Bot(bundles["baghchal"], sims=4)
    with pytest.raises(ValueError, match="not both"):
        bot.analyse(bot.game.new_state(), sims=4, ms=4)
    with pytest.raises(ValueError, match="plays baghchal, not tours"):
        bot.analyse(zero.Game("tours").new_state())
    over = bot.game.new_state()
    while not over.is_terminal():
        over.play(over.legal_moves()[0])
    with pytest.raises(ValueError, match="game is over"):
        bot.choose(over)
    with pytest.raises(ValueError, match="not a directory"):
        zero.Bot(tmp_path / "missing")
    with pytest.raises(ValueError, match="level"):
        zero.Bot(bundles["baghchal"], level="grandmaster")
    with pytest.raises(ValueError, match="at least 1"):
        zero.Bot(bundles["baghchal"], sims=0)


def test_a_damaged_bundle_is_refused_by_file(bundles, tmp_path):
    import shutil

    damaged = tmp_path / "damaged"
    shutil.copytree(bundles["tours"], damaged)
    onnx = damaged / "network.onnx"
    onnx.write_bytes(onnx.read_bytes()[:-10])
    with pytest.raises(ValueError, match="network.onnx"):
        zero.Bot(damaged)


@pytest.mark.parametrize("order", ["import torch, zero", "import zero, torch"])
def test_zero_and_torch_live_in_one_process(order, bundles):
    script = (
        f"{order}\n"
        f"bot = zero.Bot({str(bundles['tours'])!r}, sims=8)\n"
        "state = bot.game.new_state()\n"
        "x = torch.from_numpy(state.encode()).unsqueeze(0)\n"
        "print(bot.choose(state), tuple(x.shape))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    move, shape = done.stdout.split(" ", 1)
    assert move in zero.Game("tours").new_state().legal_moves() and shape.strip() == "(1, 25, 8, 8)"
