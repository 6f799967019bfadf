#!/usr/bin/env python3
"""Connect Four match between two programs that speak zero's bot line protocol (docs/protocol.md).

    python3 scripts/peers/headtohead.py \\
        --first "target/release/zero bot BUNDLE" \\
        --second "$PY scripts/peers/openspiel_bot.py --protocol --checkpoint RUN/ckpt-final" \\
        --games 100 --ms 100 --out match.json

Each program is started once (its command line split as a shell would, run from the current directory), asked
`isready` (it has --ready-timeout seconds to load), then for each of its moves sent `position startpos moves
...` and `go movetime MS`, and its `bestmove` read back. The driver keeps the board itself: four in a row wins,
a full board is a draw, and a move that is not legal (malformed, wrong cell, full column), an `error` reply, a
crash or no answer within --move-timeout seconds loses the game for that side, with a message.

Openings: the games start from distinct short openings played as forced moves, each opening played twice with
the colours swapped (games 2k and 2k+1): first all 49 two-ply openings, then three-ply ones, both in an order
shuffled with --seed (so a short match samples them evenly). Game 2k has --first moving first.

Prints W-L-D from --first's side, its score with a 95% interval (Wilson, draws counting half),
the Elo difference that score implies, and the mean time each side used per move as measured by the driver (from
sending `go` to reading `bestmove`). --out FILE writes all of it, with every game's moves, as JSON.
"""

import argparse
import json
import math
import random
import shlex
import subprocess
import sys
import threading
import queue
import time

COLS, ROWS = 7, 6
FILES = "abcdefg"


class Board:
    def __init__(self):
        self.cells = [[0] * ROWS for _ in range(COLS)]  # cells[col][row], row 0 at the bottom; 1/2 = player
        self.heights = [0] * COLS
        self.moves = []  # column letters, zero's notation

    def to_move(self):
        return 1 + len(self.moves) % 2

    def play_column(self, col):
        row = self.heights[col]
        player = self.to_move()
        self.cells[col][row] = player
        self.heights[col] += 1
        self.moves.append(FILES[col])
        return self.wins_at(col, row, player)

    def parse(self, move):
        """Column of a move in zero's notation (the column's letter, or the cell its disc lands on), or raises
        ValueError saying why it is not legal here."""
        if len(move) not in (1, 2) or move[0] not in FILES or (len(move) == 2 and move[1] not in "123456"):
            raise ValueError(f"\"{move}\" is not a column a..g (or a cell a1..g6)")
        col = FILES.index(move[0])
        if self.heights[col] >= ROWS:
            raise ValueError(f"\"{move}\": column {move[0]} is full")
        if len(move) == 2 and int(move[1]) - 1 != self.heights[col]:
            raise ValueError(f"\"{move}\": a disc dropped in column {move[0]} lands on "
                             f"{move[0]}{self.heights[col] + 1}")
        return col

    def wins_at(self, col, row, player):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < COLS and 0 <= r < ROWS and self.cells[c][r] == player:
                    count += 1
                    c, r = c + sign * dc, r + sign * dr
            if count >= 4:
                return True
        return False

    def full(self):
        return all(h == ROWS for h in self.heights)


class Engine:
    """One program speaking the protocol, read by a thread so that every read can time out."""

    def __init__(self, name, command):
        self.name = name
        self.command = command
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=sys.stderr, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.eof = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def expect(self, prefix, timeout):
        """Lines until one starting with `prefix` (returned) or `error` (raised); raises on timeout or exit."""
        deadline = time.monotonic() + timeout
        while True:
            if self.eof:
                raise RuntimeError(f"the program has exited (code {self.exit_code()})")
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"no '{prefix}' within {timeout:g} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.eof = True
                continue
            if line.startswith(prefix):
                return line
            if line.startswith("error"):
                raise RuntimeError(f"answered \"{line}\"")

    def exit_code(self):
        try:
            return self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "still running, output closed"

    def dead(self):
        return self.eof or self.proc.poll() is not None

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def openings(count, seed):
    rng = random.Random(seed)
    two = [(a, b) for a in range(COLS) for b in range(COLS)]
    three = [(a, b, c) for a in range(COLS) for b in range(COLS) for c in range(COLS)]
    rng.shuffle(two)
    rng.shuffle(three)
    chosen = (two + three)[:count]
    if len(chosen) < count:
        sys.exit(f"headtohead: only {len(two) + len(three)} openings of 2 and 3 plies, {count} asked")
    return chosen


def play_game(engines, first_index, opening, ms, move_timeout, times):
    """engines[first_index] moves first. Returns (winner engine index or None, reason, board)."""
    board = Board()
    for col in opening:
        board.play_column(col)
    while True:
        mover = first_index if board.to_move() == 1 else 1 - first_index
        eng = engines[mover]
        try:
            eng.send("position startpos moves " + " ".join(board.moves) if board.moves else "position startpos")
            t0 = time.perf_counter()
            eng.send(f"go movetime {ms}")
            line = eng.expect("bestmove", move_timeout)
            times[mover].append((time.perf_counter() - t0) * 1000)
            words = line.split()
            if len(words) < 2:
                raise ValueError("empty bestmove")
            col = board.parse(words[1])
        except (RuntimeError, ValueError, OSError) as e:
            return 1 - mover, f"{eng.name} forfeits at ply {len(board.moves) + 1}: {e}", board
        if board.play_column(col):
            return mover, "four in a row", board
        if board.full():
            return None, "full board", board


