#!/usr/bin/env python3
"""Where a Bagh Chal player's goats lose: over `zero eval --games-out` records of matches against one opponent,
the goats' games of the player and of the opponent, how many lost, how many gave a goat away early (a capture
before a given ply, the opening's plies counted), and how often each kind was lost.

    python3 scripts/baghchal-goat-losses.py --opponent alphabeta:ms=100 [--before 10] [--lines] [--by-opening]
        GAMES.jsonl [...]
    ~/.cache/zero/torch-2.13.0/venv/bin/python scripts/baghchal-goat-losses.py RUN/data/gNNNN-*.games.parquet

In every record one side is OPPONENT (its name in the records); the other is the player, whatever its name, so
the records of several matches of one network under different names count together. A self-play games shard
(`.parquet`, read with pyarrow, which the set-up's venv has) is tallied as the network against itself: the
goats of its games, what the value targets it trains on say an early goat is worth. A capture is a move with an
`x` (`e5xc3`), and only tigers capture. `scripts/goat-captures.py` asks the next
question of one player's lost games: was each capture avoidable at the goat move before it, or forced.
`--lines` also lists the player's early captures: each line from the start to the first capture, with how many
games reached it and how many of them the player's goats lost. The player's tigers are tallied too, their losses
by length: a trap sprung at the same ply of the placement phase (the ply-37 trap) shows as one length.
`--by-opening` counts the player's goat games of evaluation records by the book's opening they began from: a
match of `zero eval --openings BOOK --games N` plays the same openings whatever its `--seed`, so matches on
several seeds meet each opening again, and an opening lost in most of them is one the player does not hold.
"""
import argparse
import collections
import json


def goat_game(record, opponent, before):
    """(whose goats: "player" or "opponent", the winner: "first", "second" or None, the line up to a goat taken
    before ply `before` or None, the game's plies, its opening as (book index, moves)) of one eval record."""
    if opponent not in (record["first"], record["second"]):
        raise ValueError(f"neither side is {opponent!r}")
    goats = "opponent" if record["first"] == opponent else "player"
    moves = list(record["opening"]) + list(record["moves"])
    opening = (record["opening_index"], " ".join(record["opening"]))
    return goats, record["winner"], early_line(moves, before), len(moves), opening


def early_line(moves, before):
    """The moves up to and including the first capture, where it comes before ply `before`; None otherwise."""
    capture = next((ply for ply, move in enumerate(moves[:before]) if "x" in move), None)
    return None if capture is None else " ".join(moves[: capture + 1])


def eval_games(path, opponent, before):
    """The goat games of a `--games-out` file, as `goat_game` gives them."""
    if opponent is None:
        raise SystemExit(f"{path}: an evaluation record file needs --opponent")
    for number, line in enumerate(open(path), start=1):
        try:
            record = json.loads(line)
            if record["game"] == "baghchal":
                yield goat_game(record, opponent, before)
        except (ValueError, KeyError, TypeError) as error:  # a bad line or field of the record
            raise SystemExit(f"{path}:{number}: not a Bagh Chal game record against {opponent}: {error!r}")


def selfplay_games(path, before):
    """The games of a self-play games shard: the goats are self-play's (winner 1 is the tigers, the second)."""
    import pyarrow.parquet

    try:
        rows = pyarrow.parquet.read_table(path, columns=["game", "moves", "winner"]).to_pylist()
    except Exception as error:  # pyarrow's errors for a missing, corrupt or foreign file have no common base
        raise SystemExit(f"{path}: not a self-play games shard: {error}")
    for row in rows:
        if row["game"] == "baghchal":
            winner = {0: "first", 1: "second"}.get(row["winner"])
            yield "self-play", winner, early_line(row["moves"], before), len(row["moves"]), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", help="the opponent's name in evaluation records")
    parser.add_argument("--before", type=int, default=10, help="an early capture is one before this ply")
    parser.add_argument("--lines", action="store_true", help="list the player's early captures, line by line")
    parser.add_argument("--by-opening", action="store_true",
                        help="count the player's goat games and losses by the book opening they began from")
    parser.add_argument("games", nargs="+")
    args = parser.parse_args()
    tally = collections.Counter()
    line_games, line_lost = collections.Counter(), collections.Counter()  # the player's early captures, by line
    tiger_losses = collections.Counter()  # the player's tiger games lost, by their length in plies
    opening_games, opening_lost = collections.Counter(), collections.Counter()  # the player's goats, by opening
    for path in args.games:
        if path.endswith(".parquet"):
            games = selfplay_games(path, args.before)
        else:
            games = eval_games(path, args.opponent, args.before)
        for goats, winner, line, plies, opening in games:
            lost, early = winner == "second", line is not None
            if goats == "player":  # only eval records have a player, and each has its (index, moves) opening
                opening_games[opening] += 1
                opening_lost[opening] += lost
            if goats == "opponent":  # the player's tigers
                tally[("tigers", "games")] += 1
                if winner == "first":
                    tiger_losses[plies] += 1
            if early and goats == "player":
                line_games[line] += 1
                line_lost[line] += lost
            tally[(goats, "games")] += 1
            tally[(goats, "lost")] += lost
            tally[(goats, "early")] += early
            tally[(goats, "early lost")] += early and lost
    if not tally:
        raise SystemExit(f"no Bagh Chal game in {', '.join(args.games)}")
    for goats in ("player", "opponent", "self-play"):
        games, lost = tally[(goats, "games")], tally[(goats, "lost")]
        if games == 0:
            continue
        early, early_lost = tally[(goats, "early")], tally[(goats, "early lost")]
        rest, rest_lost = games - early, lost - early_lost
        print(f"{goats}'s goats: {games} games, lost {lost}; a goat taken before ply {args.before} in {early}, "
              f"of which lost {early_lost}; lost {rest_lost} of the other {rest}")
    if tally[("tigers", "games")]:
        lengths = ", ".join(f"{n} at {plies} plies" for plies, n in tiger_losses.most_common(3))
        print(f"player's tigers: {tally[('tigers', 'games')]} games, lost {sum(tiger_losses.values())}"
              + (f"; the commonest lengths of those losses: {lengths}" if lengths else ""))
    if args.by_opening:
        print_by_opening(opening_games, opening_lost)
    if args.lines:
        for n, line in sorted(((n, line) for line, n in line_games.items()), reverse=True):
            print(f"  {n} games, {line_lost[line]} lost: {line}")


def print_by_opening(opening_games, opening_lost):
    """How many openings the player's goats lost how many times, then each opening lost at least once."""
    if not opening_games:
        print("by opening: no evaluation record among the files")
        return
    spread = collections.Counter((opening_lost[key], games) for key, games in opening_games.items())
    print(f"by opening: the player's goats began from {len(opening_games)} openings; "
          + ", ".join(f"{n} lost in {lost} of {games}" for (lost, games), n in sorted(spread.items())))
    for key in sorted(opening_lost, key=lambda key: (-opening_lost[key], key[0])):
        if opening_lost[key]:
            index, moves = key
            print(f"  opening {index} ({moves}): lost {opening_lost[key]} of {opening_games[key]}")


if __name__ == "__main__":
    main()
