//! Self-play jobs with a progress bar: the evaluator each worker uses (a checkpoint's network, or random
//! rollouts for generation 0, whose games the engine plays instead with `selfplay.bootstrap.nodes`), the shard
//! header the trainer will require, and [`play_games`], which the run loop, its followers and `zero selfplay` all
//! go through.

use crate::error::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use zero_data::ShardHeader;
use zero_games::{Encoding, Registered};
use zero_model::NetworkEvaluator;
use zero_search::{CachedEvaluator, EvalRequest, Evaluation, Evaluator, RolloutEvaluator};
use zero_selfplay::{Progress, SelfPlayConfig, SelfPlayStats, ShardSink, run_selfplay, worker_seed};

/// The evaluator a worker uses: a network from a checkpoint, or random rollouts. One per worker thread, so the
/// size difference between the variants does not matter.
#[allow(clippy::large_enum_variant)]
pub enum AnyEvaluator<G> {
    Network(CachedEvaluator<NetworkEvaluator<G>>),
    Rollout(RolloutEvaluator),
}

impl<G: Encoding> Evaluator<G> for AnyEvaluator<G> {
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

/// What a self-play job plays with: no network yet (generation 0: uniform priors and random-rollout values,
/// `--model uniform` on the command line), or a checkpoint's network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelfPlayModel {
    Uniform,
    Checkpoint(PathBuf),
}

impl SelfPlayModel {
    /// The name `--model` takes for [`SelfPlayModel::Uniform`], and shard headers record as its id.
    pub const UNIFORM: &'static str = "uniform";
}

impl std::str::FromStr for SelfPlayModel {
    type Err = std::convert::Infallible;

    /// `uniform`, or a checkpoint's path (which is checked when it is loaded).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text {
            SelfPlayModel::UNIFORM => SelfPlayModel::Uniform,
            path => SelfPlayModel::Checkpoint(PathBuf::from(path)),
        })
    }
}

/// Builds worker `w`'s evaluator for `model`, on the CPU.
pub fn make_evaluator<G: Encoding>(
    model: &SelfPlayModel,
    config: &SelfPlayConfig,
    w: usize,
) -> Result<AnyEvaluator<G>, zero_model::CheckpointError> {
    match model {
        SelfPlayModel::Uniform => Ok(AnyEvaluator::Rollout(RolloutEvaluator::new(
            worker_seed(config.seed, w),
            config.rollout_max_actions,
        ))),
        SelfPlayModel::Checkpoint(path) => {
            NetworkEvaluator::<G>::from_checkpoint(path, tch::Device::Cpu, config.precision)
                .map(|e| AnyEvaluator::Network(CachedEvaluator::new(e, config.eval_cache)))
        }
    }
}

/// The shard header every shard of this run carries.
pub fn shard_header<G: Encoding>(rules: &G::Rules, run: &str, model: &SelfPlayModel) -> Result<ShardHeader> {
    let (generation, model_id) = match model {
        SelfPlayModel::Uniform => (0, SelfPlayModel::UNIFORM.to_string()),
        SelfPlayModel::Checkpoint(path) => {
            let meta = zero_model::read_meta(path).with_context(|| format!("reading {}", path.display()))?;
            let id = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (meta.generation, id)
        }
    };
    // What the trainer will require of the shards, so the two cannot drift apart.
    Ok(zero_train::shard_spec::<G>(rules).header(run, generation, &model_id))
}

/// One self-play job: `games` games with `model`, written as shards named `prefix-…` into `out`.
pub struct PlayJob<'a> {
    pub config: &'a SelfPlayConfig,
    pub model: &'a SelfPlayModel,
    pub games: usize,
    pub out: &'a Path,
    pub prefix: String,
    pub games_per_shard: usize,
    /// Recorded in every shard's header.
    pub run: &'a str,
}

impl PlayJob<'_> {
    /// The settings the job's games play with: generation 0's (`SelfPlayConfig::for_generation_zero`) where
    /// there is no network yet.
    pub fn effective_config(&self) -> SelfPlayConfig {
        if *self.model == SelfPlayModel::Uniform {
            self.config.for_generation_zero()
        } else {
            self.config.clone()
        }
    }
}

/// Plays a job with a progress bar (games, positions/s, evaluations/s, mean batch, ETA), a share of its games
/// (`selfplay.lead_start_share`) beginning at one of `starts` ([`crate::dir::lead_starts`]); returns the stats
/// and the seconds it took.
pub fn play_games<G: Registered>(rules: &G::Rules, job: PlayJob<'_>, starts: &[G]) -> Result<(SelfPlayStats, f64)> {
    let config = job.effective_config();
    let header = shard_header::<G>(rules, job.run, job.model)?;
    zero_io::create_dir_durably(job.out).with_context(|| format!("creating {}", job.out.display()))?;
    let mut sink = ShardSink::new(
        job.out.to_path_buf(),
        job.prefix.clone(),
        header,
        job.games_per_shard.max(1),
    );
    let progress = Progress::default();
    let finished = AtomicBool::new(false);
    let bar = crate::progress::bar(
        job.games as u64,
        "self-play {bar:30} {pos}/{len} games, {msg}, ETA {eta}",
    );
    let start = Instant::now();
    let stats = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                // The message first: a line drawn at the position's change shows this moment's rates.
                bar.set_message(format!(
                    "{:.0} positions/s, {:.0} evals/s, mean batch {:.1}",
                    Progress::get(&progress.positions) as f64 / secs,
                    Progress::get(&progress.evaluations) as f64 / secs,
                    progress.mean_batch()
                ));
                bar.set_position(Progress::get(&progress.games));
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let result = run_selfplay::<G, _, _, _>(
            &config,
            rules,
            starts,
            job.games,
            |w| make_evaluator::<G>(job.model, &config, w),
            &mut sink,
            &progress,
        );
        finished.store(true, Ordering::Relaxed);
        result
    })?;
    bar.finish_and_clear();
    Ok((stats, start.elapsed().as_secs_f64()))
}

/// Plays `games` real Bashni games of the embedded quick config with random-rollout priors (the run's generation-0
/// player) on one worker, one game per shard named `prefix-…` in `out`: shards for tests and benchmarks of the data
/// path.
pub fn play_quick_bashni_shards(out: &Path, games: usize, prefix: &str) -> Result<()> {
    use zero_games::bashni::Bashni;
    let config = crate::RunConfig::parse(crate::DEFAULT_CONFIG, "the embedded config")?;
    let rules = <Bashni as zero_games::Game>::parse_rules(None, &[])?;
    let mut sp = config.selfplay.clone();
    sp.workers = 1;
    let job = PlayJob {
        config: &sp,
        model: &SelfPlayModel::Uniform,
        games,
        out,
        prefix: prefix.to_string(),
        games_per_shard: 1,
        run: "bench",
    };
    play_games::<Bashni>(&rules, job, &[]).map(drop)
}
