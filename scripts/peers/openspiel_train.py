#!/usr/bin/env python3
"""Train OpenSpiel's Python AlphaZero on Connect Four for a fixed wall-clock time.

    PY=$(scripts/peers/setup-openspiel.sh)
    $PY scripts/peers/openspiel_train.py --minutes 60 --out runs/openspiel-c4
    # a smoke test: a smaller replay buffer so that a few minutes reach learning steps
    $PY scripts/peers/openspiel_train.py --minutes 3 --marks 1,2,3 --out /tmp/os --set replay_buffer_size=512

Runs OpenSpiel's own training loop (open_spiel.python.algorithms.alpha_zero.alpha_zero: actor processes playing
self-play games with MCTS + network, a learner in this process that trains and checkpoints after every step) with
the settings of OpenSpiel's example (open_spiel/python/examples/alpha_zero.py defaults plus the documented Connect
Four command of docs/alpha_zero.md, `--game connect_four --nn_model mlp --actors 10`), adapted to two CPU cores:

  actors 10 -> 2          two cores: one self-play process per core (2 is also the example's own default); the
                          learner shares them, it only works between collection phases
  evaluators 2 -> 0       the evaluators play against MCTS-with-rollouts only to log progress and feed nothing
                          back into training; on two cores they would take CPU from self-play (strength is
                          measured outside, by the solver benchmark and the head-to-head)
  max_steps 26 -> 0       no step limit: the run is limited by wall-clock time instead
  checkpoint_freq 25 -> 1 keep every step's network (not just every 25th) so that the network at each time mark
                          can be picked; only changes which files are kept. Afterwards the ones not needed (not
                          a mark, not a multiple of 25, not the last) are deleted unless --keep-all.

--jit-inference (off by default, so not OpenSpiel as shipped) compiles the self-play network evaluation with
jax.jit; OpenSpiel 2.0.2 runs it op by op (about 8 ms a position here), which dominates self-play time on a CPU:
in 3-minute smoke runs on this shared machine, 2.8 self-play positions per actor CPU-second as shipped, 147
with --jit-inference.

Everything else is the example's: mlp of width 256 and depth 2 (flax linen API), 40 simulations per move,
uct_c 1.41, Dirichlet noise epsilon 0.25 / alpha 1, temperature 1 for the first 2 moves then greedy (the
example's temperature_drop, "less than AZ due to short games", chosen for tic-tac-toe, kept as it is), replay
buffer 8192 states reused 4 times (a learning step every 2048 new states), batches of 128, Adam at 1e-3, L2 1e-4.

Writes into --out DIR (OpenSpiel's own files and ours):
  config.json, learner.jsonl, log-learner.txt, log-actor-N.txt   OpenSpiel's
  checkpoint-N/                                          OpenSpiel's orbax checkpoints (N = learning step)
  checkpoints.json   every checkpoint's step and wall-clock time since the start, and for each mark (minutes,
                     --marks, default 15,30,60, plus "final") the latest checkpoint saved at or before it
  ckpt-15min, ...    symlinks to those checkpoints (ckpt-final: the last one)
  rates.jsonl        one line per learning step: self-play states so far and per second, learner samples
  rates.json         the whole run's summary: self-play positions/s, training samples/s
Ends by itself when the time is up: the learner stops at its next wait for data (or at once when it is idle),
OpenSpiel's shutdown tells the actors to stop after their current game, and any process still alive 120 s
later is terminated.
"""

import argparse
import json
import multiprocessing
import os
import shutil
import sys
import threading
import time

# CPU only, and quiet about the absence of accelerators. (Set before jax is imported; the actors inherit it.)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

EXAMPLE_CHECKPOINT_FREQ = 25
JIT_ENV = "ZERO_OPENSPIEL_JIT_INFERENCE"


