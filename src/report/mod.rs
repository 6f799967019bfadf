//! `zero report RUN_DIR`: PNG plots of a run (loss terms, Elo against generation and against wall-clock time, game
//! length, draw and resign rates) and an HTML page that shows them with the run's config. Fonts are embedded
//! (DejaVu Sans through ab_glyph), so the report renders on a bare machine. `zero run` refreshes it after each
//! generation.

mod plots;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
    pub gate: Option<crate::run::gate::GateSummary>,
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

/// The files of a report.
pub struct Report {
    pub html: PathBuf,
    pub plots: Vec<PathBuf>,
}

/// Draws the plots and the page into `RUN_DIR/report/`, each file written atomically.
pub fn write_report(run_dir: &Path) -> Result<Report> {
    let out = run_dir.join("report");
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let generations = read_generations(&run_dir.join("generations.jsonl"))?;
    let steps: Vec<serde_json::Map<String, serde_json::Value>> = read_jsonl(&run_dir.join("metrics.jsonl"))?;
    let config = std::fs::read_to_string(run_dir.join("config.toml")).unwrap_or_default();

    let mut plots = Vec::new();
    for (name, draw) in [
        (
            "losses.png",
            plots::losses
                as fn(&Path, &[GenerationSummary], &[serde_json::Map<String, serde_json::Value>]) -> Result<bool>,
        ),
        ("elo-generation.png", plots::elo_by_generation),
        ("elo-time.png", plots::elo_by_time),
        ("game-length.png", plots::game_length),
        ("draws-resigns.png", plots::rates),
    ] {
        let path = out.join(name);
        if draw(&path, &generations, &steps)? {
            plots.push(path);
        }
    }
    let html = out.join("index.html");
    let page = page(run_dir, &generations, &plots, &config);
    zero_games::files::write_atomically(&html, page.as_bytes())
        .with_context(|| format!("writing {}", html.display()))?;
    Ok(Report { html, plots })
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn page(run_dir: &Path, generations: &[GenerationSummary], plots: &[PathBuf], config: &str) -> String {
    let title = run_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut rows = String::new();
    for g in generations {
        let net = g.ratings.iter().find(|r| r.player == g.network);
        let elo = net.map_or("-".to_string(), |r| {
            format!("{:.0} [{:.0}, {:.0}]", r.elo, r.low, r.high)
        });
        let gate = g.gate.as_ref().map_or(String::new(), |gate| {
            format!(
                "{} {} ({} games)",
                if gate.promoted { "replaces" } else { "kept" },
                gate.opponent,
                gate.games
            )
        });
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.0}%</td><td>{}</td><td>{}</td></tr>\n",
            g.generation,
            g.games,
            g.positions,
            g.positions_per_second.map_or_else(|| "-".to_string(), |p| format!("{p:.0}")),
            g.mean_game_length,
            100.0 * g.draw_rate,
            escape(&elo),
            escape(&gate)
        ));
    }
    let images: String = plots
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| format!("<img src=\"{0}\" alt=\"{0}\">\n", n.to_string_lossy()))
        .collect();
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>zero run {t}</title>\n<style>body{{font-family:sans-serif;margin:2em}}img{{max-width:48%;margin:0.5%}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:0.2em 0.6em;text-align:right}}pre{{background:#f4f4f4;padding:1em}}</style></head>\n<body><h1>zero run {t}</h1>\n<h2>Generations</h2>\n<table><tr><th>generation</th><th>games</th><th>positions</th><th>positions/s</th><th>mean length</th><th>draws</th><th>Elo [95%]</th><th>gate</th></tr>\n{rows}</table>\n<h2>Plots</h2>\n{images}<h2>Config</h2>\n<pre>{config}</pre>\n</body></html>\n",
        t = escape(&title),
        config = escape(config)
    )
}
