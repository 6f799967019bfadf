"""A match between two bots (bundles written by `zero export`), each side played by each bot in turn.

    python examples/bot_match.py BUNDLE_A BUNDLE_B [--games N] [--sims S]

Both bundles must play the same game. Prints each game's result and the match score of A.
"""

from __future__ import annotations

import argparse

import zero


def play(first: zero.Bot, second: zero.Bot, sims: int) -> zero.State:
    state = first.game.new_state()
    bots = (first, second)
    while not state.is_terminal():
        state.play(bots[state.to_move_index].choose(state, sims=sims))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--sims", type=int, default=16)
    args = parser.parse_args()
    a, b = zero.Bot(args.a), zero.Bot(args.b)
    if a.game.name != b.game.name:
        parser.error(f"{args.a} plays {a.game.name}, {args.b} plays {b.game.name}")
    score = 0.0
    for number in range(args.games):
        a_first = number % 2 == 0
        end = play(a, b, args.sims) if a_first else play(b, a, args.sims)
        outcome = end.outcome()
        a_index = 0 if a_first else 1
        points = 0.5 if outcome.winner_index is None else float(outcome.winner_index == a_index)
        score += points
        winner = outcome.winner or "draw"
        print(f"game {number + 1}: A plays {end.game.players[a_index]}, {winner} ({outcome.reason}) after {end.ply} plies")
    print(f"A scores {score} of {args.games}")


if __name__ == "__main__":
    main()
