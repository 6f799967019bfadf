#!/usr/bin/env python3
"""A Connect Four player that moves at random, speaking the subset of zero's bot protocol (docs/protocol.md) that
scripts/peers/headtohead.py uses: isready, newgame, position startpos [moves ...], go [...], quit.

    python3 scripts/peers/random_bot.py [--seed N]

Moves are zero's Connect Four notation (the cell where the disc lands: file a..g, row 1..6 from the bottom).
It needs nothing but Python 3; it answers at once whatever `go` asks, and does not check for a finished game.
"""

import argparse
import random
import re
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args()
    rng = random.Random(args.seed)
    heights = [0] * 7

    def reply(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[0] == "isready":
            reply("readyok")
        elif words[0] == "newgame":
            heights = [0] * 7
        elif words[0] == "position" and len(words) >= 2 and words[1] in ("startpos", "start"):
            new = [0] * 7
            ok = True
            for mv in words[3:] if len(words) > 2 and words[2] == "moves" else []:
                m = re.fullmatch(r"([a-g])([1-6])?", mv)
                col = "abcdefg".index(m.group(1)) if m else -1
                if not m or new[col] >= 6 or (m.group(2) and int(m.group(2)) != new[col] + 1):
                    reply(f"error bad move \"{mv}\"")
                    ok = False
                    break
                new[col] += 1
            if ok:
                heights = new
        elif words[0] == "go":
            free = [c for c in range(7) if heights[c] < 6]
            if not free:
                reply("error game over: draw (full-board)")
                continue
            col = rng.choice(free)
            reply(f"bestmove {'abcdefg'[col]}")
        else:
            reply(f"error unknown command \"{words[0]}\"")


if __name__ == "__main__":
    main()