def _install_jit_inference():
    """Replaces the linen Model.inference of OpenSpiel (op by op, not jitted in open_spiel 2.0.2: about 8 ms a
    position here) with the same network function compiled once per model with jax.jit (same outputs)."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from open_spiel.python.algorithms.alpha_zero import model_linen

    def inference(self, observation, legals_mask):
        fn = getattr(self, "_zero_jit", None)
        if fn is None:
            apply_fn = self._state.apply_fn

            def net(params, batch_stats, obs, mask):
                logits, value = apply_fn({"params": params, "batch_stats": batch_stats}, obs,
                                         training=False, mutable=False)
                logits = jnp.where(mask, logits, jnp.finfo(jnp.float32).min)
                return value, jax.nn.softmax(logits, axis=-1)

            fn = self._zero_jit = jax.jit(net)
        value, policy = fn(self._state.params, self._state.batch_stats,
                           np.asarray(observation, dtype=np.float32), np.asarray(legals_mask, dtype=bool))
        return np.asarray(value), np.asarray(policy)

    model_linen.Model.inference = inference


# Spawned actor processes run this module's top level too (as __mp_main__), so the opt-in reaches them.
if os.environ.get(JIT_ENV) == "1":
    _install_jit_inference()


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=60.0, help="wall-clock minutes to train (default 60)")
    p.add_argument("--out", required=True, help="output directory (created; must be empty or absent)")
    p.add_argument("--marks", default="15,30,60",
                   help="comma-separated minutes at which to record the network (default 15,30,60)")
    p.add_argument("--actors", type=int, default=2, help="self-play processes (default 2, for two cores)")
    p.add_argument("--evaluators", type=int, default=0, help="MCTS-vs-network evaluator processes (default 0)")
    p.add_argument("--keep-all", action="store_true", help="keep every step's checkpoint")
    p.add_argument("--jit-inference", action="store_true",
                   help="not OpenSpiel as shipped: evaluate the network in self-play with jax.jit (its own "
                        "Model.inference runs op by op, ~8 ms a position); off by default")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a field of OpenSpiel's Config (e.g. replay_buffer_size=512 for a smoke test, "
                        "whose few minutes would otherwise not reach the first learning step); repeatable")
    return p.parse_args()


def apply_overrides(config, overrides):
    changes = {}
    for item in overrides:
        key, _, value = item.partition("=")
        if not hasattr(config, key):
            sys.exit(f"openspiel_train: --set {item}: OpenSpiel's Config has no field {key!r}")
        old = getattr(config, key)
        if isinstance(old, bool):
            changes[key] = value.lower() in ("1", "true", "yes")
        elif isinstance(old, (int, float)):
            changes[key] = type(old)(value)
        else:
            changes[key] = value
    return config.replace(**changes) if changes else config


def example_config(alpha_zero, path, actors, evaluators):
    """OpenSpiel's examples/alpha_zero.py defaults with the documented connect_four flags, for two cores."""
    return alpha_zero.Config(
        game="connect_four",              # docs/alpha_zero.md: --game connect_four
        path=path,
        learning_rate=1e-3,
        weight_decay=1e-4,
        decouple_weight_decay=False,
        train_batch_size=2**7,
        replay_buffer_size=2**13,
        replay_buffer_reuse=4,
        max_steps=0,                      # example 26: unbounded, the run is time-limited
        checkpoint_freq=1,                # example 25: keep every step so the time marks can be chosen
        actors=actors,                    # docs 10, example default 2: two cores
        evaluators=evaluators,            # example 2: none, they do not feed training
        uct_c=1.41,
        max_simulations=40,
        policy_alpha=1.0,
        policy_epsilon=0.25,
        temperature=1.0,
        temperature_drop=2,
        evaluation_window=50,
        eval_levels=7,
        nn_model="mlp",                   # docs/alpha_zero.md: --nn_model mlp
        nn_width=2**8,
        nn_depth=2,
        observation_shape=None,
        output_size=None,
        quiet=True,
        verbose=False,
        nn_api_version="linen",           # the example's default API
    )


