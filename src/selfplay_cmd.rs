//! `zero selfplay --config FILE --model CKPT|uniform --games N --out DIR`: plays games with the config's search
//! and writes them as zero-data shards, with a progress bar and a summary line.

use crate::config::RunConfig;
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use zero_data::ShardHeader;
use zero_games::Game;
use zero_games::registry::{GameVisitor, dispatch};
use zero_model::{Checkpoint, EvalRequest, Evaluation, Evaluator, NetworkEvaluator};
use zero_selfplay::{Progress, RolloutEvaluator, SelfPlayConfig, SelfPlayStats, ShardSink, run_selfplay, worker_seed};

#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// Run config: the game, its rules and the `[selfplay]` table.
    #[arg(long, required_unless_present = "follow")]
    pub config: Option<PathBuf>,
    /// A checkpoint, or `uniform` for uniform priors and random-playout values (generation 0).
    #[arg(long, required_unless_present = "follow", conflicts_with = "follow")]
    pub model: Option<String>,
    /// Games to play.
    #[arg(long, required_unless_present = "follow")]
    pub games: Option<usize>,
    /// Directory the shards are written to.
    #[arg(long, required_unless_present = "follow", conflicts_with = "follow")]
    pub out: Option<PathBuf>,
    /// Join a run: play with its newest network, add shards to its data directory, pick up each new checkpoint
    /// between batches of `--games` (default 16) games, and stop when the run has done all its generations.
    #[arg(long, value_name = "RUN_DIR", conflicts_with = "config")]
    pub follow: Option<PathBuf>,
    /// Worker threads (default: the config's `selfplay.workers`).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Run seed (default: the config's `selfplay.seed`).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// The evaluator a worker uses: a network from a checkpoint, or random rollouts. One per worker thread, so the
/// size difference between the variants does not matter.
#[allow(clippy::large_enum_variant)]
pub enum AnyEvaluator<G> {
    Network(NetworkEvaluator<G>),
    Rollout(RolloutEvaluator),
}

impl<G: Game> Evaluator<G> for AnyEvaluator<G> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        match self {
            AnyEvaluator::Network(e) => e.evaluate(batch),
            AnyEvaluator::Rollout(e) => e.evaluate(batch),
        }
    }

    fn name(&self) -> String {
        match self {
            AnyEvaluator::Network(e) => e.name(),
            AnyEvaluator::Rollout(e) => Evaluator::<G>::name(e),
        }
    }
}

/// Builds worker `w`'s evaluator for `model` (`uniform` or a checkpoint path), on the CPU.
pub fn make_evaluator<G: Game>(model: &str, config: &SelfPlayConfig, w: usize) -> Result<AnyEvaluator<G>, String> {
    if model == "uniform" {
        return Ok(AnyEvaluator::Rollout(RolloutEvaluator::new(
            worker_seed(config.seed, w),
            config.rollout_max_actions,
        )));
    }
    NetworkEvaluator::<G>::from_checkpoint(Path::new(model), tch::Device::Cpu, config.precision)
        .map(|e| AnyEvaluator::Network(e.with_cache(config.eval_cache)))
        .map_err(|e| e.to_string())
}

/// The shard header every shard of this run carries.
pub fn shard_header<G: Game>(rules: &G::Rules, run: &str, model: &str) -> Result<ShardHeader> {
    let (generation, model_id) = if model == "uniform" {
        (0, "uniform".to_string())
    } else {
        let meta = Checkpoint::read_meta(Path::new(model)).with_context(|| format!("reading {model}"))?;
        let id = Path::new(model)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        (meta.generation, id)
    };
    // What the trainer will require of the shards, so the two cannot drift apart.
    Ok(zero_train::shard_spec::<G>(rules).header(run, generation, &model_id))
}

/// One self-play job: `games` games with `model`, written as shards named `prefix-…` into `out`.
pub struct PlayJob<'a> {
    pub config: &'a SelfPlayConfig,
    pub model: &'a str,
    pub games: usize,
    pub out: &'a Path,
    pub prefix: String,
    pub games_per_shard: usize,
    /// Recorded in every shard's header.
    pub run: &'a str,
}

