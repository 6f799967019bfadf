#!/usr/bin/env python3
"""How far behind or ahead a Tours player is when its games end: for every game it played (a `zero eval
--games-out` file), the pawns it has left minus its opponent's, at given plies and at the end, tallied by
result and end reason. A draw by the no-progress rule or the ply limit with the player many pawns down is a lost
position the draw rules saved, not a balanced one.

    ~/.cache/zero/torch-2.13.0/venv/bin/python scripts/tours-material.py PLAYER GAMES.jsonl [MORE.jsonl ...]

PLAYER is the player's name in the records (`name=` of its spec). Needs the `zero` Python package (`make
python` installs it into the set-up's venv). Prints, by result and reason, the games and the spread of the pawn
difference at the end, then the mean difference over all games at plies 25, 50, 100, 150 and 200 after the
opening (over the games still going there).
"""
import argparse
import collections
import json
import statistics

import zero

CHECKPOINTS = (25, 50, 100, 150, 200)


def pawns(state):
    """Pawns of (white, black) on the board, from the position string (`w a1:ww c3:b ...`)."""
    counts = {"w": 0, "b": 0}
    for part in state.position.split()[1:]:
        if ":" in part and not part.startswith(">"):
            stack = part.split(":", 1)[1]
            counts["w"] += stack.count("w")
            counts["b"] += stack.count("b")
    return counts["w"], counts["b"]


def difference_for(record, player, state):
    white, black = pawns(state)
    return white - black if record["first"] == player else black - white


def material_line(record, player):
    """The player's pawn difference at each checkpoint ply after the opening the game reached, and at the end."""
    game = zero.Game(record["game"], None, ",".join(record["rules"]))
    state = game.replay(record["opening"])
    at = {}
    for ply, move in enumerate(record["moves"], start=1):
        state.play(move)
        if ply in CHECKPOINTS:
            at[ply] = difference_for(record, player, state)
    return at, difference_for(record, player, state)


def result_for(record, player):
    if record["winner"] is None:
        return "drawn"
    won = (record["winner"] == "first") == (record["first"] == player)
    return "won" if won else "lost"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("player")
    parser.add_argument("games", nargs="+")
    args = parser.parse_args()
    at_end = collections.defaultdict(list)
    at_ply = collections.defaultdict(list)
    for path in args.games:
        for number, line in enumerate(open(path), start=1):
            try:
                record = json.loads(line)
                if record["game"] != "tours" or args.player not in (record["first"], record["second"]):
                    continue
                at, end = material_line(record, args.player)
            except (ValueError, KeyError, TypeError) as error:  # a bad line, field or move of the record
                raise SystemExit(f"{path}:{number}: not a replayable game record: {error!r}")
            at_end[(result_for(record, args.player), record["reason"])].append(end)
            for ply, difference in at.items():
                at_ply[ply].append(difference)
    if not at_end:
        raise SystemExit(f"no Tours game of {args.player!r} in {', '.join(args.games)}")
    for (result, reason), ends in sorted(at_end.items()):
        print(f"{result} by {reason}: {len(ends)} games, pawns up at the end: mean {statistics.mean(ends):+.1f}, "
              f"min {min(ends):+d}, max {max(ends):+d}, ahead in {sum(e > 0 for e in ends)}, "
              f"level in {sum(e == 0 for e in ends)}, behind in {sum(e < 0 for e in ends)}")
    for ply in CHECKPOINTS:
        if at_ply[ply]:
            print(f"ply {ply} after the opening: {len(at_ply[ply])} games, pawns up: mean "
                  f"{statistics.mean(at_ply[ply]):+.2f}, behind in {sum(d < 0 for d in at_ply[ply])}")


if __name__ == "__main__":
    main()
