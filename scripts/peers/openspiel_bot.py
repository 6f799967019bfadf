#!/usr/bin/env python3
"""Play Connect Four with a checkpoint of OpenSpiel's AlphaZero (from scripts/peers/openspiel_train.py).

    PY=$(scripts/peers/setup-openspiel.sh)
    # (a) a column for each position of a file, at a budget of simulations or milliseconds per move:
    $PY scripts/peers/openspiel_bot.py --checkpoint RUN/ckpt-final --moves positions.txt --ms 100 > moves.tsv
    # (b) the line protocol of `zero bot` (docs/protocol.md), a minimal subset:
    $PY scripts/peers/openspiel_bot.py --checkpoint RUN/ckpt-final --protocol

--checkpoint is a checkpoint directory (RUN/checkpoint-N, or a RUN/ckpt-<mark> link to one) whose run directory
holds OpenSpiel's config.json, or a run directory itself (its ckpt-final, else its highest checkpoint-N).

The search is OpenSpiel's own MCTSBot as its AlphaZero evaluates with it (alpha_zero._init_bot with
evaluation=True: PUCT with the run's uct_c, the network's prior and value through AlphaZeroEvaluator and its LRU
cache, no Dirichlet noise, no solver) and the move is the root's best_child(), the most visited. Only the budget
differs: --sims N runs N simulations (the run's max_simulations by default), --ms MS runs simulations until MS
milliseconds have passed since the move began (at least one).

--inference jit (default) evaluates the very same network function compiled with jax.jit; --inference openspiel
calls OpenSpiel's Model.inference, which runs the network op by op (it is not jitted in open_spiel 2.0.2) at about
8 ms a position on this machine, so that a 100 ms move gets about a dozen simulations. The two give the same
outputs (checked at start-up with --check-inference); jit only makes timed play faster.

--moves FILE: one position per line as a sequence of columns '1'..'7' (Pons' notation, 1 = leftmost); '#' lines
and empty lines are skipped; the first whitespace-separated token is the position (a line starting with a TAB
is the empty board). Prints `POSITION<TAB>COLUMN` (COLUMN 1..7) for each, or `POSITION<TAB>-` with a message on
stderr for a position that is malformed, illegal or already over.

--protocol: isready -> readyok; newgame; position startpos|start [moves M1 M2 ...]; go [sims N | movetime MS]
-> info ... then bestmove M; legal; show; quit. Moves are zero's Connect Four notation: the column's letter a..g
(d is the centre); the cell the disc lands on (d1, then d2 on top of it) is read too, as zero reads it. Anything
else is answered `error <reason>` and changes nothing.
"""

import argparse
import json
import os
import re
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

COLS, ROWS = 7, 6


# ----------------------------------------------------------------------------------------------------------------
# Loading a checkpoint

def resolve_checkpoint(path):
    """Returns (run_dir, step) for a checkpoint directory, a ckpt-<mark> link or a run directory."""
    path = os.path.realpath(path)
    base = os.path.basename(path)
    m = re.fullmatch(r"checkpoint-(-?\d+)", base)
    if m:
        return os.path.dirname(path), int(m.group(1))
    if os.path.isfile(os.path.join(path, "config.json")):
        final = os.path.join(path, "ckpt-final")
        if os.path.exists(final):
            return resolve_checkpoint(final)
        steps = [int(d.split("-", 1)[1]) for d in os.listdir(path) if re.fullmatch(r"checkpoint-\d+", d)]
        if steps:
            return path, max(steps)
        if os.path.isdir(os.path.join(path, "checkpoint--1")):
            return path, -1
    sys.exit(f"openspiel_bot: {path} is neither a checkpoint-N directory nor a run directory with checkpoints")


class JitModel:
    """The network of an OpenSpiel linen/nnx Model, compiled with jax.jit; same interface as Model.inference."""

    def __init__(self, model):
        import jax
        import jax.numpy as jnp
        self._model = model
        state = model._state
        if hasattr(state, "apply_fn"):  # linen: a flax TrainState
            apply_fn = state.apply_fn

            def net(params, batch_stats, obs, mask):
                logits, value = apply_fn({"params": params, "batch_stats": batch_stats}, obs,
                                         training=False, mutable=False)
                logits = jnp.where(mask, logits, jnp.finfo(jnp.float32).min)
                return value, jax.nn.softmax(logits, axis=-1)

            compiled = jax.jit(net)
            self._call = lambda obs, mask: compiled(state.params, state.batch_stats, obs, mask)
        else:
            self._call = None  # nnx: fall back to OpenSpiel's own inference

    def inference(self, observation, legals_mask):
        import numpy as np
        if self._call is None:
            return self._model.inference(observation, legals_mask)
        value, policy = self._call(np.asarray(observation, dtype=np.float32), np.asarray(legals_mask, dtype=bool))
        return np.asarray(value), np.asarray(policy)


