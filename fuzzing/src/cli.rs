//! What a person types on the command line: player specs (`zero eval --player`), weights, strength levels, root
//! searches, devices, runtimes, game names with rules options, `--workers`, and config overrides (`--set`).
//! Each reaches a library parser; the binary's clap definitions only hand the text over.

use std::path::{Path, PathBuf};
use zero_arena::Entrant;
use zero_arena::spec::{MAX_ALPHABETA_NODES, Network, PLAY_PRECISION, PlayerKind, PlayerSpec};
use zero_games::{GameKind, with_game};
use zero_model::{DeviceChoice, Precision};
use zero_run::config::RunConfig;
use zero_search::alphabeta::SearchLimit;
use zero_search::config::{MAX_LEAF_BATCH, MAX_MOVE_TIME_MS, MAX_SIMULATIONS};
use zero_search::{LEVELS, Level, PlaySearch, SideRoots, SideWeights};
use zero_selfplay::config::{MAX_WORKERS, parse_workers};

/// The config `--set` overrides are applied to: a quick one the repository ships.
const BASE_CONFIG: &str = include_str!("../../configs/bashni-quick.toml");

/// `[parser] text`: the first byte picks the parser, the rest (UTF-8, lossily) is what was typed.
pub fn cli(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let parsers: [fn(&str); 9] = [
        spec,
        minimax_weight,
        game_and_rules,
        level,
        roots,
        weights,
        device_and_precision,
        workers,
        overrides,
    ];
    parsers[which as usize % parsers.len()](&text);
}

/// A player spec that parses has every budget and setting within its documented range, and its canonical text
/// (its name in tables when it has no label) parses to the same player (a checkpoint named by its file,
/// defaults made explicit, and the settings a raw-policy player does not use left at their defaults). Made
/// ready for a game it becomes an entrant of that name, or, for a checkpoint or tablebase file that is not
/// there, an error.
fn spec(text: &str) {
    let Ok(spec) = PlayerSpec::parse(text) else {
        return;
    };
    within_ranges(&spec.kind, text);
    if matches!(&spec.kind, PlayerKind::Network(player) if matches!(player.network, Network::Bundle { .. })) {
        // A bundle opened (a real one at a path the input named): its canonical text names its directory alone,
        // which parses back only from beside it.
        return;
    }
    let canonical = spec.canonical();
    let again = PlayerSpec::parse(&canonical)
        .unwrap_or_else(|e| panic!("{canonical:?}, written from {text:?}, does not parse: {e}"));
    assert_eq!(again.label, None, "{canonical:?} has a label");
    assert_eq!(
        again.kind,
        as_written(&spec.kind, &again.kind),
        "{canonical:?}, written from {text:?}, parses to another player"
    );
    assert_eq!(
        again.canonical(),
        canonical,
        "{canonical:?} is not written back as itself"
    );
    let kind = GameKind::ALL[text.len() % GameKind::ALL.len()];
    with_game!(kind, G => entrant::<G>(spec));
}

/// The documented ranges: a move's time 1 ms to [`MAX_MOVE_TIME_MS`], simulations up to [`MAX_SIMULATIONS`],
/// alpha-beta nodes up to [`MAX_ALPHABETA_NODES`], a leaf batch up to [`MAX_LEAF_BATCH`], and the ranges the
/// `ckpt:` keys name (`docs/arena.md`).
fn within_ranges(kind: &PlayerKind, text: &str) {
    let limit_ok = |limit: &SearchLimit| {
        limit.depth.is_none_or(|d| d >= 1)
            && limit.nodes.is_none_or(|n| (1..=MAX_ALPHABETA_NODES).contains(&n))
            && limit.millis.is_none_or(move_time)
    };
    let ok = match kind {
        PlayerKind::Random | PlayerKind::Greedy => true,
        PlayerKind::AlphaBeta(limit) | PlayerKind::Tablebase { placement: limit, .. } => limit_ok(limit),
        PlayerKind::Mcts { simulations } => (1..=MAX_SIMULATIONS).contains(simulations),
        PlayerKind::Network(player) => {
            let search = &player.search;
            search.sims <= MAX_SIMULATIONS
                && search.movetime_ms.is_none_or(move_time)
                && (1..=MAX_LEAF_BATCH).contains(&search.leaf_batch)
                && (0.0..=10.0).contains(&search.temperature)
                && (0.01..=100.0).contains(&search.c_puct)
                && (0.0..=4.0).contains(&search.fpu_reduction)
                && (0.0..=1.0).contains(&search.minimax_weight)
                && search.score_utility.check_score_utility().is_ok()
                && search.validate().is_ok()
        }
    };
    assert!(ok, "{text:?} parsed to a player out of range: {kind:?}");
}

