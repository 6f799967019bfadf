"""Train-free analysis of a run directory: what each generation's self-play looked like and how training went.

    python examples/analyse_run.py RUN_DIR

Prints, per generation, the games, positions and mean game length, wins by side and how games ended, the spread
of the value targets (a collapse shows as games that all end the same way), and the mean training losses.
"""

from __future__ import annotations

import sys

import pandas as pd

import zero


def main(path: str) -> None:
    run = zero.Run(path)
    header = run.header()
    game = zero.Game(header["game"], options=header["rules"])
    print(f"{path}: {game.name}, rules {header['rules']}")
    games = run.games(["generation", "winner", "reason", "plies"]).to_pandas()
    positions = run.positions(["generation", "result"]).to_pandas()
    first, second = game.players
    games["winner"] = games.winner.map({0: first, 1: second}).fillna("draw")
    table = games.groupby("generation").agg(games=("plies", "size"), mean_plies=("plies", "mean"))
    table["positions"] = positions.groupby("generation").size()
    table["value_target_std"] = positions.groupby("generation").result.std()
    table = table.join(pd.crosstab(games.generation, games.winner))
    print(table.round(2).to_string())
    print("\nhow games ended:")
    print(pd.crosstab(games.generation, games.reason).to_string())
    metrics = pd.DataFrame(run.metrics())
    if not metrics.empty:
        print("\ntraining, mean loss by generation:")
        print(metrics.groupby("generation")[["policy_loss", "value_loss"]].mean().round(4).to_string())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
