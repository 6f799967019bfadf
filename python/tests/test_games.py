"""The games through Python: rules, notation, moves and actions, outcomes and symmetries."""

from __future__ import annotations

import copy
import random

import pytest

import zero


def random_game(state: zero.State, rng: random.Random, max_plies: int = 400) -> list[zero.State]:
    """Plays random legal moves from `state` to the end (or `max_plies`); returns every state passed."""
    seen = [state.clone()]
    while not state.is_terminal() and len(seen) <= max_plies:
        moves = state.legal_moves()
        assert moves, f"no legal move but not over: {state.position}"
        state.play(rng.choice(moves))
        seen.append(state.clone())
    return seen


def test_every_registered_game_is_listed_and_opens():
    assert {"bashni", "baghchal", "tours"} <= set(zero.games())
    for name in zero.games():
        game = zero.Game(name)
        assert game.name == name
        assert len(game.players) == 2 and game.players[0] != game.players[1]
        state = game.new_state()
        assert state.to_move == game.players[0] and state.to_move_index == 0 and state.ply == 0
        assert not state.is_terminal() and state.outcome() is None
        assert game.state("start").position == state.position


def test_rules_variants_and_options_are_parsed_and_written_back_complete():
    default = zero.Game("bashni")
    assert "max_plies=300" in default.rules
    for options in ({"max_plies": 200}, "max_plies=200", ["max_plies=200"]):
        assert "max_plies=200" in zero.Game("bashni", options=options).rules
    assert "mandatory_capture=false" in zero.Game("bashni", options={"mandatory_capture": False}).rules
    assert zero.Game("bashni", variant="optional-capture").rules != default.rules
    # The rules a run's files record (comma-joined) give back the same rule set.
    assert zero.Game("tours", options=",".join(zero.Game("tours").rules)).rules == zero.Game("tours").rules


@pytest.mark.parametrize(
    "args, message",
    [
        (("chess",), "unknown game \"chess\""),
        (("bashni", "no-such-variant"), "no-such-variant"),
        (("bashni", None, {"no_such_key": 1}), "no_such_key"),
        (("bashni", None, {"max_plies": "many"}), "many"),
        (("bashni", None, 42), "options must be"),
    ],
)
def test_bad_rules_are_refused_by_name(args, message):
    with pytest.raises(ValueError, match=message):
        zero.Game(*args)


@pytest.mark.parametrize("name", zero.games())
def test_random_games_end_with_an_outcome_and_positions_read_back(name):
    game = zero.Game(name)
    rng = random.Random(7)
    ended = 0
    for _ in range(6):
        states = random_game(game.new_state(), rng)
        for state in states:
            # A position string starts a fresh history (repetitions forgotten), so only the position is compared.
            assert game.state(state.position).position == state.position
        last = states[-1]
        if last.is_terminal():
            ended += 1
            outcome = last.outcome()
            assert outcome.reason and last.legal_moves() == [] and last.legal_actions() == []
            assert outcome.winner in (None, *game.players)
            assert (outcome.winner is None) == (outcome.winner_index is None)
    assert ended > 0


@pytest.mark.parametrize("name", zero.games())
def test_a_move_is_its_actions_played_one_by_one(name):
    game = zero.Game(name)
    rng = random.Random(3)
    for state in random_game(game.new_state(), rng, max_plies=120)[:-1]:
        for mv in state.legal_moves():
            by_actions = state.clone()
            for action in state.move_actions(mv):
                assert action in by_actions.legal_actions()
                by_actions.apply_action(action)
            assert by_actions.position == state.child(mv).position
            assert by_actions.zobrist == state.child(mv).zobrist


def test_illegal_moves_and_actions_raise_and_change_nothing():
    state = zero.Game("baghchal").new_state()
    before = state.position
    with pytest.raises(ValueError, match="zz"):
        state.play("zz")
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(424)
    with pytest.raises(ValueError, match="not legal"):
        state.policy_index(424)
    with pytest.raises(ValueError, match="bad position"):
        zero.Game("baghchal").state("T...T/...")
    with pytest.raises(ValueError, match="move 2"):
        zero.Game("baghchal").replay(["c3", "c3"])
    with pytest.raises(ValueError, match="action space"):
        zero.Game("baghchal").describe_action(10_000)
    assert state.position == before


def test_copies_are_independent():
    state = zero.Game("tours").new_state()
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        twin.play(twin.legal_moves()[0])
        assert twin.position != state.position and state.ply == 0


@pytest.mark.parametrize("name", zero.games())
def test_symmetries_map_legal_actions_onto_legal_actions(name):
    game = zero.Game(name)
    rng = random.Random(11)
    for state in random_game(game.new_state(), rng, max_plies=60)[::5]:
        assert state.transformed(0).position == state.position
        for sym in range(game.num_symmetries):
            turned = state.transformed(sym)
            mapped = sorted(game.transform_action(a, sym) for a in state.legal_actions())
            assert mapped == sorted(turned.legal_actions())
    with pytest.raises(ValueError, match="symmetry"):
        game.new_state().transformed(game.num_symmetries)


@pytest.mark.parametrize("name", zero.games())
def test_encoding_has_the_games_shape_and_policy_indices_fit_the_action_space(name):
    game = zero.Game(name)
    state = game.new_state()
    planes = state.encode()
    assert planes.shape == game.input_shape and str(planes.dtype) == "float32"
    assert ((planes >= 0) & (planes <= 1)).all() and planes.any()
    indices = [state.policy_index(a) for a in state.legal_actions()]
    assert len(set(indices)) == len(indices) and all(0 <= i < game.action_space for i in indices)