def _proc_cpu_seconds(pid):
    """utime + stime of a process from /proc (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Recorder:
    """Hooks on the learner's model and replay buffer (this process only) that time steps and count work."""

    def __init__(self, out, start):
        self.out = out
        self.start = start
        self.lock = threading.Lock()
        self.states = 0            # states added to the learner's replay buffer (= self-play positions received)
        self.samples = 0           # samples in learner batches
        self.train_seconds = 0.0   # time spent in learning steps (updates until the checkpoint is written)
        self.step_train_start = None
        self.checkpoints = []      # {"step", "path", "elapsed_s"}
        self.actor_cpu = {}        # pid -> CPU seconds last seen (the machine may be shared: CPU time says how
                                   # much of it the actors actually got)
        self.rates = open(os.path.join(out, "rates.jsonl"), "a", buffering=1)

    def install(self, model_cls, buffer_cls, jax):
        rec = self
        orig_update = model_cls.update
        orig_save = model_cls.save_checkpoint
        orig_append = buffer_cls.append

        def update(model, batch):
            if rec.step_train_start is None:
                rec.step_train_start = time.time()
            rec.samples += int(batch.observation.shape[0])
            return orig_update(model, batch)

        def save_checkpoint(model, step, *args, **kwargs):
            if rec.step_train_start is not None:
                jax.block_until_ready(model._state)  # the updates are asynchronous: count them until done
                rec.train_seconds += time.time() - rec.step_train_start
                rec.step_train_start = None
            result = orig_save(model, step, *args, **kwargs)
            rec.saved(step)
            return result

        def append(buffer, item):
            rec.states += 1
            return orig_append(buffer, item)

        model_cls.update = update
        model_cls.save_checkpoint = save_checkpoint
        buffer_cls.append = append

    def actor_cpu_seconds(self):
        for child in multiprocessing.active_children():
            cpu = _proc_cpu_seconds(child.pid)
            if cpu is not None:
                self.actor_cpu[child.pid] = cpu
        return sum(self.actor_cpu.values())

    def saved(self, step):
        elapsed = time.time() - self.start
        actor_cpu = self.actor_cpu_seconds()
        self.checkpoints.append({"step": int(step), "path": f"checkpoint-{step}", "elapsed_s": round(elapsed, 2)})
        line = {
            "step": int(step),
            "elapsed_s": round(elapsed, 2),
            "selfplay_states": self.states,
            "selfplay_positions_per_s": round(self.states / elapsed, 2) if elapsed > 0 else 0.0,
            "train_samples": self.samples,
            "train_seconds": round(self.train_seconds, 2),
            "train_samples_per_s_learning": round(self.samples / self.train_seconds, 1) if self.train_seconds else 0.0,
            "train_samples_per_s_wall": round(self.samples / elapsed, 2) if elapsed > 0 else 0.0,
            "actor_cpu_s": round(actor_cpu, 1),
            "learner_cpu_s": round(time.process_time(), 1),
            "selfplay_positions_per_actor_cpu_s": round(self.states / actor_cpu, 2) if actor_cpu else 0.0,
        }
        self.rates.write(json.dumps(line) + "\n")
        print(f"[openspiel_train] {elapsed / 60:6.2f} min  step {step:>4}  self-play {self.states} states "
              f"({line['selfplay_positions_per_s']}/s)  learner {self.samples} samples "
              f"({line['train_samples_per_s_learning']}/s while learning, {line['train_samples_per_s_wall']}/s "
              f"over the run); CPU s: actors {line['actor_cpu_s']}, learner {line['learner_cpu_s']}", flush=True)


class _DeadlineClock:
    """Stands in for the `time` module inside alpha_zero.py: its learner's wait for data (time.sleep in
    trajectory_generator) raises KeyboardInterrupt once the deadline has passed, which OpenSpiel's alpha_zero()
    catches and answers with its own clean shutdown (tell the actors to stop, join them). The learner is never
    interrupted in the middle of a learning step or a checkpoint write."""

    def __init__(self, deadline):
        self.deadline = deadline

    def __getattr__(self, name):
        return getattr(time, name)

    def sleep(self, seconds):
        if time.time() >= self.deadline:
            raise KeyboardInterrupt("time is up")
        time.sleep(seconds)


