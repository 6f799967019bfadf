//! `zero solve baghchal` (the sliding phase solved into a tablebase file, or a file verified) and
//! `zero probe baghchal` (a position's value and every move's): the command-line face of `zero-tablebase`.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::time::Instant;
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_tablebase::Table;
use zero_tablebase::solve::{SolveEvent, solve_to_file};

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The game: baghchal (the only one with a tablebase).
    pub game: String,
    /// Where to write the tablebase (default $ZERO_CACHE/tablebases/baghchal.tb); an interrupted solve resumes
    /// from FILE.partial.
    #[arg(long, value_name = "FILE", conflicts_with = "verify")]
    pub out: Option<PathBuf>,
    /// Instead of solving, re-check every entry of FILE against its children and its header's class counts.
    #[arg(long, value_name = "FILE")]
    pub verify: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The game: baghchal.
    pub game: String,
    /// The position (`zero show baghchal --help` for the notation), e.g. `TGGGT/GGGGG/GG.GG/GGGGG/TGGGT t 0 2`.
    #[arg(long)]
    pub position: String,
    /// The tablebase file (default $ZERO_CACHE/tablebases/baghchal.tb, written by `zero solve baghchal`).
    #[arg(long, value_name = "FILE")]
    pub tablebase: Option<PathBuf>,
    /// Search the placement phase exactly from this many goats in hand down (1-6; more takes minutes).
    #[arg(long, default_value_t = zero_tablebase::probe::EXACT_PLACEMENTS,
          value_parser = clap::value_parser!(u32).range(0..=6))]
    pub placements: u32,
}

fn only_baghchal(game: &str) -> Result<()> {
    if game != "baghchal" {
        bail!("no tablebase for {game:?}: only baghchal's sliding phase is solved");
    }
    Ok(())
}

/// The file named, or the default one.
fn tablebase_path(named: Option<&Path>) -> Result<PathBuf> {
    match named {
        Some(path) => Ok(path.to_path_buf()),
        None => Ok(zero_tablebase::default_path().ok_or(zero_tablebase::TablebaseError::NoDefault)?),
    }
}

pub fn solve(args: SolveArgs) -> Result<()> {
    only_baghchal(&args.game)?;
    if let Some(path) = &args.verify {
        return verify(path);
    }
    let out = tablebase_path(args.out.as_deref())?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let started = Instant::now();
    let mut bar: Option<(u32, indicatif::ProgressBar)> = None;
    let header = solve_to_file(&out, &mut |event| report(event, &mut bar))?;
    if let Some((_, bar)) = bar {
        bar.finish_and_clear();
    }
    print_counts(&header);
    let peak = peak_memory();
    println!(
        "wrote {} ({} bytes) in {:.1} s; peak memory {peak}",
        out.display(),
        std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0),
        started.elapsed().as_secs_f64()
    );
    tracing::info!(
        "tablebase written to {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Shows a solve's progress: a bar per layer (timed lines off a terminal) and a log line per layer.
fn report(event: SolveEvent, bar: &mut Option<(u32, indicatif::ProgressBar)>) {
    match event {
        SolveEvent::Resumed { layers, partial } => {
            tracing::info!("resuming from {}: layers {layers:?} already solved", partial.display())
        }
        SolveEvent::Discarded { partial, reason } => {
            tracing::warn!(
                "starting over: the earlier solve's {} is unusable: {reason}",
                partial.display()
            )
        }
        SolveEvent::Depth {
            captured,
            positions,
            depth,
            decided,
        } => {
            if bar.as_ref().is_none_or(|(c, _)| *c != captured) {
                let template = "layer {prefix} {bar:30} {pos}/{len} decided, {msg} [{elapsed}]";
                let new = zero_run::progress::bar(positions as u64, template);
                new.set_prefix(format!("{captured} ({positions} positions)"));
                if let Some((_, old)) = bar.replace((captured, new)) {
                    old.finish_and_clear();
                }
            }
            if let Some((_, bar)) = bar {
                bar.set_position(decided as u64);
                bar.set_message(format!("depth {depth}"));
            }
        }
        SolveEvent::Layer {
            captured,
            seconds,
            longest,
        } => {
            // The terminal's log writer already draws the line above the bar.
            tracing::info!("layer {captured} solved in {seconds:.1} s; the longest win or loss takes {longest} plies")
        }
    }
}

fn print_counts(header: &zero_tablebase::Header) {
    println!("captured  to move       classes        wins      losses       draws");
    let mut total = 0;
    for layer in &header.layers {
        for (side, counts) in ["goats", "tigers"].iter().zip(&layer.classes) {
            println!(
                "{:>8}  {side:<7} {:>13} {:>11} {:>11} {:>11}",
                layer.captured, counts.positions, counts.wins, counts.losses, counts.draws
            );
            total += counts.positions;
        }
    }
    println!("all classes: {total}");
}

fn verify(path: &Path) -> Result<()> {
    let started = Instant::now();
    let (table, header) = Table::open(path)?;
    println!(
        "{}: header, sizes and SHA-256 check out ({:.1} s)",
        path.display(),
        started.elapsed().as_secs_f64()
    );
    let mut mismatched = Vec::new();
    for ((c, counted), layer) in table.counts().into_iter().zip(&header.layers) {
        if counted != layer.classes {
            mismatched.push(format!("layer {c}: header {:?}, counted {counted:?}", layer.classes));
        }
    }
    let (inconsistent, examples) = table.inconsistencies(10);
    print_counts(&header);
    println!(
        "{inconsistent} inconsistencies between entries and their children; {} layers whose counts differ from the header ({:.1} s)",
        mismatched.len(),
        started.elapsed().as_secs_f64()
    );
    for line in examples.iter().chain(&mismatched) {
        println!("  {line}");
    }
    if inconsistent > 0 || !mismatched.is_empty() {
        bail!("{} failed verification", path.display());
    }
    Ok(())
}

pub fn probe(args: ProbeArgs) -> Result<()> {
    only_baghchal(&args.game)?;
    let rules = BaghChal::parse_rules(None, &[]).expect("the default rules");
    let game =
        BaghChal::from_position(&rules, &args.position).with_context(|| format!("position {:?}", args.position))?;
    let table = zero_tablebase::open(args.tablebase.as_deref())?;
    let probe = table
        .probe_placements(&game, args.placements)
        .with_context(|| format!("position {:?} has no answer", args.position))?;
    println!(
        "{}: {} for the {}",
        args.position,
        probe.value,
        BaghChal::player_name(game.to_move())
    );
    let best = probe.best_moves();
    let mut moves = probe.moves.clone();
    moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.goodness()));
    for (mv, value) in moves {
        let mark = if best.contains(&mv) { " (best)" } else { "" };
        println!("  {:<8} {}{mark}", game.format_move(&mv), value);
    }
    Ok(())
}

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
