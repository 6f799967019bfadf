//! What a run records of itself, one JSON line per generation in `generations.jsonl`: the
//! [`GenerationSummary`] with its ratings and gate decision, and how the run names its networks. The loop writes
//! these records, the report reads them.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The name a run's network `generation` plays under.
pub fn network_name(generation: u32) -> String {
    format!("gen{generation}")
}

/// Whether `name` is how a run names one of its networks (`gen12`).
pub fn is_network_name(name: &str) -> bool {
    name.strip_prefix("gen").is_some_and(|n| n.parse::<u32>().is_ok())
}

/// One player's rating in a generation's evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub player: String,
    pub elo: f64,
    /// 95% interval.
    pub low: f64,
    pub high: f64,
}

/// What `zero run` records after each generation (one JSON line in `generations.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct GenerationSummary {
    pub generation: u32,
    /// Seconds since the run started (across resumes: time actually spent working).
    pub elapsed_seconds: f64,
    pub games: u64,
    pub positions: u64,
    /// Self-play positions per second, when self-play ran in the session that finished the generation (a
    /// generation whose self-play finished before a resume has none: `null`).
    pub positions_per_second: Option<f64>,
    pub mean_game_length: f64,
    pub draw_rate: f64,
    pub resign_rate: f64,
    pub false_resign_rate: Option<f64>,
    pub train_steps: u64,
    /// Mean of each loss term over this generation's training steps.
    pub losses: BTreeMap<String, f64>,
    /// The new network's rating and the references', from the generation's evaluation pool.
    pub ratings: Vec<RatingPoint>,
    /// Name of the rated network of this generation (in `ratings`).
    pub network: String,
    /// With `run.gate`: what the gate decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateSummary>,
}

/// Reads `generations.jsonl`; a torn last line (a run killed while appending) is ignored.
pub fn read_generations(path: &Path) -> Result<Vec<GenerationSummary>> {
    read_jsonl(path)
}

/// Reads a JSONL file of objects, skipping a torn last line.
pub fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str(line) {
            Ok(v) => out.push(v),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(e).with_context(|| format!("{} line {}", path.display(), i + 1)),
        }
    }
    Ok(out)
}

/// What a gate decided, as the generation's summary records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateSummary {
    /// The network the candidate played: the one self-play used.
    pub opponent: String,
    /// Whether the candidate now plays self-play.
    pub promoted: bool,
    /// `accept H1`, `accept H0`, or `continue` when the games ran out first.
    pub decision: String,
    /// Games the decision took (all of them when undecided).
    pub games: usize,
    pub llr: f64,
    /// The candidate's mean score over those games.
    pub score: f64,
}
