"""zero's Bashni records as draughts programs read them: pydraughts reads the PDN that `zero games` writes, and
`zero replay` reads the Russian draughts PDN that pydraughts writes (capture-free moves mean the same in both)."""

from __future__ import annotations

import subprocess

from conftest import run_zero, zero_bin
from draughts import Board
from draughts.PDN import PDNReader, PDNWriter


def test_pydraughts_reads_zeros_bashni_pdn(run_dirs, tmp_path):
    pdn = tmp_path / "games.pdn"
    run_zero("games", str(run_dirs["bashni"]), "--out", str(pdn), "--only", "selfplay")
    replayed = run_zero("replay", str(pdn)).stdout.splitlines()
    games = PDNReader(filename=str(pdn)).games
    assert len(games) == len(replayed) > 0
    for game, line in zip(games, replayed):
        assert game.variant == "russian" and game.tags["Variant"] == "bashni"
        # zero's line: "line N: M moves, RESULT..."; pydraughts keeps every move of the movetext.
        assert len(game.moves) == int(line.split(": ")[1].split(" moves")[0]), line


def test_zero_replays_the_russian_draughts_pdn_pydraughts_writes(tmp_path):
    # Six quiet moves, each leaving the other side a quiet reply (Russian draughts forces captures).
    board = Board(variant="russian")
    for _ in range(6):
        for move in [m for m in board.legal_moves() if not m.captures]:
            board.push(move)
            if any(not m.captures for m in board.legal_moves()):
                break
            board.pop()
        else:
            raise AssertionError("no capture-free line from here")
    pdn = tmp_path / "russian.pdn"
    PDNWriter(str(pdn), board=board, game_ending="*")
    out = run_zero("replay", str(pdn), "--game", "bashni").stdout
    assert out.startswith("line 1: 6 moves, *"), out
    # Without --game nothing names zero's game: a clear error, not a guess.
    done = subprocess.run([str(zero_bin()), "replay", str(pdn)], capture_output=True, text=True)
    assert done.returncode == 1 and "GameType 25 is a PDN draughts game" in done.stderr, done.stderr
