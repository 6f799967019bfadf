//! `zero check RUN_DIR`: verifies a run directory file by file and says what is wrong where. Every shard is read
//! whole (its footer, its rows and every row's values), every checkpoint loaded (its checksum verified), the state,
//! the config and the JSONL records parsed, and what the state says checked against what is on disk. With
//! `repair`, it takes the run's lock and fixes what can be fixed without losing anything finished: abandoned
//! temporaries and orphaned shard halves are removed (as a resume does), a torn last line of a JSONL record is
//! cut. The rest (a damaged shard or checkpoint) is reported for a person to decide (the trainer already skips a
//! bad shard).

use crate::config::RunConfig;
use crate::dir::{RunDir, RunState, checkpoint_path};
use crate::error::{Context, Result};
use crate::summary::GenerationSummary;
use std::path::{Path, PathBuf};
use zero_data::ShardSet;
use zero_games::{Registered, with_game};
use zero_model::Checkpoint;
use zero_rundir::RunPaths;

/// One problem found, and whether it was repaired.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub path: PathBuf,
    pub problem: String,
    pub repaired: bool,
}

/// What a check looked at and what it found.
#[derive(Debug, Default)]
pub struct CheckReport {
    pub shards: usize,
    pub positions: usize,
    pub games: usize,
    pub checkpoints: usize,
    pub records: usize,
    pub findings: Vec<Finding>,
}

impl CheckReport {
    /// Problems left as they were.
    pub fn unrepaired(&self) -> usize {
        self.findings.iter().filter(|f| !f.repaired).count()
    }

    fn found(&mut self, path: &Path, problem: impl Into<String>) {
        self.findings.push(Finding {
            path: path.to_path_buf(),
            problem: problem.into(),
            repaired: false,
        });
    }
}

/// Checks the run in `root`; with `repair`, locks it first (a live run refuses) and repairs what is safe.
pub fn check_run(root: &Path, repair: bool) -> Result<CheckReport> {
    crate::dir::require_run_dir(root)?;
    let mut report = CheckReport::default();
    // Opening the directory takes its lock and removes what interrupted writers abandoned, as a resume does.
    let before = leftovers(root)?;
    let _dir = if repair { Some(RunDir::open(root)?) } else { None };
    let after = if repair { leftovers(root)? } else { before.clone() };
    for path in before {
        let repaired = !after.contains(&path);
        report.findings.push(Finding {
            problem: if repaired {
                "half-written file left by an interrupted writer, removed".into()
            } else {
                "half-written file left by an interrupted writer (--repair removes it once no writer holds it)".into()
            },
            path,
            repaired,
        });
    }
    let paths = RunPaths::new(root);
    let state = match RunDir::read_state(root) {
        Ok(state) => Some(state),
        Err(e) => {
            report.found(&paths.state_path(), format!("{e:#}"));
            None
        }
    };
    match RunConfig::load_recorded(&paths.config_path()) {
        Ok(config) => with_game!(config.game, G => check_checkpoints::<G>(root, state.as_ref(), &mut report)),
        Err(e) => report.found(&paths.config_path(), format!("{e:#}")),
    }
    check_shards(&paths.data_dir(), &mut report)?;
    check_records(root, state.as_ref(), repair, &mut report)?;
    Ok(report)
}

