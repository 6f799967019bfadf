"""OpenSpiel's state API (pyspiel.Game and pyspiel.State names) on every registered game: players, returns,
observations, masks, undo, serialisation and the game's metadata, and bad calls refused with ValueError."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

import zero

TERMINAL = -4


def random_actions(state: zero.State, rng: random.Random, limit: int) -> list[int]:
    """Plays random legal actions to the end or `limit`; returns them."""
    played = []
    while not state.is_terminal() and len(played) < limit:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        played.append(action)
    return played


@pytest.mark.parametrize("name", zero.games())
def test_metadata_and_a_random_game_in_openspiels_terms(name):
    game = zero.Game(name)
    assert game.num_players() == 2 and game.num_distinct_actions() == game.action_space
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_shape() == list(game.input_shape)
    assert game.observation_tensor_size() == int(np.prod(game.input_shape))
    length = game.max_game_length()
    assert isinstance(length, int) and length > 0
    rng = random.Random(3)
    for _ in range(3):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            assert player in (0, 1) and player == state.to_move_index and state.is_player_node()
            assert not state.is_chance_node() and not state.is_simultaneous_node()
            legal = state.legal_actions()
            assert legal == sorted(legal) and state.legal_actions(player) == legal
            assert state.legal_actions(1 - player) == []
            mask = state.legal_actions_mask()
            assert mask.shape == (game.num_distinct_actions(),) and mask.dtype == np.int8
            assert list(np.flatnonzero(mask)) == legal and not state.legal_actions_mask(1 - player).any()
            observation = state.observation_tensor()
            assert observation.shape == (game.observation_tensor_size(),) and observation.dtype == np.float32
            assert np.array_equal(observation, state.encode().ravel())
            assert state.returns() == [0.0, 0.0] == state.rewards()
            state.apply_action(rng.choice(legal))
            steps += 1
        assert steps <= length and state.current_player() == TERMINAL and not state.is_player_node()
        returns = state.returns()
        outcome = state.outcome()
        if outcome.winner_index is None:
            assert returns == [0.0, 0.0]
        else:
            assert returns[outcome.winner_index] == 1.0 and returns[1 - outcome.winner_index] == -1.0
        assert state.rewards() == returns and [state.player_return(p) for p in (0, 1)] == returns
        assert len(state.history()) == steps == state.move_number()


@pytest.mark.parametrize("name", zero.games())
def test_undo_and_serialisation_give_back_the_same_states(name):
    game = zero.Game(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    positions = [state.position]
    for action in random_actions(state.clone(), rng, 40):
        state.apply_action(action)
        positions.append(state.position)
    restored = game.deserialize_state(state.serialize())
    assert restored.position == state.position and restored.history() == state.history()
    assert restored.serialize() == state.serialize()
    history = state.history()
    while history:
        action = history.pop()
        before = state.clone()
        state.undo_action(state_player_before(game, history), action)
        assert state.history() == history and state.position == positions[len(history)]
        assert before.position == positions[len(history) + 1]
    with pytest.raises(ValueError, match="no action to undo"):
        state.undo()
    # Moves in notation count their actions, and a position's history starts there.
    moved = game.new_initial_state()
    move = moved.legal_moves()[0]
    moved.play(move)
    actions = moved.history()
    assert actions == game.new_initial_state().move_actions(move)
    assert moved.undo() == actions[-1] and moved.history() == actions[:-1]
    later = game.state(state.position)
    assert later.history() == [] and game.deserialize_state(later.serialize()).position == later.position


def state_player_before(game: zero.Game, history: list[int]) -> int:
    """The player who acted after `history` (the actor of the next action)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state.current_player()


def test_bad_calls_raise_value_errors_that_say_what_and_where():
    game = zero.Game("baghchal")
    state = game.new_initial_state()
    action = state.legal_actions()[0]
    state.apply_action(action)
    cases = [
        (lambda: state.undo_action(0, action + 1), "the last action was"),
        (lambda: state.undo_action(1, action), "the last action was"),
        (lambda: state.player_return(2), "player 2 does not exist"),
        (lambda: state.legal_actions(-1), "player -1 does not exist"),
        (lambda: state.observation_tensor(0), "player to act's view"),
        (lambda: state.action_to_string(0, 60000), "outside baghchal's action space"),
        (lambda: game.deserialize_state("hello"), "not a serialized state"),
        (lambda: game.deserialize_state(state.serialize().replace("baghchal", "tours")), "not of \"baghchal\""),
        (lambda: zero.Game("baghchal", options={"max_plies": 99}).deserialize_state(state.serialize()),
         "make the Game with those options"),
        (lambda: game.deserialize_state(state.serialize().replace(f"actions {action}", "actions 9999")),
         "action 1 (9999): not legal"),
        (lambda: game.deserialize_state(state.serialize().replace(f"actions {action}", "actions x")),
         "\"x\" is not an action"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            call()
    assert state.history() == [action], "a refused undo changes nothing"
    assert state.action_to_string(action) == state.action_to_string(0, action) == game.describe_action(action)
