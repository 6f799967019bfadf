#!/usr/bin/env bash
# The README's main command until the training loop lands: the most complete thing that works end to end.
# Shows each game's start position, checks perft from it, and measures the rules cores' speed.
set -euo pipefail
zero="${1:-target/release/zero}"
"$zero" --version
for game in bashni baghchal tours; do
    echo
    echo "== $game =="
    "$zero" show "$game"
    echo "perft 1..4 from the start:"
    for depth in 1 2 3 4; do
        printf '  depth %d: %s\n' "$depth" "$("$zero" perft "$game" --depth "$depth")"
    done
done
echo
"$zero" bench perft --repeat 1
