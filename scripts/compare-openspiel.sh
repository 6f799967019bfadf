#!/usr/bin/env bash
# zero against OpenSpiel's Python AlphaZero on Connect Four, each trained for the same wall-clock hour on this
# machine, then both scored against perfect play and matched head to head. One command, from nothing:
#
#   scripts/compare-openspiel.sh OUT_DIR
#
# Phases, in order (each leaves OUT_DIR/.done-<phase>; running the command again skips the phases already done,
# so an interrupted comparison goes on where it stopped; delete a marker to redo a phase):
#   1 setup        scripts/setup.sh and a release build of zero; scripts/peers/setup-openspiel.sh (its own venv)
#   2 openspiel    OpenSpiel AlphaZero trains for MINUTES (scripts/peers/openspiel_train.py): OUT/openspiel/
#   3 zero         zero trains for MINUTES: timeout 3600 zero run configs/connect4.toml --run-dir OUT/zero-run
#   4 oracle       at each mark (15, 30, 60 minutes: the latest network saved at or before it) both are scored on
#                  the solved set arena/oracle/connect4.txt: OpenSpiel with openspiel_bot.py --moves piped to
#                  scripts/peers/score_moves.py, zero with `zero bench oracle` (zero_oracle below): OUT/oracle/
#   5 match        the two final networks, H2H_GAMES games at H2H_MS per move (scripts/peers/headtohead.py,
#                  `zero bot BUNDLE` against `openspiel_bot.py --protocol`): OUT/match.json
#   6 summary      a table of all of it: OUT/summary.txt (also printed)
#
# The two trainings run one after the other, each with the machine to itself: nothing else heavy should run
# meanwhile (a compile beside one of them would skew the comparison). Settings, by environment variable:
#   MINUTES (60)          training time of each side, whole minutes; the marks past it are dropped
#   MARKS (15,30,60)      minutes at which the networks are scored
#   ZERO_CONFIG (configs/connect4.toml), ORACLE_SET (arena/oracle/connect4.txt)
#   OS_ORACLE_BUDGET ("--ms 100")  OpenSpiel's budget per benchmark position (openspiel_bot.py --sims N or --ms MS)
#   ZERO_ORACLE_CMD       zero's benchmark command, @CKPT@ standing for the checkpoint (see zero_oracle)
#   H2H_GAMES (100), H2H_MS (100), H2H_SEED (1)
#   OS_TRAIN_ARGS ("")    extra arguments for openspiel_train.py (e.g. --jit-inference, not OpenSpiel as shipped)
#   ZERO (target/release/zero)  the zero binary (phase 1 builds it)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -eq 1 && "$1" != -* ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
out="$(mkdir -p "$1" && cd "$1" && pwd)"
cd "$repo"

MINUTES="${MINUTES:-60}"
MARKS="${MARKS:-15,30,60}"
ZERO_CONFIG="${ZERO_CONFIG:-configs/connect4.toml}"
ORACLE_SET="${ORACLE_SET:-arena/oracle/connect4.txt}"
OS_ORACLE_BUDGET="${OS_ORACLE_BUDGET:---ms 100}"
H2H_GAMES="${H2H_GAMES:-100}"
H2H_MS="${H2H_MS:-100}"
H2H_SEED="${H2H_SEED:-1}"
OS_TRAIN_ARGS="${OS_TRAIN_ARGS:-}"
ZERO="${ZERO:-$repo/target/release/zero}"
ZERO_RUN="$out/zero-run"
OS_RUN="$out/openspiel"

log() { echo "[compare $(date +%H:%M:%S)] $*" | tee -a "$out/compare.log" >&2; }
done_phase() { [[ -f "$out/.done-$1" ]]; }
mark_done() { date -u +%FT%TZ >"$out/.done-$1"; }
marks() { tr ',' '\n' <<<"$MARKS" | awk -v m="$MINUTES" 'NF && $1 <= m + 0'; }

# ---- zero's side of the solver benchmark ------------------------------------------------------------------------
# ZERO_ORACLE_CMD is the whole command line; @CKPT@ is replaced by the checkpoint to score and its output (text) is
# kept in the file named by the second argument. The summary quotes its line containing "right overall".
ZERO_ORACLE_CMD="${ZERO_ORACLE_CMD:-$ZERO bench oracle --game connect4 --set $ORACLE_SET --player ckpt:@CKPT@,ms=100}"
zero_oracle() {
    local ckpt="$1" report="$2"
    local cmd="${ZERO_ORACLE_CMD//@CKPT@/$ckpt}"
    log "zero oracle: $cmd"
    eval "$cmd" >"$report" 2>&1
}