fn move_time(ms: u64) -> bool {
    (1..=u64::from(MAX_MOVE_TIME_MS)).contains(&ms)
}

/// What the canonical text of `kind` keeps: an alpha-beta limit with its default depth made explicit; a network
/// player's network (a checkpoint by its file, or its whole path where `written`, the player parsed back, has
/// that: a file name that a spec cannot hold alone), without the device and precision, and without the search
/// settings where it plays the raw policy.
fn as_written(kind: &PlayerKind, written: &PlayerKind) -> PlayerKind {
    let explicit = |limit: &SearchLimit| match (limit.depth, limit.nodes, limit.millis) {
        (None, None, None) => SearchLimit::depth(4),
        _ => *limit,
    };
    match kind {
        PlayerKind::AlphaBeta(limit) => PlayerKind::AlphaBeta(explicit(limit)),
        PlayerKind::Tablebase { file, placement } => PlayerKind::Tablebase {
            file: file.clone(),
            placement: explicit(placement),
        },
        PlayerKind::Network(_) => network_as_written(kind, written),
        other => other.clone(),
    }
}

fn network_as_written(kind: &PlayerKind, written: &PlayerKind) -> PlayerKind {
    let (PlayerKind::Network(player), PlayerKind::Network(again)) = (kind, written) else {
        return kind.clone();
    };
    let mut expected = player.clone();
    if let (Network::Checkpoint(path), Network::Checkpoint(again)) = (&player.network, &again.network) {
        let path = match path.file_name() {
            Some(file) if again != path => PathBuf::from(file),
            _ => path.clone(),
        };
        expected.network = Network::Checkpoint(path);
    }
    // A raw policy is written with its network, `sims=0` and its temperature: the rest is what a spec leaves out.
    let raw_policy = !player.search.searches() && player.level.is_none();
    if raw_policy {
        expected.search = PlaySearch {
            sims: 0,
            temperature: player.search.temperature,
            ..PlaySearch::DEFAULT
        };
    }
    (expected.device, expected.precision) = (DeviceChoice::Cpu, PLAY_PRECISION);
    PlayerKind::Network(expected)
}

/// The spec made ready for game `G`: the baselines always are, under the spec's name; a checkpoint or a
/// tablebase file that does not exist is an error (the input's own path is never opened).
fn entrant<G: zero_games::Registered>(mut spec: PlayerSpec) {
    let missing = Path::new("/nonexistent/zero-fuzz/missing");
    let touches_files = match &mut spec.kind {
        PlayerKind::Network(player) => {
            player.network = Network::Checkpoint(missing.to_path_buf());
            true
        }
        PlayerKind::Tablebase { file, .. } => {
            *file = Some(missing.to_path_buf());
            true
        }
        _ => false,
    };
    let name = spec.clone().for_game::<G>().name();
    match Entrant::<G>::prepare(spec) {
        Ok(entrant) => {
            assert!(!touches_files, "a player of a missing file was made ready");
            assert_eq!(entrant.name(), name);
        }
        Err(e) => assert!(touches_files, "{name} was refused: {e}"),
    }
}

/// `--minimax W`: a weight within [0, 1] that is written back as itself, accepted exactly where the search's
/// check and a `ckpt:` spec's `minimax=` accept it.
fn minimax_weight(text: &str) {
    let parsed = zero_bot::cli::minimax_weight(text);
    if let Ok(w) = parsed {
        assert!((0.0..=1.0).contains(&w), "{text:?} gave the weight {w}");
        assert!(zero_search::config::check_minimax_weight(w).is_ok());
        assert_eq!(zero_bot::cli::minimax_weight(&w.to_string()), Ok(w));
    }
    // The spec trims its values and splits at commas: only text that survives both says the same there.
    if text.trim() == text && !text.contains(',') {
        let in_spec = PlayerSpec::parse(&format!("ckpt:net,minimax={text}"));
        assert_eq!(
            in_spec.is_ok(),
            parsed.is_ok(),
            "--minimax and minimax= disagree on {text:?}"
        );
    }
}

