//! `zero bench perft`: leaves per second of perft from each game's benchmark positions (start at depth 9 for
//! Bashni, and a mid-game position), and, with `--instructions`, instructions per leaf counted by callgrind.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;
use zero_games::{BenchPositions, GameKind, perft, with_game};

#[derive(Args, Debug)]
pub struct PerftBenchArgs {
    /// Only this game (default: every game).
    #[arg(long, value_parser = crate::game_arg::parser())]
    pub game: Option<GameKind>,
    /// Timed repetitions of each perft; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    pub repeat: u32,
    /// Also count instructions per leaf with `valgrind --tool=callgrind` (slow; needs valgrind and the
    /// torch-free `zero-perft` binary beside `zero`).
    #[arg(long)]
    pub instructions: bool,
}

struct Row {
    game: &'static str,
    position: &'static str,
    depth: u32,
    leaves: u64,
    seconds: f64,
}

/// Times perft from each of `G`'s benchmark positions, the fastest of `repeat` runs.
fn measure<G: BenchPositions>(repeat: u32) -> Result<Vec<Row>> {
    let rules = G::without_draw_rules(&G::parse_rules(None, &[])?);
    let mut rows = Vec::new();
    for &(position, depth) in G::BENCH_POSITIONS {
        let game = G::from_position(&rules, position).with_context(|| format!("bench position of {}", G::NAME))?;
        let mut best = f64::INFINITY;
        let mut leaves = 0;
        for _ in 0..repeat.max(1) {
            let t = Instant::now();
            leaves = perft(&game, depth);
            best = best.min(t.elapsed().as_secs_f64());
        }
        rows.push(Row {
            game: G::NAME,
            position,
            depth,
            leaves,
            seconds: best,
        });
    }
    Ok(rows)
}

pub fn run(args: PerftBenchArgs) -> Result<()> {
    let games: Vec<GameKind> = match args.game {
        Some(g) => vec![g],
        None => GameKind::ALL.to_vec(),
    };
    println!(
        "{:<9} {:>5} {:>14} {:>9} {:>12}  position",
        "game", "depth", "leaves", "seconds", "leaves/s"
    );
    let mut rows = Vec::new();
    for kind in games {
        for row in with_game!(kind, G => measure::<G>(args.repeat))? {
            println!(
                "{:<9} {:>5} {:>14} {:>9.3} {:>12}  {}",
                row.game,
                row.depth,
                row.leaves,
                row.seconds,
                human(row.leaves as f64 / row.seconds),
                row.position
            );
            rows.push(row);
        }
    }
    if args.instructions {
        let tool = perft_tool()?;
        println!("\ninstructions per leaf (callgrind; (Ir(depth) - Ir(depth 1)) / (leaves(depth) - leaves(depth 1)))");
        for row in &rows {
            let (ir_deep, n_deep) = callgrind(&tool, row.game, row.position, row.depth)?;
            let (ir_one, n_one) = callgrind(&tool, row.game, row.position, 1)?;
            let per_leaf = (ir_deep.saturating_sub(ir_one)) as f64 / (n_deep.saturating_sub(n_one)).max(1) as f64;
            println!("{:<9} {:>5} {:>8.1}  {}", row.game, row.depth, per_leaf, row.position);
        }
    }
    Ok(())
}

fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1} M", rate / 1e6)
    } else {
        format!("{:.1} k", rate / 1e3)
    }
}

/// The torch-free perft binary built beside `zero`.
fn perft_tool() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let tool = exe.with_file_name("zero-perft");
    if !tool.exists() {
        bail!(
            "{} not found: build the workspace (`cargo build --release`) so it sits beside zero",
            tool.display()
        );
    }
    Ok(tool)
}

/// Runs one perft under callgrind; returns (instructions, leaves).
fn callgrind(tool: &PathBuf, game: &str, position: &str, depth: u32) -> Result<(u64, u64)> {
    let out = std::env::temp_dir().join(format!("zero-callgrind-{}.out", std::process::id()));
    let output = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(tool)
        .args([game, position, &depth.to_string()])
        .output()
        .context("running valgrind (is it installed? Debian: apt-get install valgrind)")?;
    if !output.status.success() {
        bail!("valgrind failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let leaves: u64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .context("zero-perft output")?;
    let text = std::fs::read_to_string(&out).context("reading callgrind output")?;
    let _ = std::fs::remove_file(&out);
    let ir = text
        .lines()
        .find_map(|l| l.strip_prefix("summary:").or_else(|| l.strip_prefix("totals:")))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .context("no instruction total in callgrind output")?;
    Ok((ir, leaves))
}
