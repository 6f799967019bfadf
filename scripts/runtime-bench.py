#!/usr/bin/env python3
"""Compares the bot's network runtimes on one bundle over the line protocol (docs/bundle.md).

    python3 scripts/runtime-bench.py BUNDLE [--positions 40] [--sims 128]

The positions are those of one game the bot plays against itself with `zero bot --runtime torch`; each
runtime (`zero bot --runtime torch`, `torch-bf16`, `onnx`, and the libtorch-free `zero-play` when built) is then
asked for its move in every one of them, from a fresh process, with the same simulations. Printed: the moves
each agrees on with torch, and the simulations per second (the protocol's `info nodes ... time ...`),
summed over the positions. Run it on an idle machine: it times the runtimes one after the other.
"""

import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ZERO = ROOT / "target" / "release" / "zero"
ZERO_PLAY = ROOT / "target" / "release" / "zero-play"


def session(command, positions, sims):
    """(best moves, simulations, milliseconds) of one protocol session over `positions`."""
    lines = ["setoption name multipv value 1", f"setoption name sims value {sims}"]
    for moves in positions:
        lines.append("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        lines.append("go")
    lines.append("quit")
    out = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    best, nodes, millis = [], 0, 0
    for line in out.stdout.splitlines():
        words = line.split()
        if words[:2] == ["info", "nodes"]:
            nodes += int(words[2])
            millis += int(words[4])
        elif words[:1] == ["bestmove"]:
            best.append(words[1])
    if len(best) != len(positions):
        sys.exit(f"{command}: {len(best)} answers to {len(positions)} positions:\n{out.stderr}")
    return best, nodes, millis


def self_play_line(bundle, count, sims):
    """The first `count` positions (as move lists) of a game the bot plays against itself."""
    moves, positions = [], []
    for _ in range(count):
        positions.append(list(moves))
        best, _, _ = session([ZERO, "bot", bundle, "--runtime", "torch"], [moves], sims)
        if best[0] in ("(none)", "none"):
            break
        moves.append(best[0])
    return positions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--sims", type=int, default=128)
    args = parser.parse_args()
    positions = self_play_line(args.bundle, args.positions, args.sims)
    runtimes = [(f"zero bot --runtime {r}", [ZERO, "bot", args.bundle, "--runtime", r]) for r in ("torch", "torch-bf16", "onnx")]
    if ZERO_PLAY.exists():
        runtimes.append(("zero-play bot", [ZERO_PLAY, "bot", args.bundle]))
    reference = None
    print(f"{args.bundle}: {len(positions)} positions, {args.sims} simulations each")
    for name, command in runtimes:
        best, nodes, millis = session(command, positions, args.sims)
        reference = reference or best
        same = sum(a == b for a, b in zip(best, reference))
        print(f"{name:28} same moves as torch {same}/{len(best)}   {1000 * nodes / max(millis, 1):8.0f} simulations/s")


if __name__ == "__main__":
    main()
