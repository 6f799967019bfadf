"""zero from Python: its games, their network encoding, trained bots and run directories.

The games and the bot are zero's own Rust code (``zero._zero``, built by maturin); the bot runs its network
through tract, a pure-Rust ONNX runtime, so ``import zero`` loads no libtorch and lives beside ``import torch``.
Run directories open as Arrow tables (pyarrow). ``docs/python.md`` is the guide.

>>> import zero
>>> game = zero.Game("baghchal")
>>> state = game.new_state()
>>> state.to_move, len(state.legal_moves())
('goats', 21)
"""

from ._zero import Analysis, Bot, Game, MoveStats, Outcome, State, __version__, games, levels
from .run import Run

__all__ = [
    "Analysis",
    "Bot",
    "Game",
    "MoveStats",
    "Outcome",
    "Run",
    "State",
    "__version__",
    "games",
    "levels",
]
