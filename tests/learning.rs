//! Learning is real: a short Bashni run, started from nothing but the rules, ends with a network whose own move
//! choice (no search) scores clearly better against the random player than generation 0's (uniform priors, which
//! is where the run starts), over enough paired games that chance would not explain the difference (a gap of
//! more than three standard errors). Takes a few minutes.

use std::path::Path;
use std::process::Command;
use zero_arena::{Entrant, MatchOptions, MatchRecord, OpeningBook, head_to_head};
use zero_games::Game;
use zero_games::bashni::Bashni;
use zero_model::DeviceChoice;
use zero_search::UniformEvaluator;

const GAMES: usize = 400;

/// Points of `player` over the games, as a share, with its standard error.
fn score(records: &[MatchRecord], player: &str) -> (f64, f64) {
    let points: f64 = records
        .iter()
        .map(|r| {
            let side = if r.first == player { "first" } else { "second" };
            match &r.winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            }
        })
        .sum();
    let p = points / records.len() as f64;
    (p, (p * (1.0 - p) / records.len() as f64).sqrt().max(0.01))
}

#[test]
fn a_short_run_beats_generation_zero_against_random() {
    let dir = std::env::temp_dir().join(format!("zero-learning-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/bashni-quick.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_zero"))
        .arg("run")
        .arg(&config)
        .arg("--run-dir")
        .arg(&dir)
        .args(["--set", "run.generations=3", "--set", "run.games_per_generation=100"])
        .args(["--set", "train.samples_per_position=8"])
        .args([
            "--set",
            "run.eval_games=2",
            "--set",
            "run.eval_openings=4",
            "--set",
            "run.eval_baselines=[\"random\"]",
        ])
        .output()
        .expect("zero runs");
    assert!(
        out.status.success(),
        "zero run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let rules = Bashni::parse_rules(None, &[]).unwrap();
    let book = OpeningBook::generate::<Bashni>(&rules, 64, 7, 2, 6);
    let options = MatchOptions {
        games_per_pair: GAMES,
        seed: 11,
        ..Default::default()
    };
    let random = Entrant::<Bashni>::parse("random").unwrap();
    let checkpoint = dir.join("checkpoints/gen-0003.safetensors");
    let trained = Entrant::<Bashni>::checkpoint(&checkpoint, "trained", 0, DeviceChoice::Cpu).unwrap();
    let untrained = Entrant::<Bashni>::with_evaluator("generation0", Box::new(UniformEvaluator));

    let trained_games = head_to_head(&rules, &trained, &random, &book, &options).unwrap();
    let untrained_games = head_to_head(&rules, &untrained, &random, &book, &options).unwrap();
    let (trained_score, trained_se) = score(&trained_games, "trained");
    let (zero_score, zero_se) = score(&untrained_games, "generation0");
    let margin = 3.0 * (trained_se.powi(2) + zero_se.powi(2)).sqrt();
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!(
        "trained {trained_score:.3} ± {trained_se:.3}, generation 0 {zero_score:.3} ± {zero_se:.3} against random"
    );
    assert!(
        trained_score - zero_score > margin,
        "trained {trained_score:.3} vs generation 0 {zero_score:.3} against random over {GAMES} games each \
         (needs a gap over {margin:.3})"
    );
}
