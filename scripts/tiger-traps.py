#!/usr/bin/env python3
"""Where a Bagh Chal player's tigers walk into a trap: for every game it played as the tigers and lost by having no
legal move at ply L or earlier (a `zero eval --games-out` file), the last tiger move from which the trap could
still be escaped, found by exhaustive search: at each earlier tiger move, can the goats force the tigers out of
moves by ply L whatever the tigers do, and which tiger moves would have escaped that.

    ~/.cache/zero/torch-2.13.0/venv/bin/python scripts/tiger-traps.py [--max-plies 41] [--back 14] PLAYER GAMES.jsonl [...]

PLAYER is the player's name in the records (`name=` of its spec). Needs the `zero` Python package (`make python`
installs it into the set-up's venv). Prints, per trapped game, the ply of the losing tiger move, the moves it had
there and how many escaped, the move played and the position before it; then the games by that ply. A trap is
counted only where the game was lost at most `--max-plies` plies in, and searched back at most `--back` plies
from its end (the search's cost grows fast with them: a trap the goats' 19th placement closes at ply 37, 13 plies
after the losing move, takes about a second); a game still lost that far back is reported as lost before it.
"""
import argparse
import collections
import json

import zero

# The ply of the position the goats' 20th placement makes: from it on, repeated positions count.
ALL_PLACED_PLY = 39


class TrapSearch:
    """Whether the goats can force the tigers out of moves by a given ply, memoised by position, ply and, once
    every goat is placed, the positions the search passed since then: the position's hash leaves out the repetition
    history, which the rules count from then on. The history before a search's root is the same for all its nodes,
    and two roots of one game past that ply give their nodes keys of different lengths, so the memo is exact."""

    def __init__(self, limit):
        self.limit, self.memo = limit, {}

    def goats_force(self, state, since_placed=()):
        key = (state.zobrist, state.ply, since_placed)
        if key not in self.memo:
            self.memo[key] = self._solve(state, since_placed)
        return self.memo[key]

    def _solve(self, state, since_placed):
        if state.is_terminal():
            return state.outcome().winner == "goats"
        if state.ply >= self.limit:
            return False
        if state.ply >= ALL_PLACED_PLY:
            since_placed += (state.zobrist,)
        children = (self.goats_force(state.child(m), since_placed) for m in state.legal_moves())
        return any(children) if state.to_move_index == 0 else all(children)


def losing_move(record, back):
    """(ply of the last tiger move that could escape, its legal moves, the escapes, the move played, position), or
    None when every tiger move within `back` plies of the end was already lost."""
    moves = list(record["opening"]) + list(record["moves"])
    game = zero.Game(record["game"], None, ",".join(record["rules"]))
    search = TrapSearch(len(moves))
    for index in range(len(moves) - 2, max(len(moves) - 1 - back, 0), -2):  # the tigers' moves, from the last back
        state = game.replay(moves[:index])
        if not search.goats_force(state):
            legal = state.legal_moves()
            escapes = [m for m in legal if not search.goats_force(state.child(m))]
            return index + 1, legal, escapes, moves[index], state.position
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-plies", type=int, default=41, help="only games lost this many plies in or sooner")
    parser.add_argument("--back", type=int, default=14, help="search at most this many plies back from the end")
    parser.add_argument("player")
    parser.add_argument("games", nargs="+")
    args = parser.parse_args()
    by_ply, lost_before = collections.Counter(), 0
    for path in args.games:
        for number, line in enumerate(open(path), start=1):
            try:
                record = json.loads(line)
                trapped = (record["game"] == "baghchal" and record["second"] == args.player
                           and record["winner"] == "first" and record["reason"] == "no-legal-move")
                plies = len(record["opening"]) + len(record["moves"])
            except (ValueError, KeyError, TypeError) as error:
                raise SystemExit(f"{path}:{number}: not a game record: {error!r}")
            if not trapped or plies > args.max_plies:
                continue
            found = losing_move(record, args.back)
            if found is None:
                print(f"{path}:{number}: trapped at ply {plies}, already lost {args.back} plies before")
                lost_before += 1
                continue
            ply, legal, escapes, played, position = found
            by_ply[ply] += 1
            print(f"{path}:{number}: trapped at ply {plies}; at ply {ply} {len(escapes)} of {len(legal)} tiger moves "
                  f"escaped ({' '.join(escapes)}), it played {played} from {position}")
    if lost_before:
        print(f"{lost_before} games lost by the tiger move more than {args.back} plies before the end")
    for ply, n in sorted(by_ply.items()):
        print(f"{n} games lost by the tiger move at ply {ply}")


if __name__ == "__main__":
    main()