/// `GAME\nvariant\noption...`: a game name that parses is written back as itself, and its rules options are
/// checked as the `rules` target checks them.
fn game_and_rules(text: &str) {
    let mut lines = text.split('\n');
    let name = lines.next().unwrap_or_default();
    let Ok(kind) = name.parse::<GameKind>() else {
        return;
    };
    assert_eq!(kind.to_string(), name);
    writes_back(kind, name);
    let variant = lines.next().filter(|v| !v.is_empty());
    let options: Vec<String> = lines.map(str::to_string).collect();
    with_game!(kind, G => crate::notation::rules_of::<G>(variant, &options));
}

/// `--level NAME`: one of the levels, named in any case, whose own name parses to it.
fn level(text: &str) {
    let Ok(level) = Level::parse(text) else {
        return;
    };
    assert!(
        level.name.eq_ignore_ascii_case(text),
        "{text:?} parsed as {}",
        level.name
    );
    assert!(LEVELS.contains(&level));
    assert_eq!(Level::parse(level.name), Ok(level));
}

/// `value`, parsed from `text`, is written back (`Display`) to text that parses to it again.
fn writes_back<T>(value: T, text: &str)
where
    T: std::str::FromStr + std::fmt::Display + PartialEq + std::fmt::Debug,
{
    let written = value.to_string();
    assert_eq!(
        written.parse::<T>().ok(),
        Some(value),
        "{written:?}, written from {text:?}"
    );
}

/// `--root`: written back to text that parses to the same roots.
fn roots(text: &str) {
    if let Ok(roots) = text.parse::<SideRoots>() {
        writes_back(roots, text);
    }
}

/// `--score`: weights within [0, 1] for both sides where the check accepts them, written back to text that
/// parses to the same weights (but a NaN, which equals nothing).
fn weights(text: &str) {
    let Ok(weights) = text.parse::<SideWeights>() else {
        return;
    };
    if weights.check_score_utility().is_ok() {
        for w in [weights.first, weights.second] {
            assert!((0.0..=1.0).contains(&w), "{text:?} passed the check with {w}");
        }
    }
    if !(weights.first.is_nan() || weights.second.is_nan()) {
        writes_back(weights, text);
    }
}

/// `device=`, `precision=` and `--runtime`: each written back to text that parses to the same; a runtime is one
/// of the three names.
fn device_and_precision(text: &str) {
    if let Ok(device) = text.parse::<DeviceChoice>() {
        writes_back(device, text);
    }
    if let Ok(precision) = text.parse::<Precision>() {
        writes_back(precision, text);
    }
    if text.parse::<zero_bot::Runtime>().is_ok() {
        assert!(["torch", "torch-bf16", "onnx"].contains(&text), "{text:?} is a runtime");
    }
}

/// `--workers N`: from 1 to [`MAX_WORKERS`], written back as a number that parses to the same.
fn workers(text: &str) {
    let Ok(n) = parse_workers(text) else { return };
    assert!((1..=MAX_WORKERS).contains(&n), "{text:?} gave {n} workers");
    assert_eq!(parse_workers(&n.to_string()), Ok(n));
}

/// `--set KEY=VALUE`, one a line, over a shipped config: a config that results has its budgets within their
/// documented ranges, and is written back by `to_toml` to TOML that parses to the same config.
fn overrides(text: &str) {
    let overrides: Vec<String> = text.lines().map(str::to_string).collect();
    let Ok(config) = RunConfig::parse_with_overrides(BASE_CONFIG, "fuzz.toml", &overrides) else {
        return;
    };
    let (run, selfplay) = (&config.run, &config.selfplay);
    let budgets = [
        (
            "selfplay.search.simulations",
            u64::from(selfplay.search.simulations),
            1,
            u64::from(MAX_SIMULATIONS),
        ),
        ("selfplay.workers", selfplay.workers as u64, 1, MAX_WORKERS as u64),
        (
            "run.eval_simulations",
            u64::from(run.eval_simulations),
            0,
            u64::from(MAX_SIMULATIONS),
        ),
        (
            "run.equal_time.movetime_ms",
            run.equal_time.movetime_ms.unwrap_or(1),
            1,
            u64::from(MAX_MOVE_TIME_MS),
        ),
    ];
    for (key, value, least, most) in budgets {
        assert!((least..=most).contains(&value), "{overrides:?} set {key} = {value}");
    }
    let written = config.to_toml();
    let again = RunConfig::parse(&written, "written back")
        .unwrap_or_else(|e| panic!("the config written back does not parse: {e:#}\n{written}"));
    assert_eq!(again, config, "the config written back differs:\n{written}");
}