# zero's checkpoint at or before a mark: the latest checkpoints/gen-NNNN.safetensors (not the optimizer state)
# written no later than MARK minutes after the run started (the time phase 3 began).
zero_checkpoint_at() {
    local minutes="$1" start limit best="" t
    start=$(cat "$ZERO_RUN.start")
    limit=$(awk -v s="$start" -v m="$minutes" 'BEGIN { printf "%d", s + m * 60 }')
    for f in "$ZERO_RUN"/checkpoints/gen-*.safetensors; do
        [[ -e "$f" && "$f" != *.train.safetensors ]] || continue
        t=$(stat -c %Y "$f")
        if ((t <= limit)); then best="$f"; fi
    done
    echo "$best"
}

# OpenSpiel's checkpoint at a mark (openspiel_train.py links ckpt-<M>min to the latest at or before it).
os_checkpoint_at() { local link="$OS_RUN/ckpt-${1}min"; [[ -e "$link" ]] && echo "$link" || echo ""; }

# ---- 1 setup ----------------------------------------------------------------------------------------------------
if ! done_phase setup; then
    log "phase 1: set-up (zero's venv and release build, OpenSpiel's venv)"
    scripts/setup.sh
    cargo build --release --bin zero --bin zero-torch
    scripts/peers/setup-openspiel.sh >/dev/null
    mark_done setup
fi
PY="$(scripts/peers/setup-openspiel.sh)"
[[ -x "$ZERO" ]] || { log "no $ZERO: delete $out/.done-setup and run again"; exit 1; }

# ---- 2 OpenSpiel training ---------------------------------------------------------------------------------------
if ! done_phase openspiel; then
    log "phase 2: OpenSpiel AlphaZero trains for $MINUTES min into $OS_RUN"
    rm -rf "$OS_RUN"
    # shellcheck disable=SC2086
    "$PY" scripts/peers/openspiel_train.py --minutes "$MINUTES" --marks "$MARKS" --out "$OS_RUN" $OS_TRAIN_ARGS \
        2>&1 | tee "$out/openspiel-train.log" | grep --line-buffered '^\[openspiel_train\]' || true
    [[ -f "$OS_RUN/rates.json" ]] || { log "OpenSpiel's training wrote no rates.json: see $out/openspiel-train.log"; exit 1; }
    mark_done openspiel
fi

# ---- 3 zero training --------------------------------------------------------------------------------------------
if ! done_phase zero; then
    log "phase 3: zero trains for $MINUTES min into $ZERO_RUN ($ZERO_CONFIG)"
    rm -rf "$ZERO_RUN"
    date +%s >"$ZERO_RUN.start"
    rc=0
    timeout "$((MINUTES * 60))" "$ZERO" run "$ZERO_CONFIG" --run-dir "$ZERO_RUN" >"$out/zero-train.log" 2>&1 || rc=$?
    # 124: stopped by the timeout, which is how a time-limited run ends.
    if [[ $rc -ne 0 && $rc -ne 124 ]]; then log "zero run failed (exit $rc): see $out/zero-train.log"; exit 1; fi
    date +%s >"$ZERO_RUN.end"
    mark_done zero
fi

# ---- 4 solver benchmark -----------------------------------------------------------------------------------------
if ! done_phase oracle; then
    log "phase 4: both scored against perfect play on $ORACLE_SET at the marks $(marks | paste -sd,) min"
    [[ -f "$ORACLE_SET" ]] || { log "no benchmark set $ORACLE_SET"; exit 1; }
    mkdir -p "$out/oracle"
    for m in $(marks); do
        ck="$(os_checkpoint_at "$m")"
        if [[ -n "$ck" ]]; then
            log "OpenSpiel at $m min: $(readlink "$ck") ($OS_ORACLE_BUDGET per position)"
            # shellcheck disable=SC2086
            "$PY" scripts/peers/openspiel_bot.py --checkpoint "$ck" --moves "$ORACLE_SET" $OS_ORACLE_BUDGET \
                2>"$out/oracle/openspiel-${m}min.err" >"$out/oracle/openspiel-${m}min.moves"
            python3 scripts/peers/score_moves.py "$ORACLE_SET" "$out/oracle/openspiel-${m}min.moves" \
                --name "openspiel ${m}min" --json "$out/oracle/openspiel-${m}min.json" | tee "$out/oracle/openspiel-${m}min.txt"
        else
            log "OpenSpiel has no checkpoint at $m min"
        fi
        ck="$(zero_checkpoint_at "$m")"
        if [[ -n "$ck" ]]; then
            echo "$ck" >"$out/oracle/zero-${m}min.checkpoint"
            zero_oracle "$ck" "$out/oracle/zero-${m}min.txt" || log "zero's benchmark failed at $m min: see $out/oracle/zero-${m}min.txt"
            grep -i "right overall" "$out/oracle/zero-${m}min.txt" || true
        else
            log "zero has no checkpoint at $m min"
        fi
    done
    mark_done oracle