/// Plays a job with a progress bar (games, positions/s, evaluations/s, mean batch, ETA); returns the stats and
/// the seconds it took.
pub fn play_games<G: Game>(rules: &G::Rules, job: PlayJob<'_>) -> Result<(SelfPlayStats, f64)> {
    let header = shard_header::<G>(rules, job.run, job.model)?;
    std::fs::create_dir_all(job.out).with_context(|| format!("creating {}", job.out.display()))?;
    let mut sink = ShardSink::new(
        job.out.to_path_buf(),
        job.prefix.clone(),
        header,
        job.games_per_shard.max(1),
    );
    let progress = Progress::default();
    let finished = AtomicBool::new(false);
    let bar = ProgressBar::new(job.games as u64);
    bar.set_style(
        ProgressStyle::with_template("self-play {bar:30} {pos}/{len} games, {msg}, ETA {eta}")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let stats = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                bar.set_position(Progress::get(&progress.games));
                bar.set_message(format!(
                    "{:.0} positions/s, {:.0} evals/s, mean batch {:.1}",
                    Progress::get(&progress.positions) as f64 / secs,
                    Progress::get(&progress.evaluations) as f64 / secs,
                    progress.mean_batch()
                ));
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let result = run_selfplay::<G, _, _>(
            job.config,
            rules,
            job.games,
            |w| make_evaluator::<G>(job.model, job.config, w),
            &mut sink,
            &progress,
        );
        finished.store(true, Ordering::Relaxed);
        result
    })?;
    bar.finish_and_clear();
    Ok((stats, start.elapsed().as_secs_f64()))
}

struct Play {
    args: SelfPlayArgs,
    config: RunConfig,
}

impl GameVisitor for Play {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        let Play { args, config } = self;
        let rules = G::parse_rules(config.variant.as_deref(), &config.rules)?;
        let mut sp = config.selfplay.clone();
        if let Some(w) = args.workers {
            sp.workers = w.max(1);
        }
        if let Some(s) = args.seed {
            sp.seed = s;
        }
        let (Some(model), Some(out), Some(games)) = (args.model.as_deref(), args.out.as_deref(), args.games) else {
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
        let (stats, secs) = play_games::<G>(&rules, job)?;
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
}

pub fn run(args: SelfPlayArgs) -> Result<()> {
    if let Some(run_dir) = args.follow.clone() {
        let config = RunConfig::load(&run_dir.join("config.toml"))
            .with_context(|| format!("{} is not a zero run directory", run_dir.display()))?;
        let game = config.game.clone();
        return dispatch(&game, Follow { args, config, run_dir })?;
    }
    let path = args.config.clone().expect("clap requires --config without --follow");
    let config = RunConfig::load(&path)?;
    let game = config.game.clone();
    dispatch(&game, Play { args, config })?
}

/// `--follow RUN_DIR`: an extra self-play process for a run, on this machine or another one sharing the run
/// directory. Its shards are named after the generation of the network that played them (`g0003-follow-…`), so
/// the run counts them towards that generation and its trainer reads them like its own.
struct Follow {
    args: SelfPlayArgs,
    config: RunConfig,
    run_dir: PathBuf,
}

impl GameVisitor for Follow {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        let Follow { args, config, run_dir } = self;
        let rules = G::parse_rules(config.variant.as_deref(), &config.rules)?;
        let mut sp = config.selfplay.clone();
        if let Some(w) = args.workers {
            sp.workers = w.max(1);
        }
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_else(|_| "host".to_string());
        let host: String = host.trim().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        let run_name = run_dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let batch = args.games.unwrap_or(16).max(1);
        for round in 0u64.. {
            let state = crate::run::dir::RunDir::read_state(&run_dir)?;
            if state.generation >= config.run.generations {
                println!(
                    "zero selfplay: {} has finished its {} generations",
                    run_dir.display(),
                    state.generation
                );
                return Ok(());
            }
            // The network the run's own self-play uses: with gating, the last one promoted; else the newest the
            // run has made (generation 0 has none). Shards are named after the generation they count towards.
            let (generation, network) = match state.selfplay_network {
                Some(network) if config.run.gate => {
                    let generation = if state.phase == crate::run::dir::Phase::Selfplay {
                        state.generation
                    } else {
                        state.generation + 1
                    };
                    (generation, network)
                }
                _ => {
                    let newest = (1..=state.generation + 1)
                        .rev()
                        .find(|g| crate::run::dir::checkpoint_path(&run_dir, *g).exists())
                        .unwrap_or(0);
                    (newest, newest)
                }
            };
            let model = if network == 0 {
                "uniform".to_string()
            } else {
                crate::run::dir::checkpoint_path(&run_dir, network)
                    .display()
                    .to_string()
            };
            sp.seed = zero_selfplay::derive_seed(args.seed.unwrap_or(sp.seed) ^ std::process::id() as u64, round);
            let job = PlayJob {
                config: &sp,
                model: &model,
                games: batch,
                out: &run_dir.join("data"),
                prefix: format!(
                    "{}follow-{host}-{}-{round:05}",
                    crate::run::dir::shard_prefix(generation),
                    std::process::id()
                ),
                games_per_shard: 1,
                run: &run_name,
            };
            let (stats, secs) = play_games::<G>(&rules, job)?;
            println!(
                "zero selfplay: {} games of generation {generation} with network {network} into {} ({:.0} positions/s)",
                stats.games,
                run_dir.join("data").display(),
                stats.positions as f64 / secs.max(1e-9)
            );
        }
        Ok(())
    }
}
