//! The run's report (`zero report RUN_DIR`), drawn without libtorch from the records the rundir crate reads: PNG
//! plots of a run (loss terms, Elo against generation and against wall-clock time, game length, draw and resign
//! rates) and an HTML page that shows them with the run's config. Fonts are embedded (DejaVu Sans through
//! ab_glyph), so the report renders on a bare machine. `zero run` refreshes it after each generation, and with it
//! the run's TensorBoard event file ([`tensorboard`]).

mod error;
mod plots;
pub mod tensorboard;

pub use error::ReportError;
use error::writing;
use std::path::{Path, PathBuf};
use zero_rundir::RunPaths;
use zero_rundir::summary::{GenerationSummary, read_generations, read_jsonl};

/// The files of a report.
pub struct Report {
    pub html: PathBuf,
    pub plots: Vec<PathBuf>,
}

/// Draws the plots and the page into `RUN_DIR/report/`, each file written atomically.
pub fn write_report(run_dir: &Path) -> Result<Report, ReportError> {
    // A wrong path is an error, not a new directory with an empty report in it.
    zero_rundir::require_run_dir(run_dir)?;
    let paths = RunPaths::new(run_dir);
    let out = paths.report_dir();
    zero_io::create_dir_durably(&out).map_err(writing(&out))?;
    let generations = read_generations(&paths.generations_path())?;
    let steps: Vec<serde_json::Map<String, serde_json::Value>> = read_jsonl(&paths.metrics_path())?;
    let config = std::fs::read_to_string(paths.config_path()).unwrap_or_default();

    let mut plots = Vec::new();
    // Learning first (the Elo over the weak baselines rises within minutes), the long-run headline after.
    for (name, draw) in [
        (
            "elo-generation.png",
            plots::elo_by_generation
                as fn(&Path, &[GenerationSummary], &[serde_json::Map<String, serde_json::Value>]) -> plots::Drawn,
        ),
        ("elo-time.png", plots::elo_by_time),
        ("perfect-play-generation.png", plots::oracle_by_generation),
        ("losses.png", plots::losses),
        ("equal-time-generation.png", plots::equal_time_by_generation),
        ("equal-time-hours.png", plots::equal_time_by_hours),
        ("phase-time.png", plots::phase_time),
        ("game-length.png", plots::game_length),
        ("draws-resigns.png", plots::rates),
    ] {
        let path = out.join(name);
        if draw(&path, &generations, &steps)? {
            plots.push(path);
        }
    }
    tensorboard::write_events(run_dir, &generations, &steps)?;
    let html = out.join("index.html");
    let page = page(run_dir, &generations, &plots, &config);
    zero_io::write_atomically(&html, page.as_bytes()).map_err(writing(&html))?;
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
        let equal_time = g.equal_time.as_ref().map_or("-".to_string(), |e| {
            format!("vs {} ({} ms): {}", e.result.opponent, e.ms, e.describe())
        });
        let oracle = g
            .oracle
            .as_ref()
            .map_or("-".to_string(), |o| format!("{:.1}%", 100.0 * o.accuracy));
        let scores = g
            .scores
            .iter()
            .map(|m| format!("{}: {}", m.opponent, m.describe()))
            .collect::<Vec<_>>()
            .join("; ");
        let gate = g.gate.as_ref().map_or(String::new(), |gate| {
            format!(
                "{} {} ({} games)",
                if gate.promoted { "replaces" } else { "kept" },
                gate.opponent,
                gate.games
            )
        });
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.0}%</td></tr>\n",
            g.generation,
            escape(&elo),
            escape(&scores),
            escape(&oracle),
            escape(&equal_time),
            escape(&gate),
            g.games,
            g.positions,
            g.positions_per_second.map_or_else(|| "-".to_string(), |p| format!("{p:.0}")),
            g.mean_game_length,
            100.0 * g.draw_rate,
        ));
    }
    let warnings: String = generations
        .iter()
        .flat_map(|g| g.warnings.iter().map(move |w| (g.generation, w)))
        .map(|(g, w)| format!("<li>generation {g}: {}</li>\n", escape(w)))
        .collect();
    let warnings = if warnings.is_empty() {
        String::new()
    } else {
        format!("<h2 class=\"warn\">Self-play may be collapsing</h2>\n<ul class=\"warn\">\n{warnings}</ul>\n")
    };
    let images: String = plots
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| format!("<img src=\"{0}\" alt=\"{0}\">\n", n.to_string_lossy()))
        .collect();
    format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>zero run {t}</title>\n<style>body{{font-family:sans-serif;margin:2em}}img{{max-width:48%;margin:0.5%}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:0.2em 0.6em;text-align:right}}pre{{background:#f4f4f4;padding:1em}}.warn{{color:#b00}}</style></head>\n<body><h1>zero run {t}</h1>\n{warnings}<h2>Generations</h2>\n<p>Learning: each network's Elo over <code>random</code> (0) and its scores against the weak baselines rise within minutes of training. The long-run headline is the match against alpha-beta at equal thinking time, a strong engine that minutes of training rarely beat.</p>\n<table><tr><th>generation</th><th>Elo [95%]</th><th>scores [95%]</th><th>perfect play</th><th>long-run headline: at equal time [95%]</th><th>gate</th><th>games</th><th>positions</th><th>positions/s</th><th>mean length</th><th>draws</th></tr>\n{rows}</table>\n<h2>Plots</h2>\n{images}<h2>Config</h2>\n<pre>{config}</pre>\n</body></html>\n",
        t = escape(&title),
        config = escape(config)
    )
}