def write_checkpoints_json(out, rec, marks_min, minutes, keep_all):
    ckpts = sorted((c for c in rec.checkpoints if c["step"] >= 0), key=lambda c: c["elapsed_s"])
    marks = {}
    for m in marks_min:
        at_or_before = [c for c in ckpts if c["elapsed_s"] <= m * 60]
        marks[f"{m:g}min"] = at_or_before[-1] if at_or_before else None
    marks["final"] = ckpts[-1] if ckpts else None
    keep = {c["step"] for c in marks.values() if c}
    for c in ckpts:
        c["kept"] = keep_all or c["step"] in keep or c["step"] % EXAMPLE_CHECKPOINT_FREQ == 0
        if not c["kept"]:
            shutil.rmtree(os.path.join(out, c["path"]), ignore_errors=True)
    for name, c in marks.items():
        link = os.path.join(out, f"ckpt-{name}")
        if os.path.islink(link):
            os.unlink(link)
        if c:
            os.symlink(c["path"], link)
    doc = {
        "game": "connect_four",
        "minutes_requested": minutes,
        "marks": marks,
        "checkpoints": ckpts,
        "note": "elapsed_s is wall-clock seconds from the start of training to the end of the checkpoint's write; "
                "each mark names the latest checkpoint written at or before it (ckpt-<mark> links to it)",
    }
    with open(os.path.join(out, "checkpoints.json"), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    return marks


def main():
    args = parse_args()
    out = os.path.abspath(args.out)
    if os.path.exists(out) and os.listdir(out):
        sys.exit(f"openspiel_train: {out} exists and is not empty")
    os.makedirs(out, exist_ok=True)
    marks_min = sorted({float(m) for m in args.marks.split(",") if m.strip()})
    marks_min = [m for m in marks_min if m <= args.minutes + 1e-9]
    if args.jit_inference:
        os.environ[JIT_ENV] = "1"  # for the actors, spawned after this
        _install_jit_inference()

    import jax
    from open_spiel.python.algorithms.alpha_zero import alpha_zero
    from open_spiel.python.algorithms.alpha_zero import replay_buffer as buffer_lib
    from open_spiel.python.algorithms.alpha_zero import utils

    config = apply_overrides(example_config(alpha_zero, out, args.actors, args.evaluators), args.set)
    start = time.time()
    deadline = start + args.minutes * 60
    rec = Recorder(out, start)
    rec.install(utils.api_selector(config.nn_api_version).Model, buffer_lib.Buffer, jax)
    alpha_zero.time = _DeadlineClock(deadline)

    # Safety net: if OpenSpiel's shutdown hangs, end the processes this run started.
    def watchdog():
        time.sleep(max(0.0, deadline - time.time()) + 120)
        children = multiprocessing.active_children()
        print(f"[openspiel_train] shutdown overran by 120 s: terminating {len(children)} process(es)", flush=True)
        for child in children:
            child.terminate()
        time.sleep(10)
        for child in multiprocessing.active_children():
            child.kill()
        write_summary(out, rec, start, marks_min, args, forced=True)
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()

    print(f"[openspiel_train] training connect_four for {args.minutes:g} min into {out} "
          f"({args.actors} actors, {args.evaluators} evaluators, marks {marks_min} min"
          f"{', jitted inference' if args.jit_inference else ''})", flush=True)
    try:
        alpha_zero.alpha_zero(config)
    finally:
        for child in multiprocessing.active_children():  # normally none left after OpenSpiel's own shutdown
            child.terminate()
    write_summary(out, rec, start, marks_min, args, forced=False)


def write_summary(out, rec, start, marks_min, args, forced):
    elapsed = time.time() - start
    marks = write_checkpoints_json(out, rec, marks_min, args.minutes, args.keep_all)
    # The rates over the training period (up to the last checkpoint), not counting the shutdown.
    last = rec.checkpoints[-1]["elapsed_s"] if rec.checkpoints else elapsed
    actor_cpu = rec.actor_cpu_seconds()
    import resource  # the actors have been joined by now: their whole CPU time is in RUSAGE_CHILDREN
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    actor_cpu = max(actor_cpu, ru.ru_utime + ru.ru_stime)
    summary = {
        "minutes_requested": args.minutes,
        "wall_s": round(elapsed, 1),
        "actors": args.actors,
        "evaluators": args.evaluators,
        "overrides": args.set,
        "jit_inference": args.jit_inference,
        "learning_steps": max((c["step"] for c in rec.checkpoints), default=0),
        "selfplay_states": rec.states,
        "selfplay_positions_per_s": round(rec.states / last, 2) if last else 0.0,
        "train_samples": rec.samples,
        "train_seconds": round(rec.train_seconds, 1),
        "train_samples_per_s_learning": round(rec.samples / rec.train_seconds, 1) if rec.train_seconds else 0.0,
        "train_samples_per_s_wall": round(rec.samples / last, 2) if last else 0.0,
        "actor_cpu_s": round(actor_cpu, 1),
        "learner_cpu_s": round(time.process_time(), 1),
        "selfplay_positions_per_actor_cpu_s": round(rec.states / actor_cpu, 2) if actor_cpu else 0.0,
        "marks": {k: (v["path"] if v else None) for k, v in marks.items()},
        "forced_shutdown": forced,
        "definitions": {
            "selfplay_positions_per_s": "self-play states (positions with a search) received by the learner, per "
                                        "second of training up to the last checkpoint",
            "train_samples_per_s_learning": "samples in learner batches per second spent in learning steps",
            "train_samples_per_s_wall": "samples in learner batches per second of training",
            "selfplay_positions_per_actor_cpu_s": "self-play states per CPU second the actor processes used "
                                                  "(their whole life, start-up included): the rate per core, "
                                                  "whatever else ran on the machine",
        },
    }
    with open(os.path.join(out, "rates.json"), "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print("[openspiel_train] done: " + json.dumps({k: v for k, v in summary.items() if k != "definitions"}),
          flush=True)


if __name__ == "__main__":
    main()