def load_player(checkpoint, inference, check):
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.alpha_zero import evaluator as evaluator_lib
    from open_spiel.python.algorithms.alpha_zero import utils

    run_dir, step = resolve_checkpoint(checkpoint)
    with open(os.path.join(run_dir, "config.json")) as f:
        cfg = json.load(f)
    if cfg["game"] != "connect_four":
        sys.exit(f"openspiel_bot: {run_dir} was trained on {cfg['game']}, not connect_four")
    game = pyspiel.load_game(cfg["game"])
    model = utils.api_selector(cfg.get("nn_api_version", "nnx")).Model.build_model(
        cfg["nn_model"], cfg["observation_shape"], cfg["output_size"], cfg["nn_width"], cfg["nn_depth"],
        cfg["weight_decay"], cfg["learning_rate"], run_dir, decouple_weight_decay=cfg["decouple_weight_decay"])
    model.load_checkpoint(step)
    net = JitModel(model) if inference == "jit" else model
    if check and net is not model:
        state = game.new_initial_state()
        for a in (3, 3, 2, 4):
            obs, mask = np.asarray(state.observation_tensor()), np.asarray(state.legal_actions_mask())
            v1, p1 = model.inference(obs, mask)
            v2, p2 = net.inference(obs, mask)
            if abs(float(v1) - float(v2)) > 1e-4 or np.max(np.abs(np.asarray(p1) - np.asarray(p2))) > 1e-4:
                sys.exit(f"openspiel_bot: jitted network differs from Model.inference: {v1} {p1} vs {v2} {p2}")
            state.apply_action(a)
    evaluator = evaluator_lib.AlphaZeroEvaluator(game, net)
    bot = mcts.MCTSBot(game, cfg["uct_c"], cfg["max_simulations"], evaluator, solve=False,
                       dirichlet_noise=None, child_selection_fn=mcts.SearchNode.puct_value,
                       verbose=False, dont_return_chance_node=True)
    return Player(game, bot, cfg["max_simulations"]), f"{run_dir}/checkpoint-{step}"


class Player:
    """OpenSpiel's MCTSBot search with a budget of simulations or of time."""

    def __init__(self, game, bot, default_sims):
        self.game = game
        self.bot = bot
        self.default_sims = default_sims

    def search(self, state, sims=None, ms=None):
        """Returns (root, simulations). Same loop as MCTSBot.mcts_search (solve=False), with a deadline."""
        from open_spiel.python.algorithms import mcts
        bot = self.bot
        if sims is None and ms is None:
            sims = self.default_sims
        deadline = time.perf_counter() + ms / 1000.0 if ms is not None else None
        root = mcts.SearchNode(None, state.current_player(), 1)
        n = 0
        while True:
            if sims is not None and n >= sims:
                break
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            visit_path, working_state = bot._apply_tree_policy(root, state)
            if working_state.is_terminal():
                returns = working_state.returns()
                visit_path[-1].outcome = returns
            else:
                returns = bot.evaluator.evaluate(working_state)
            for node in visit_path:
                # Connect Four has no chance nodes: each node is credited with the return of the player who
                # moved into it (as mcts_search does).
                node.total_reward += returns[node.player]
                node.explore_count += 1
            n += 1
        return root, n

    def best_action(self, state, sims=None, ms=None):
        root, n = self.search(state, sims=sims, ms=ms)
        best = root.best_child()
        value = best.total_reward / best.explore_count if best.explore_count else 0.0
        return best.action, n, value


# ----------------------------------------------------------------------------------------------------------------
# Positions and notation

def position_from_columns(game, digits):
    """A pyspiel state from a Pons-style sequence of digits 1..7; raises ValueError if it is not a legal game."""
    state = game.new_initial_state()
    for i, ch in enumerate(digits):
        if ch not in "1234567":
            raise ValueError(f"move {i + 1}: '{ch}' is not a column 1..7")
        if state.is_terminal():
            raise ValueError(f"move {i + 1}: the game is already over")
        col = int(ch) - 1
        if col not in state.legal_actions():
            raise ValueError(f"move {i + 1}: column {ch} is full")
        state.apply_action(col)
    return state


def heights(history):
    h = [0] * COLS
    for col in history:
        h[col] += 1
    return h


def cell_name(col, row):
    return f"{'abcdefg'[col]}{row + 1}"


def parse_cell(move, h):
    """zero's notation (a column letter, or the cell where the disc lands) -> column index, checked against the
    column heights h."""
    m = re.fullmatch(r"([a-g])([1-6])?", move)
    if not m:
        raise ValueError(f"bad move \"{move}\": expected a column a..g (or the cell its disc lands on, d1)")
    col = "abcdefg".index(m.group(1))
    if h[col] >= ROWS:
        raise ValueError(f"bad move \"{move}\": column {m.group(1)} is full")
    if m.group(2) and int(m.group(2)) - 1 != h[col]:
        raise ValueError(f"bad move \"{move}\": a disc dropped in column {m.group(1)} lands on "
                         f"{cell_name(col, h[col])}")
    return col


# ----------------------------------------------------------------------------------------------------------------
# Modes

def position_token(line):
    if line.startswith("\t"):
        return ""
    parts = line.split()
    return parts[0] if parts else None