fi

# ---- 5 head-to-head ---------------------------------------------------------------------------------------------
if ! done_phase match; then
    last="$(marks | tail -n1)"
    zck="$(zero_checkpoint_at "$last")"
    ock="$(os_checkpoint_at "$last")"
    [[ -n "$zck" && -n "$ock" ]] || { log "no networks at $last min to match (zero: '$zck', OpenSpiel: '$ock')"; exit 1; }
    log "phase 5: $H2H_GAMES games at $H2H_MS ms a move: zero $zck against OpenSpiel $(readlink "$ock")"
    rm -rf "$out/zero-bundle"
    "$ZERO" export "$zck" --out "$out/zero-bundle" >"$out/zero-export.log" 2>&1
    python3 scripts/peers/headtohead.py \
        --first "$ZERO bot $out/zero-bundle" --first-name zero \
        --second "$PY scripts/peers/openspiel_bot.py --protocol --checkpoint $ock" --second-name openspiel \
        --games "$H2H_GAMES" --ms "$H2H_MS" --seed "$H2H_SEED" --out "$out/match.json" 2>"$out/match.err" |
        tee "$out/match.txt"
    mark_done match
fi

# ---- 6 summary --------------------------------------------------------------------------------------------------
log "phase 6: summary"
{
    echo "zero vs OpenSpiel AlphaZero (open_spiel 2.0.2), Connect Four, $MINUTES min of training each on $(nproc) cores"
    echo
    python3 - "$OS_RUN" "$out" "$(marks | paste -sd,)" <<'PY'
import json, os, re, sys
os_run, out, marks = sys.argv[1], sys.argv[2], [m for m in sys.argv[3].split(",") if m]
r = json.load(open(os.path.join(os_run, "rates.json")))
print("Training throughput (OpenSpiel: scripts/peers/openspiel_train.py's rates.json; zero: its run directory)")
print(f"  {'':<12} {'self-play positions/s':>22} {'train samples/s (wall)':>24} {'learning steps':>15}")
print(f"  {'openspiel':<12} {r['selfplay_positions_per_s']:>22} {r['train_samples_per_s_wall']:>24} {r['learning_steps']:>15}")
# zero's, over the same wall-clock hour: the positions its generations stored and the samples its training
# steps drew (steps x batch size), divided by the run's time from start to end.
zero_run = os.path.join(out, "zero-run")
gens = [json.loads(l) for l in open(os.path.join(zero_run, "generations.jsonl")) if l.strip()]
batch = int(re.search(r"(?m)^batch_size\s*=\s*(\d+)", open(os.path.join(zero_run, "config.toml")).read()).group(1))
wall = float(open(zero_run + ".end").read()) - float(open(zero_run + ".start").read())
positions = sum(g["positions"] for g in gens)
steps = sum(g["train_steps"] for g in gens)
print(f"  {'zero':<12} {positions / wall:>22.2f} {steps * batch / wall:>24.2f} {steps:>15}")
print()
print("Moves that keep the game-theoretic value (solver benchmark), by training time")
print(f"  {'minutes':<8} {'openspiel':>12} {'zero':>12}")
for m in marks:
    o = os.path.join(out, "oracle", f"openspiel-{m}min.json")
    os_share = "-"
    if os.path.exists(o):
        row = json.load(open(o))["scores"][0]
        os_share = f"{100 * row['share']:.1f}%"
    z = os.path.join(out, "oracle", f"zero-{m}min.txt")
    zero_share = "-"
    if os.path.exists(z):
        hits = [re.search(r"([\d.]+%)(?: \(\d+/\d+\))? right overall", l) for l in open(z)]
        hits = [h.group(1) for h in hits if h]
        zero_share = hits[0] if hits else "(no 'right overall' line)"
    print(f"  {m:<8} {os_share:>12} {zero_share:>12}")
print()
mj = os.path.join(out, "match.json")
if os.path.exists(mj):
    s = json.load(open(mj))
    print(f"Head-to-head, {s['games']} games at {s['movetime_ms']} ms a move (W-L-D from zero's side)")
    print(f"  {s['wins']}-{s['losses']}-{s['draws']}, zero's score {100 * s['score']:.1f}% "
          f"[{100 * s['score_95'][0]:.1f}%, {100 * s['score_95'][1]:.1f}%], Elo {s['elo']:+.0f} "
          f"[{s['elo_95'][0]:+.0f}, {s['elo_95'][1]:+.0f}]")
    print(f"  time per move: zero {s['first']['mean_ms_per_move']} ms, openspiel {s['second']['mean_ms_per_move']} ms"
          f"; forfeits {s['forfeits']}")
PY
} | tee "$out/summary.txt"
