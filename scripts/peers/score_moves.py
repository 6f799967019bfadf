#!/usr/bin/env python3
"""Score a player's Connect Four moves against a solver benchmark set.

    $PY scripts/peers/openspiel_bot.py --checkpoint RUN/ckpt-final --moves arena/oracle/connect4.txt --ms 100 \\
        | python3 scripts/peers/score_moves.py arena/oracle/connect4.txt - [--json scores.json] [--name NAME]

The set file: '#' lines are comments; every other line is `POSITION<TAB>CORRECT_COLUMNS[<TAB>STAGE[<TAB>...]]`,
POSITION the moves so far as digits 1..7 (Pons' notation, 1 = leftmost; empty for the start), CORRECT_COLUMNS the
digits of the columns that keep the position's game-theoretic value (e.g. `45`), STAGE an optional name that
groups the positions, then optionally the position's VALUE for the side to move (`win`, `draw`, `loss`: then the
positions are also grouped by stage and value, as `zero bench oracle` reports them); further fields are ignored.
This is the format of zero's solved set (arena/oracle/connect4.txt: moves, keeping columns, stage, value, each
column's result, source).

The moves file (openspiel_bot.py --moves output, '-' for stdin): `POSITION<TAB>COLUMN` lines, COLUMN 1..7 or '-'
when the player gave none. Answers are matched to the set's positions by position (a position listed twice is
matched in order); a position without an answer counts as a wrong move and is reported.

Prints the share of positions where the chosen column is among the correct ones, overall and per stage, with a
95% interval (Wilson), and with --json writes the same as JSON.
"""

import argparse
import collections
import json
import math
import sys


def read_set(path):
    entries = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n").rstrip("\r")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) < 2:
                sys.exit(f"score_moves: {path}:{n}: expected POSITION<TAB>CORRECT_COLUMNS, got {line!r}")
            pos, correct = fields[0].strip(), fields[1].strip()
            if any(c not in "1234567" for c in pos) or not correct or any(c not in "1234567" for c in correct):
                sys.exit(f"score_moves: {path}:{n}: position and correct columns must be digits 1..7: {line!r}")
            stage = fields[2].strip() if len(fields) > 2 and fields[2].strip() else None
            value = fields[3].strip() if stage and len(fields) > 3 and fields[3].strip() in ("win", "draw", "loss") \
                else None
            entries.append((pos, set(correct), stage, value))
    return entries


def read_moves(path):
    answers = collections.defaultdict(collections.deque)
    f = sys.stdin if path == "-" else open(path)
    for raw in f:
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 2:
            fields = line.split()
            if len(fields) == 1:  # the start position: "<TAB>COLUMN" stripped of its tab
                fields = ["", fields[0]]
        answers[fields[0].strip()].append(fields[1].strip())
    return answers


def wilson(k, n):
    if n == 0:
        return 0.0, 0.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("set_file")
    p.add_argument("moves_file", help="the player's POSITION<TAB>COLUMN lines ('-': stdin)")
    p.add_argument("--name", default="player")
    p.add_argument("--json", help="write the scores here as JSON")
    args = p.parse_args()

    entries = read_set(args.set_file)
    answers = read_moves(args.moves_file)
    groups = collections.OrderedDict()
    groups["all"] = [0, 0]
    missing = 0
    for pos, correct, stage, value in entries:
        queue = answers.get(pos)
        move = queue.popleft() if queue else None
        if move is None:
            missing += 1
        ok = move is not None and move in correct
        keys = ("all",) + ((stage,) if stage else ()) + ((f"{stage} {value}",) if value else ())
        for key in keys:
            g = groups.setdefault(key, [0, 0])
            g[0] += ok
            g[1] += 1

    rows = []
    order = ["all", "begin", "middle", "end"]
    ranked = sorted(groups.items(), key=lambda kv: (order.index(kv[0].split()[0]) if kv[0].split()[0] in order
                                                     else len(order), kv[0]))
    for key, (k, n) in ranked:
        lo, hi = wilson(k, n)
        rows.append({"stage": key, "correct": k, "positions": n, "share": round(k / n, 4) if n else 0.0,
                     "share_95": [round(lo, 4), round(hi, 4)]})
    print(f"{args.name}: moves that keep the game-theoretic value ({args.set_file})")
    print(f"  {'stage':<16} {'correct':>8} {'of':>6} {'share':>7}   95% interval")
    for r in rows:
        print(f"  {r['stage']:<16} {r['correct']:>8} {r['positions']:>6} {100 * r['share']:6.1f}%   "
              f"[{100 * r['share_95'][0]:.1f}%, {100 * r['share_95'][1]:.1f}%]")
    if missing:
        print(f"  {missing} position(s) had no answer (counted wrong)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"name": args.name, "set": args.set_file, "missing": missing, "scores": rows}, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