def run_moves(player, path, sims, ms):
    opened = sys.stdin if path == "-" else open(path)
    for raw in opened:
        line = raw.rstrip("\n")
        if line.startswith("#"):
            continue
        pos = position_token(line)
        if pos is None:
            continue
        try:
            state = position_from_columns(player.game, pos)
            if state.is_terminal():
                raise ValueError("the game is already over")
        except ValueError as e:
            print(f"openspiel_bot: position '{pos}': {e}", file=sys.stderr)
            print(f"{pos}\t-", flush=True)
            continue
        action, _, _ = player.best_action(state, sims=sims, ms=ms)
        print(f"{pos}\t{action + 1}", flush=True)


def run_protocol(player, sims, ms):
    history = []  # column indices from the start

    def reply(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        try:
            if cmd == "quit":
                return
            elif cmd == "isready":
                reply("readyok")
            elif cmd in ("newgame", "ucinewgame"):
                history = []
            elif cmd == "position":
                if len(words) < 2 or words[1] not in ("startpos", "start"):
                    raise ValueError(f"bad position \"{' '.join(words[1:2])}\": expected startpos "
                                     "(this bot reads no fen)")
                rest = words[2:]
                if rest and rest[0] != "moves":
                    raise ValueError(f"expected 'moves' after startpos, not \"{rest[0]}\"")
                new = []
                state = player.game.new_initial_state()
                for i, mv in enumerate(rest[1:]):
                    if state.is_terminal():
                        raise ValueError(f"move {i + 1}: \"{mv}\" after the game is over")
                    try:
                        col = parse_cell(mv, heights(new))
                    except ValueError as e:
                        raise ValueError(f"move {i + 1}: {e}")
                    new.append(col)
                    state.apply_action(col)
                history = new
            elif cmd == "go":
                budget_sims, budget_ms = sims, ms
                if len(words) >= 3 and words[1] == "sims":
                    budget_sims, budget_ms = int(words[2]), None
                    if not 1 <= budget_sims <= 1_000_000:
                        raise ValueError(f"sims must be an integer from 1 to 1000000, not \"{words[2]}\"")
                elif len(words) >= 3 and words[1] == "movetime":
                    budget_sims, budget_ms = None, int(words[2])
                    if not 1 <= budget_ms <= 600_000:
                        raise ValueError(f"movetime must be an integer from 1 to 600000, not \"{words[2]}\"")
                elif len(words) > 1:
                    raise ValueError(f"unsupported go \"{' '.join(words[1:])}\": go, go sims N, go movetime MS")
                state = player.game.new_initial_state()
                for col in history:
                    state.apply_action(col)
                if state.is_terminal():
                    r = state.returns()
                    raise ValueError("game over: " + ("draw (full-board)" if r[0] == 0 else
                                                      f"{'first' if r[0] > 0 else 'second'} player wins (four)"))
                t0 = time.perf_counter()
                action, n, value = player.best_action(state, sims=budget_sims, ms=budget_ms)
                spent = (time.perf_counter() - t0) * 1000
                move = "abcdefg"[action]
                reply(f"info nodes {n} time {spent:.0f} nps {n / max(spent, 1e-3) * 1000:.0f}")
                reply(f"info value {max(-1.0, min(1.0, value)):.4f} line {move}")
                reply(f"bestmove {move}")
            elif cmd == "legal":
                h = heights(history)
                state = player.game.new_initial_state()
                for col in history:
                    state.apply_action(col)
                moves = [] if state.is_terminal() else [cell_name(c, h[c]) for c in state.legal_actions()]
                reply("legal " + " ".join(moves))
            elif cmd == "show":
                h = [0] * COLS
                cells = []
                for col in history:
                    cells.append(cell_name(col, h[col]))
                    h[col] += 1
                reply("position startpos moves " + " ".join(cells) if cells else "position startpos")
            else:
                raise ValueError(f"unknown command \"{cmd}\"")
        except ValueError as e:
            reply(f"error {e}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", required=True, help="checkpoint-N dir, ckpt-<mark> link or run directory")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--moves", metavar="FILE", help="print a column for each position of FILE ('-': stdin)")
    mode.add_argument("--protocol", action="store_true", help="speak zero's bot protocol on stdin/stdout")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--sims", type=int, help="simulations per move (default: the run's max_simulations)")
    budget.add_argument("--ms", type=int, help="milliseconds per move (time-limited MCTS)")
    p.add_argument("--inference", choices=["jit", "openspiel"], default="jit",
                   help="the network compiled with jax.jit (default) or OpenSpiel's op-by-op Model.inference")
    p.add_argument("--check-inference", action="store_true",
                   help="at start-up, check that the jitted network gives OpenSpiel's outputs")
    args = p.parse_args()

    player, loaded = load_player(args.checkpoint, args.inference, args.check_inference)
    print(f"openspiel_bot: loaded {loaded} ({args.inference} inference)", file=sys.stderr, flush=True)
    # Warm up (compilation) before anything is timed.
    player.best_action(player.game.new_initial_state(), sims=2)
    if args.moves:
        run_moves(player, args.moves, args.sims, args.ms)
    else:
        run_protocol(player, args.sims, args.ms)


if __name__ == "__main__":
    main()
