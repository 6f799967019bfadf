"""The Gymnasium and PettingZoo environments of every registered game, checked by those packages' own checkers,
played to the end through their action masks, and refusing misuse with ValueError."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import zero
from zero.envs import aec_env, gym_env


@pytest.mark.parametrize("name", zero.games())
def test_pettingzoos_api_test_passes(name):
    api_test(aec_env(name), num_cycles=300)


@pytest.mark.parametrize("name", zero.games())
def test_gymnasiums_env_checker_passes_for_either_side(name):
    for play_as in (0, 1):
        check_env(gym_env(name, play_as=play_as), skip_render_check=False)
    assert isinstance(gymnasium.make(f"zero/{name}-v0").unwrapped, zero.envs.ZeroGymEnv)


@pytest.mark.parametrize("name", zero.games())
def test_a_masked_random_agent_plays_gym_games_to_their_end(name):
    env = gym_env(name, play_as=1, render_mode="ansi")
    rng = np.random.default_rng(2)
    results = set()
    for seed in range(4):
        observation, _ = env.reset(seed=seed)
        done, steps = False, 0
        while not done:
            assert env.observation_space.contains(observation)
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated and "illegal_action" not in info
            steps += 1
        assert reward in (-1.0, 0.0, 1.0) and info["outcome"] and env.state.is_terminal()
        assert reward == env.state.returns()[1] and steps <= zero.Game(name).max_game_length()
        assert isinstance(env.render(), str)
        results.add(reward)
    assert results, "games were played"


def test_an_illegal_action_loses_and_misuse_raises():
    # An opponent that drops its discs into column a too, while it can: the column fills without a line.
    env = gym_env("connect4", opponent=lambda s: 0 if 0 in s.legal_actions() else s.legal_actions()[0])
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)
    env.reset(seed=0)
    for bad, message in [(1.5, "an action is an integer"), (-1, "outside connect4's action space"),
                         (7, "outside connect4's action space")]:
        with pytest.raises(ValueError, match=message):
            env.step(bad)
    for _ in range(3):
        observation, reward, done, _, info = env.step(0)
        assert not done and reward == 0.0
    assert not observation["action_mask"][0], "column a is full"
    observation, reward, done, _, info = env.step(0)
    assert done and reward == -1.0 and info["illegal_action"] == 0
    with pytest.raises(ValueError, match="call reset"):
        env.step(1)
    with pytest.raises(ValueError, match="play_as is 0"):
        gym_env("connect4", play_as=2)
    with pytest.raises(ValueError, match="opponent is"):
        gym_env("connect4", opponent="strong")
    with pytest.raises(ValueError, match="unknown game"):
        gym_env("chess")

    aec = aec_env("connect4")
    aec.reset()
    first, second = aec.possible_agents
    aec.step(3)
    aec.step(3)
    assert aec.agent_selection == first
    full = [a for a in range(7) if not aec.observe(first)["action_mask"][a]]
    assert full == [] and not aec.observe(second)["action_mask"].any(), "only the agent to act has a mask"
    with pytest.raises(ValueError, match="outside connect4's action space"):
        aec.step(99)


def test_a_bot_can_be_the_opponent(bundles):
    bot = zero.Bot(bundles["connect4"], sims=4)
    env = gym_env("connect4", opponent=bot)
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].sum() == 7, "the agent moves first"
    observation, *_ = env.step(3)
    assert env.state.ply == 2, "the bot answered"