def score_interval(scores):
    """Mean score with a 95% Wilson interval, the games' score points (draws half) as successes: conservative
    where there are draws, and not empty at 0% or 100%."""
    n = len(scores)
    p = sum(scores) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1) + 0.0  # (+ 0.0: never "-0")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--first", required=True, help="command line of the first program (scores are its)")
    p.add_argument("--second", required=True, help="command line of the second program")
    p.add_argument("--first-name", default="first")
    p.add_argument("--second-name", default="second")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--ms", type=int, default=100, help="movetime for both sides (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the openings' order")
    p.add_argument("--ready-timeout", type=float, default=300, help="seconds each program has to answer isready")
    p.add_argument("--move-timeout", type=float, default=None,
                   help="seconds for one move before it is lost (default: 30 + 20 x movetime)")
    p.add_argument("--out", help="write the summary and the games as JSON here")
    args = p.parse_args()
    move_timeout = args.move_timeout or 30 + 20 * args.ms / 1000

    names = [args.first_name, args.second_name]
    engines = [Engine(names[0], args.first), Engine(names[1], args.second)]
    try:
        for eng in engines:
            eng.send("isready")
            eng.expect("readyok", args.ready_timeout)
    except RuntimeError as e:
        for eng in engines:
            eng.proc.kill()
        sys.exit(f"headtohead: a program did not start: {e}")

    opens = openings((args.games + 1) // 2, args.seed)
    times = [[], []]
    games = []
    w = l = d = 0
    aborted = None
    t_start = time.time()
    for g in range(args.games):
        opening = opens[g // 2]
        first_index = g % 2  # even games: --first moves first
        for eng in engines:
            eng.send("newgame")
        winner, reason, board = play_game(engines, first_index, opening, args.ms, move_timeout, times)
        if winner is None:
            d += 1
            result = "draw"
        elif winner == 0:
            w += 1
            result = f"{names[0]} wins"
        else:
            l += 1
            result = f"{names[1]} wins"
        if "forfeits" in reason:
            print(f"headtohead: game {g + 1}: {reason}", file=sys.stderr)
        games.append({
            "game": g + 1,
            "opening": "".join(str(c + 1) for c in opening),
            "first_player": names[first_index],
            "moves": board.moves,
            "result": result,
            "reason": reason,
            "score_first": 1.0 if winner == 0 else 0.0 if winner == 1 else 0.5,
        })
        print(f"game {g + 1:3}: opening {games[-1]['opening']:<4} {names[first_index]:>10} starts  "
              f"{result:<16} ({reason}, {len(board.moves)} plies)   {w}-{l}-{d}", flush=True)
        dead = [eng.name for eng in engines if eng.dead()]
        if dead:
            aborted = f"{', '.join(dead)} exited after game {g + 1}: match stopped"
            break
    for eng in engines:
        eng.close()

    score, lo, hi = score_interval([g["score_first"] for g in games])
    mean_ms = [sum(t) / len(t) if t else 0.0 for t in times]
    summary = {
        "first": {"name": names[0], "command": args.first, "mean_ms_per_move": round(mean_ms[0], 1),
                  "max_ms_per_move": round(max(times[0], default=0.0), 1), "moves": len(times[0])},
        "second": {"name": names[1], "command": args.second, "mean_ms_per_move": round(mean_ms[1], 1),
                   "max_ms_per_move": round(max(times[1], default=0.0), 1), "moves": len(times[1])},
        "games": len(games),
        "movetime_ms": args.ms,
        "seed": args.seed,
        "wins": w, "losses": l, "draws": d,
        "score": round(score, 4), "score_95": [round(lo, 4), round(hi, 4)],
        "elo": round(elo(score), 1), "elo_95": [round(elo(lo), 1), round(elo(hi), 1)],
        "forfeits": sum("forfeits" in g["reason"] for g in games),
        "aborted": aborted,
        "wall_s": round(time.time() - t_start, 1),
        "game_records": games,
    }
    print(f"\n{names[0]} vs {names[1]}: {w}-{l}-{d} (W-L-D for {names[0]}), score {100 * score:.1f}% "
          f"[{100 * lo:.1f}%, {100 * hi:.1f}%] (95%), Elo {summary['elo']:+.0f} "
          f"[{summary['elo_95'][0]:+.0f}, {summary['elo_95'][1]:+.0f}]")
    print(f"time per move (driver's clock, movetime {args.ms} ms): {names[0]} {mean_ms[0]:.1f} ms, "
          f"{names[1]} {mean_ms[1]:.1f} ms; {summary['forfeits']} forfeit(s); {summary['wall_s']} s")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(summary, f, indent=2)
            f.write("\n")
    if aborted:
        sys.exit(f"headtohead: {aborted}")


if __name__ == "__main__":
    main()
