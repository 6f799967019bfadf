#!/usr/bin/env python3
"""How a Bagh Chal player's goats lose goats: for every game it played as the goats (a `zero eval --games-out`
file), each goat move that left the tigers a capture is counted as avoidable (another goat move there left none)
or forced at one ply (every goat move there left one: the threat was built earlier, a double attack).

    ~/.cache/zero/torch-2.13.0/venv/bin/python scripts/goat-captures.py [--before 10] PLAYER GAMES.jsonl [MORE.jsonl ...]

PLAYER is the player's name in the records (`name=` of its spec). Needs the `zero` Python package (`make
python` installs it into the set-up's venv). Prints one line per lost goat game, then the totals by result, then
(`--before`, 10 by default) the early giveaways: of the games whose first capture came before that ply (the
opening's plies counted) after a goat move of the player's, how many safe moves that goat move had (none: forced;
one; more), and how many of the avoidable ones were lost.
"""
import argparse
import collections
import json

import zero


def leaves_a_capture(state):
    return any("x" in move for move in state.legal_moves())


def safe_goat_moves(state):
    """The goat moves at `state` that leave the tigers no capture."""
    return [m for m in state.legal_moves() if not leaves_a_capture(state.child(m))]


def game_of(record):
    """The game and rules a match record was played under."""
    return zero.Game(record["game"], None, ",".join(record["rules"]))


def goat_moves_leaving_captures(record):
    """Counts of the goats' moves that left a capture: (avoidable, forced) and the captures the tigers made."""
    game = game_of(record)
    state = game.replay(record["opening"])
    counts = collections.Counter()
    for move in record["moves"]:
        goats_to_move = state.to_move_index == 0
        if goats_to_move and leaves_a_capture(state.child(move)):
            counts["avoidable" if safe_goat_moves(state) else "forced"] += 1
        elif not goats_to_move and "x" in move:
            counts["captures"] += 1
        state.play(move)
    return counts


def early_giveaway(record, before):
    """How many goat moves were safe at the goat move before the game's first capture, if that capture came
    before ply `before` and the goat move was the player's (not the opening's); None otherwise."""
    moves = list(record["opening"]) + list(record["moves"])
    first = next((ply for ply, move in enumerate(moves[:before]) if "x" in move), None)
    if first is None or first - 1 < len(record["opening"]):
        return None
    game = game_of(record)
    state = game.replay(moves[: first - 1])
    return len(safe_goat_moves(state))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("player")
    parser.add_argument("games", nargs="+")
    parser.add_argument("--before", type=int, default=10, help="an early capture is one before this ply")
    args = parser.parse_args()
    totals = collections.defaultdict(collections.Counter)
    early = collections.Counter()
    for path in args.games:
        for line in open(path):
            record = json.loads(line)
            if record["game"] != "baghchal" or record["first"] != args.player:
                continue  # the goats move first: only the player's goat games
            result = {"first": "won", "second": "lost", None: "drawn"}[record["winner"]]
            counts = goat_moves_leaving_captures(record)
            totals[result]["games"] += 1
            totals[result].update(counts)
            safe = early_giveaway(record, args.before)
            if safe is not None:
                early["games"] += 1
                early[min(safe, 2)] += 1
                early["avoidable lost"] += safe > 0 and result == "lost"
            if result == "lost":
                print(f"lost: opening {record['opening_index']}, {len(record['moves'])} plies, "
                      f"{counts['captures']} captures, {counts['avoidable']} avoidable and "
                      f"{counts['forced']} forced goat moves leaving one")
    for result in ("won", "drawn", "lost"):
        c = totals[result]
        print(f"{result}: {c['games']} games, {c['captures']} captures, goat moves leaving a capture: "
              f"{c['avoidable']} avoidable, {c['forced']} forced")
    print(f"first capture before ply {args.before}: {early['games']} games; the goat move before it had no safe "
          f"move in {early[0]}, one in {early[1]}, more in {early[2]}; {early['avoidable lost']} of the avoidable lost")


if __name__ == "__main__":
    main()