/// The temporaries and orphaned shard halves of the run's folders (what [`RunDir::open`] removes), listed.
fn leftovers(root: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let paths = RunPaths::new(root);
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(paths.created_dirs());
    if let Ok(entries) = std::fs::read_dir(paths.games_dir()) {
        dirs.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let orphan = name
                .strip_suffix(zero_data::GAMES_SUFFIX)
                .is_some_and(|stem| !zero_data::shard_paths(&dir, stem).0.exists());
            if zero_io::is_temporary(&path) || (dir.ends_with("data") && orphan) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Loads every checkpoint (checksum, architecture, game) and the trainer's state beside it, and checks that the
/// state's networks are there.
fn check_checkpoints<G: Registered>(root: &Path, state: Option<&RunState>, report: &mut CheckReport) {
    let dir = RunPaths::new(root).checkpoints_dir();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    names.retain(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        name.starts_with("gen-") && name.ends_with(".safetensors") && !name.ends_with(".train.safetensors")
    });
    names.sort();
    for path in &names {
        report.checkpoints += 1;
        if let Err(e) = Checkpoint::load::<G>(path, tch::Device::Cpu) {
            report.found(path, e.to_string());
        }
        // The trainer's state beside it, which a resume loads (the newest one) or may load (gating).
        let train_state = zero_train::state::train_state_path(path);
        if train_state.exists()
            && let Err(e) = zero_train::state::load(&train_state)
        {
            report.found(&train_state, e.to_string());
        }
    }
    let Some(state) = state else { return };
    for generation in 1..=state.generation {
        let path = checkpoint_path(root, generation);
        if !path.exists() {
            report.found(
                &path,
                format!("missing: the state says generation {} is done", state.generation),
            );
        }
    }
}

/// Reads every complete shard whole: positions (with every row's values) and games, each game in one shard only.
fn check_shards(data: &Path, report: &mut CheckReport) -> Result<()> {
    if !data.exists() {
        return Ok(());
    }
    let set = ShardSet::scan(data).with_context(|| format!("reading {}", data.display()))?;
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for shard in set.shards() {
        report.shards += 1;
        match zero_data::read_shard(&shard.positions_path) {
            Ok((_, rows)) => report.positions += rows.len(),
            Err(e) => report.found(&shard.positions_path, e.to_string()),
        }
        match zero_data::read_games(&shard.games_path) {
            Ok((_, games)) => {
                report.games += games.len();
                for game in games {
                    if let Some(first) = seen.insert(game.game_id.clone(), shard.name.clone()) {
                        report.found(
                            &shard.games_path,
                            format!("game {} is also in shard {first}: counted twice", game.game_id),
                        );
                    }
                }
            }
            Err(e) => report.found(&shard.games_path, e.to_string()),
        }
    }
    Ok(())
}

/// Parses the JSONL records line by line (cutting a torn last line with `repair`), and checks the
/// generations' summaries against the state.
fn check_records(root: &Path, state: Option<&RunState>, repair: bool, report: &mut CheckReport) -> Result<()> {
    let paths = RunPaths::new(root);
    for path in [paths.metrics_path(), paths.generations_path()] {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            report.records += 1;
            if serde_json::from_str::<serde_json::Value>(line).is_ok() {
                continue;
            }
            let torn = i + 1 == lines.len() && !text.ends_with('\n');
            if torn && repair {
                crate::dir::cut_torn_last_line(&path)?;
                report.findings.push(Finding {
                    path: path.clone(),
                    problem: format!("line {}: torn last line, cut", i + 1),
                    repaired: true,
                });
            } else if torn {
                report.found(&path, format!("line {}: torn last line (--repair cuts it)", i + 1));
            } else {
                report.found(&path, format!("line {}: not JSON", i + 1));
            }
        }
    }
    let summaries: Vec<GenerationSummary> =
        crate::summary::read_generations(&paths.generations_path()).unwrap_or_default();
    if let Some(state) = state {
        let mut seen = std::collections::BTreeSet::new();
        for s in &summaries {
            if !seen.insert(s.generation) {
                report.found(
                    &paths.generations_path(),
                    format!("generation {} recorded twice", s.generation),
                );
            }
            if s.generation > state.generation {
                report.found(
                    &paths.generations_path(),
                    format!(
                        "generation {} recorded, but the state is at {}",
                        s.generation, state.generation
                    ),
                );
            }
        }
    }
    for dir in paths.match_dirs() {
        for file in crate::evaluate::jsonl_files(&dir) {
            report.records += 1;
            if let Err(e) = zero_arena::records::read_jsonl(&file) {
                report.found(&file, e.to_string());
            }
        }
    }
    Ok(())
}

/// Prints a check's report; the exit status is the caller's (non-zero while problems are left).
pub fn print_report(root: &Path, report: &CheckReport) {
    println!(
        "zero check {}: {} shards ({} positions, {} games), {} checkpoints, {} record lines and files",
        root.display(),
        report.shards,
        report.positions,
        report.games,
        report.checkpoints,
        report.records
    );
    for f in &report.findings {
        let mark = if f.repaired { "repaired" } else { "problem" };
        println!("  {mark}: {}: {}", f.path.display(), f.problem);
    }
    match report.unrepaired() {
        0 => println!("ok: nothing left to fix"),
        n => println!("{n} problem(s) left"),
    }
}
