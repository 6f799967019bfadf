//! `zero selfplay --config FILE --model CKPT|uniform --games N --out DIR`: plays games with the config's search
//! and writes them as zero-data shards, with a progress bar and a summary line.

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use zero_games::{Registered, with_game};
use zero_run::RunConfig;
use zero_run::follow::{FollowOptions, follow};
use zero_run::play::{PlayJob, play_games};

#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// Run config: the game, its rules and the `[selfplay]` table.
    #[arg(long, required_unless_present = "follow")]
    pub config: Option<PathBuf>,
    /// A checkpoint, or `uniform` for uniform priors and random-playout values (generation 0).
    #[arg(long, required_unless_present = "follow", conflicts_with = "follow")]
    pub model: Option<zero_run::play::SelfPlayModel>,
    /// Games to play.
    #[arg(long, required_unless_present = "follow")]
    pub games: Option<usize>,
    /// Directory the shards are written to.
    #[arg(long, required_unless_present = "follow", conflicts_with = "follow")]
    pub out: Option<PathBuf>,
    /// Join a run: play with its newest network, add shards to its data directory, pick up each new checkpoint
    /// between batches of `--games` (default 16) games, and stop when the run has done all its generations, or
    /// when no process has driven it for `--wait-for-run` seconds.
    #[arg(long, value_name = "RUN_DIR", conflicts_with = "config")]
    pub follow: Option<PathBuf>,
    /// With --follow: how long to wait for the run to be driven again (a restart after a kill) before stopping.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "follow")]
    pub wait_for_run: u64,
    /// Worker threads, 1 to 256 (default: the config's `selfplay.workers`).
    #[arg(long, value_parser = zero_selfplay::config::parse_workers)]
    pub workers: Option<usize>,
    /// Run seed (default: the config's `selfplay.seed`).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Plays `--games` games with `--model` into `--out`.
fn play<G: Registered>(args: &SelfPlayArgs, config: &RunConfig) -> Result<()> {
    let rules = config.rules_of::<G>()?;
    let mut sp = config.selfplay.clone();
    if let Some(w) = args.workers {
        sp.workers = w;
    }
    if let Some(s) = args.seed {
        sp.seed = s;
    }
    let (Some(model), Some(out), Some(games)) = (args.model.as_ref(), args.out.as_deref(), args.games) else {
        anyhow::bail!("--model, --out and --games are required without --follow");
    };
    let run = out
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "selfplay".to_string());
    let job = PlayJob {
        config: &sp,
        model,
        games,
        out,
        prefix: format!("selfplay-s{}", sp.seed),
        games_per_shard: sp.games_per_shard,
        run: &run,
    };
    let (stats, secs) = play_games::<G>(&rules, job, &[])?;
    println!(
        "{} games in {}; {:.1} s, {:.0} positions/s, {:.0} simulations/s, mean batch {:.1}",
        stats.games,
        out.display(),
        secs,
        stats.positions as f64 / secs,
        stats.simulations as f64 / secs,
        stats.mean_batch()
    );
    println!("{stats}");
    Ok(())
}

pub fn run(args: SelfPlayArgs) -> Result<()> {
    if let Some(run_dir) = &args.follow {
        let config = RunConfig::load_recorded(&zero_rundir::RunPaths::new(run_dir).config_path())
            .with_context(|| format!("{} is not a zero run directory", run_dir.display()))?;
        let options = FollowOptions {
            workers: args.workers,
            seed: args.seed,
            games_per_batch: args.games.unwrap_or(16),
            wait_for_run: std::time::Duration::from_secs(args.wait_for_run),
        };
        return with_game!(config.game, G => Ok(follow::<G>(&config, run_dir, options)?));
    }
    let path = args.config.clone().expect("clap requires --config without --follow");
    let config = RunConfig::load(&path)?;
    with_game!(config.game, G => play::<G>(&args, &config))
}
