//! The main job (`zero run [CONFIG] [--run-dir DIR] [--set key=value]...`). A run alternates, generation after
//! generation: self-play with the newest network (generation 0: the search with uniform priors and random
//! playouts), training on the replay window of the run's shards, and evaluation of the new network against the
//! baselines and the previous generation. Everything a run needs to go on is in its directory (see
//! [`crate::dir`]); a run killed at any moment resumes where it stopped when `zero run` is given the same
//! directory.

use crate::config::{RESUMABLE_KEYS, RunConfig, is_resumable};
use crate::dir::{GenerationGames, Phase, RunDir, RunState, shard_prefix};
use crate::error::{Context, Result, bail};
use crate::log::say;
use crate::play::{PlayJob, play_games};
use crate::resign::resignation_earned;
use crate::summary::{
    GateSummary, GenerationSummary, MatchScore, PhaseTime, PhaseTimes, RatingPoint, Stopwatch, collapse_warnings,
    is_network_name, network_name, read_generations,
};
use crate::{evaluate, gate, report, training};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use zero_arena::{BookRequest, OpeningBook};
use zero_games::{Registered, with_game};
use zero_model::DeviceChoice;
use zero_selfplay::{SelfPlayConfig, SelfPlayStats};
use zero_train::{StepMetrics, Trainer};

/// The config `zero run` uses when none is given: the quick run where learning shows fastest on a small CPU.
pub const DEFAULT_CONFIG: &str = include_str!("../../configs/bashni-quick.toml");
const DEFAULT_CONFIG_NAME: &str = "bashni-quick";

/// What `zero run` was asked.
#[derive(Debug, Clone, Default)]
pub struct RunRequest {
    /// Run config (TOML). Without one: the embedded quick Bashni config, or, with `run_dir` on an existing run,
    /// that run's own config.
    pub config: Option<PathBuf>,
    /// The run directory (default: `runs/<config name>`).
    pub run_dir: Option<PathBuf>,
    /// `key=value` overrides of config values. On an existing run only the keys that may change on resume
    /// ([`RESUMABLE_KEYS`]) are accepted.
    pub set: Vec<String>,
    /// The program's version line, recorded in a new run's `version.txt`.
    pub version: String,
}

/// The run's log, in its directory: everything the run said in every session, with times.
pub use zero_rundir::layout::LOG_FILE;

/// Starts or resumes the run `args` names and runs it to its last generation.
pub fn run(args: RunRequest) -> Result<()> {
    let Resolved {
        config,
        run_dir,
        record_config,
    } = resolve(&args)?;
    let dir = RunDir::open(&run_dir)?;
    let log = dir.log_path();
    crate::log::log_into(&log).with_context(|| format!("opening the run's log {}", log.display()))?;
    tracing::info!("session of {} in {}", args.version.trim_end(), dir.root().display());
    if record_config {
        zero_io::write_atomically(&dir.config_path(), config.to_toml().as_bytes())?;
    }
    if !dir.version_path().exists() {
        let version = format!("{}\n", args.version.trim_end());
        zero_io::write_atomically(&dir.version_path(), version.as_bytes())?;
    }
    // The followers of `[cluster]` play beside the run while it is driven, and stop with it.
    let followers = crate::cluster::Followers::start(&config.cluster, dir.root())?;
    // A signal ends the run between writes, saying first the summary that waited for the next generation.
    let root = dir.root().to_path_buf();
    crate::set_last_words(Some(Box::new(move || say_waiting_summary(&root))));
    if !followers.watch_interrupts() {
        crate::exit_between_writes_on_signals(|signal| 128 + signal).context("watching for SIGINT and SIGTERM")?;
    }
    let result = with_game!(config.game, G => run_loop::<G>(&config, &dir, &args.version));
    crate::set_last_words(None);
    let watched = followers.finish();
    // What a follower cancelled mid-write on this host left (another host's are left to it).
    let tidied = dir.clean_leftovers();
    result.and(watched).and(tidied)
}

/// The config and directory of an invocation.
struct Resolved {
    config: RunConfig,
    run_dir: PathBuf,
    /// Whether the run directory must (re)record the config: a new run, or one resumed with changed keys.
    record_config: bool,
}

/// The config and directory of this invocation; an existing run keeps the config it recorded, except for the
/// keys a resumed run may change.
fn resolve(args: &RunRequest) -> Result<Resolved> {
    let (text, origin, name) = match &args.config {
        Some(path) => (
            zero_io::read_text_bounded(path, zero_io::FileKind::Config).context("reading config")?,
            path.display().to_string(),
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "run".to_string()),
        ),
        None => (
            DEFAULT_CONFIG.to_string(),
            format!("embedded {DEFAULT_CONFIG_NAME}.toml"),
            DEFAULT_CONFIG_NAME.to_string(),
        ),
    };
    let run_dir = args
        .run_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("runs").join(&name));
    let recorded = zero_rundir::RunPaths::new(&run_dir).config_path();
    if recorded.exists() {
        let existing = RunConfig::load_recorded(&recorded)
            .with_context(|| format!("the run's recorded config {}", recorded.display()))?;
        // Without a config file, overrides apply to the run's own config.
        let wanted = match &args.config {
            Some(_) => RunConfig::parse_with_overrides(&text, &origin, &args.set)?,
            None => RunConfig::parse_with_overrides(&existing.to_toml(), &recorded.display().to_string(), &args.set)?,
        };
        let changed = existing.differing_keys(&wanted);
        let fixed: Vec<&String> = changed.iter().filter(|k| !is_resumable(k)).collect();
        if !fixed.is_empty() {
            let may_change = format!("{} and cluster.*", RESUMABLE_KEYS.join(", "));
            bail!(
                "{} already holds a run made with a different config ({} differ; a resumed run may change only {}); \
                 resume it with `zero run --run-dir {}`, or choose another --run-dir",
                run_dir.display(),
                fixed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "),
                may_change,
                run_dir.display()
            );
        }
        if changed.is_empty() {
            tracing::info!("zero run: resuming {}", run_dir.display());
        } else {
            tracing::info!(
                "zero run: resuming {} with new {}",
                run_dir.display(),
                changed.join(", ")
            );
        }
        return Ok(Resolved {
            config: wanted,
            run_dir,
            record_config: !changed.is_empty(),
        });
    }
    Ok(Resolved {
        config: RunConfig::parse_with_overrides(&text, &origin, &args.set)?,
        run_dir,
        record_config: true,
    })
}

/// The loop: each generation plays, trains and evaluates in turn, recording its phase after each so that a
/// killed run goes on from the phase it was in.
fn run_loop<G: Registered>(config: &RunConfig, dir: &RunDir, build: &str) -> Result<()> {
    let rules = config.rules_of::<G>()?;
    let mut state = dir.load_state()?;
    let device = config.train.device.parse::<DeviceChoice>()?.resolve()?;
    // A run replays bit for bit only on the same kind of CPU and number format (docs/run.md, "Resuming").
    tracing::info!(
        "machine: {}; training on {device:?}, self-play's networks in {:?} on the CPU",
        zero_model::device::cpu_summary(),
        config.selfplay.precision.kind(tch::Device::Cpu)
    );
    say(format!(
        "zero run: {} in {} (generation {} of {}), report: {}",
        G::NAME,
        dir.root().display(),
        state.generation,
        config.run.generations,
        dir.report_dir().join("index.html").display()
    ));
    let book = openings::<G>(config, dir, &rules, build)?;
    // Runs made before generations were merged (and a merge that failed) still hold finished generations as
    // one-game shards; past the self-play phase, the current generation's self-play is finished too.
    let finished = match state.phase {
        Phase::Selfplay => state.generation.checked_sub(1),
        _ => Some(state.generation),
    };
    if let Some(finished) = finished {
        dir.merge_selfplay_shards(finished)?;
    }
    let generation = Generation::<G> {
        config,
        dir,
        rules: &rules,
        book: &book,
        device,
    };
    while state.generation < config.run.generations {
        generation.run(&mut state)?;
        let report = report::write_report(dir.root())?;
        tracing::info!("report: {}", report.html.display());
    }
    generation.finish_pending(&mut state)?;
    let report = report::write_report(dir.root())?;
    say(format!(
        "zero run: {} generations done; report: {}",
        state.generation,
        report.html.display()
    ));
    Ok(())
}

/// What every generation of a run shares.
struct Generation<'a, G: Registered> {
    config: &'a RunConfig,
    dir: &'a RunDir,
    rules: &'a G::Rules,
    book: &'a OpeningBook,
    device: tch::Device,
}

/// What a session measured of a generation's self-play (nothing when it finished before a resume).
#[derive(Default)]
struct SelfPlayRun {
    stats: Option<SelfPlayStats>,
    seconds: f64,
    /// Whether self-play could resign (decided when the session played).
    resignation_allowed: Option<bool>,
    /// The network's results in this session's sparring games against the engine.
    sparring: Option<MatchScore>,
}

/// The seed of one self-play session of the run: generation `g`, starting after `have` of its games. A fresh
/// seed for each session, so that a resumed generation does not replay the same games. `[selfplay] seed` gives
/// another self-play trajectory on the same book (which `run.seed` draws); at its default the derivation is the
/// one runs have always used, so that older runs stay reproducible.
fn session_seed(run_seed: u64, selfplay_seed: u64, g: u32, have: u64) -> u64 {
    let base = if selfplay_seed == SelfPlayConfig::default().seed {
        run_seed
    } else {
        zero_selfplay::derive_seed(run_seed, selfplay_seed)
    };
    zero_selfplay::derive_seed(base, ((g as u64) << 32) | have)
}

/// The network's results in the sparring games of `stats`, against alpha-beta with `nodes` nodes a move.
fn sparring_score(stats: &SelfPlayStats, nodes: u64) -> Option<MatchScore> {
    let (games, wins, draws) = (stats.sparring_games, stats.sparring_wins, stats.sparring_draws);
    let repeat = |score: f64, n: u64| std::iter::repeat_n(score, n as usize);
    (games > 0).then(|| {
        let scores = repeat(1.0, wins)
            .chain(repeat(0.5, draws))
            .chain(repeat(0.0, games - wins - draws));
        MatchScore::of(&format!("alphabeta:nodes={nodes}"), scores)
    })
}

/// One line of the run's `metrics.jsonl`: a training step with the generation it trains and when it ended, so
/// that a notebook can group and plot the rows without joining them to anything.
#[derive(Serialize)]
struct MetricsRow<'a> {
    /// The network being trained (its checkpoint is `gen-NNNN`; as in `generations.jsonl`).
    generation: u32,
    /// The run's clock: seconds of all its sessions so far, as `generations.jsonl` counts them.
    elapsed_seconds: f64,
    /// Wall-clock time, seconds since the Unix epoch.
    unix_time: f64,
    #[serde(flatten)]
    step: &'a StepMetrics,
}

impl<'a> MetricsRow<'a> {
    fn now(generation: u32, elapsed_seconds: f64, step: &'a StepMetrics) -> Self {
        Self {
            generation,
            elapsed_seconds,
            unix_time: zero_rundir::unix_now(),
            step,
        }
    }
}

/// The training a session ran: its steps and the mean of each loss term.
#[derive(Default)]
struct TrainingRun {
    steps: u64,
    losses: BTreeMap<String, f64>,
}

impl<G: Registered> Generation<'_, G> {
    /// Runs generation `state.generation` from the phase it is in to its summary, saving the state after each
    /// phase.
    fn run(&self, state: &mut RunState) -> Result<()> {
        let g = state.generation;
        let session = Instant::now();
        let base_elapsed = state.elapsed_seconds;
        let save = |state: &mut RunState, phase| {
            tracing::debug!("state saved: generation {} goes on with {phase:?}", state.generation);
            state.phase = phase;
            state.elapsed_seconds = base_elapsed + session.elapsed().as_secs_f64();
            self.dir.save_state(state)
        };
        // The summaries of the generations before this one (the file grows at the end of a generation, and with
        // the evaluation beside self-play, the previous network's summary waits in the state until then).
        let mut earlier = read_generations(&self.dir.generations_path())?;
        if state.phase == Phase::Selfplay
            && let Some(pending) = &state.pending
        {
            earlier.push(pending.clone());
        }
        // Each phase's results go into the state's pending summary as the phase ends, so that a kill in a later
        // phase loses none of them.
        let fresh_summary = |data: &GenerationGames| {
            let (selfplay, training) = (SelfPlayRun::default(), TrainingRun::default());
            summarize(g + 1, data, selfplay, training, PhaseTimes::default(), &earlier)
        };
        if state.phase == Phase::Selfplay {
            let watch = Stopwatch::start();
            let network = state.selfplay_network.unwrap_or(g);
            let selfplay = match state.pending.take() {
                Some(pending) => self.selfplay_beside_evaluation(g, network, &earlier, pending)?,
                None => self.selfplay(g, network, &earlier)?,
            };
            let phases = PhaseTimes {
                selfplay: Some(watch.stop()),
                ..PhaseTimes::default()
            };
            let data = self.dir.generation_data(g)?;
            state.pending = Some(summarize(
                g + 1,
                &data,
                selfplay,
                TrainingRun::default(),
                phases,
                &earlier,
            ));
            save(state, Phase::Train)?;
        }
        let data = self.dir.generation_data(g)?;
        if state.phase == Phase::Train {
            let watch = Stopwatch::start();
            let training = self.train(g, data.positions, base_elapsed + session.elapsed().as_secs_f64())?;
            // Runs from before the state kept self-play's results, resumed here, have none to add to.
            let mut summary = state.pending.take().unwrap_or_else(|| fresh_summary(&data));
            summary.train_steps = training.steps;
            summary.losses = training.losses;
            summary.phases.train = Some(watch.stop());
            state.pending = Some(summary);
            save(state, Phase::Evaluate)?;
        }
        let mut summary = state.pending.take().unwrap_or_else(|| fresh_summary(&data));
        let watch = Stopwatch::start();
        let beside = self.evaluation_beside_selfplay(g + 1);
        if !beside {
            (summary.ratings, summary.scores) = self.evaluate(g + 1, true)?;
        }
        summary.equal_time = evaluate::equal_time::<G>(self.config, self.dir, self.rules, self.book, g + 1)?;
        summary.oracle = evaluate::oracle::<G>(self.config, self.dir, g + 1)?;
        let (next_selfplay, gate) = self.gate(g + 1, state.selfplay_network)?;
        summary.gate = gate;
        summary.phases.evaluate = Some(watch.stop());
        summary.elapsed_seconds = base_elapsed + session.elapsed().as_secs_f64();
        if beside {
            state.pending = Some(summary);
        } else {
            self.record(&summary)?;
        }
        state.generation = g + 1;
        state.selfplay_network = Some(next_selfplay);
        save(state, Phase::Selfplay)
    }

    /// Whether network `network`'s evaluation pool is played beside the next generation's self-play: asked for,
    /// no gate (which must decide before that self-play starts) and a next generation to play beside.
    fn evaluation_beside_selfplay(&self, network: u32) -> bool {
        let run = &self.config.run;
        run.eval_beside_selfplay && !run.gate && run.eval_games > 0 && network < run.generations
    }

    /// Appends a finished network's summary to `generations.jsonl` and prints it, once: a session killed after
    /// recording it but before saving the state that says so is resumed without a second line.
    fn record(&self, summary: &GenerationSummary) -> Result<()> {
        let path = self.dir.generations_path();
        if read_generations(&path)?
            .iter()
            .any(|s| s.generation == summary.generation)
        {
            return Ok(());
        }
        RunDir::append_line(&path, summary)?;
        print_summary(summary);
        Ok(())
    }

    /// Self-play of generation `g` with the evaluation pool of the previous network (`pending`'s) on a thread
    /// beside it; records that network's summary once both are done.
    fn selfplay_beside_evaluation(
        &self,
        g: u32,
        network: u32,
        earlier: &[GenerationSummary],
        mut pending: GenerationSummary,
    ) -> Result<SelfPlayRun> {
        let (selfplay, evaluation) = std::thread::scope(|scope| {
            let evaluation = scope.spawn(|| {
                let watch = Stopwatch::start();
                self.evaluate(pending.generation, false)
                    .map(|result| (result, watch.stop()))
            });
            let selfplay = self.selfplay(g, network, earlier);
            let evaluation = evaluation.join().unwrap_or_else(|_| {
                Err(crate::error::RunError::invalid(
                    "the evaluation beside self-play panicked",
                ))
            });
            (selfplay, evaluation)
        });
        let ((ratings, scores), time) =
            evaluation.with_context(|| format!("evaluating {} beside self-play", pending.network))?;
        let selfplay = selfplay?;
        pending.ratings = ratings;
        pending.scores = scores;
        pending.phases.beside_selfplay = Some(PhaseTime {
            seconds: time.seconds,
            cores: None,
        });
        self.record(&pending)?;
        Ok(selfplay)
    }

    /// A network's summary still waiting for its evaluation when the run ends before the generation it was to be
    /// played beside (a run resumed with fewer generations): evaluated alone and recorded.
    fn finish_pending(&self, state: &mut RunState) -> Result<()> {
        if state.phase != Phase::Selfplay {
            return Ok(());
        }
        let Some(mut pending) = state.pending.take() else {
            return Ok(());
        };
        (pending.ratings, pending.scores) = self.evaluate(pending.generation, true)?;
        self.record(&pending)?;
        self.dir.save_state(state)
    }

    /// Self-play: finishes generation `g`'s games with network `network` (those already in shards count),
    /// then merges the generation's one-game shards. `earlier` decides whether it may resign.
    fn selfplay(&self, g: u32, network: u32, earlier: &[GenerationSummary]) -> Result<SelfPlayRun> {
        let have = self.dir.generation_data(g)?.games;
        let wanted = self.config.run.games_per_generation as u64;
        let mut run = SelfPlayRun::default();
        if have < wanted {
            let model = crate::dir::model_of(self.dir.root(), network);
            let mut sp = self.config.selfplay.clone();
            let allowed = resignation_earned(&sp, earlier);
            if !allowed {
                // Every would-be resignation is played out (by a stronger search of the resigning side) and
                // counted: the checks that may earn resignation for the next generation.
                sp.resign.check_fraction = 1.0;
            }
            sp.seed = session_seed(self.config.run.seed, sp.seed, g, have);
            let starts = crate::dir::lead_starts_for::<G>(self.dir.root(), self.rules, sp.lead_start_share, g)?;
            let job = PlayJob {
                config: &sp,
                model: &model,
                games: (wanted - have) as usize,
                out: &self.dir.data_dir(),
                prefix: format!("{}{:06}", shard_prefix(g), have),
                // One finished game per shard: a kill never loses a finished game.
                games_per_shard: 1,
                run: &self.dir.name(),
            };
            if !allowed && sp.resignation_enabled() {
                tracing::info!(
                    "self-play: no resignation in generation {g} yet (the one before has not shown its value head \
                     resigns rightly); every would-be resignation is played out and checked"
                );
            }
            // Generation 0's engine, where it bootstraps, plays at `bootstrap.nodes`.
            let engine_nodes = job.effective_config().sparring.nodes;
            let (stats, seconds) = self.counting_meanwhile(g, || play_games::<G>(self.rules, job, &starts))?;
            run = SelfPlayRun {
                sparring: sparring_score(&stats, engine_nodes),
                stats: Some(stats),
                seconds,
                resignation_allowed: Some(allowed),
            };
        }
        if have >= wanted {
            // Followers (or an earlier session) filled the generation before its self-play began: while this
            // run judged its book, trained or gated. Their games are the generation's (docs/cluster.md).
            say(format!(
                "self-play: generation {g} already holds {have} of its {wanted} games (followers' or an earlier \
                 session's); the run plays none of it"
            ));
        }
        // One shard per finished game kept each game safe; the finished generation needs one file, not hundreds.
        self.dir.merge_selfplay_shards(g)?;
        Ok(run)
    }

    /// Runs `work` while a thread counts generation `g`'s shards every few seconds, so that the count at the
    /// generation's end reads only the shards (the followers' one-game shards) written since the last look.
    fn counting_meanwhile<T>(&self, g: u32, work: impl FnOnce() -> T) -> T {
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    for _ in 0..25 {
                        std::thread::sleep(Duration::from_millis(200));
                        if done.load(Ordering::Relaxed) {
                            return;
                        }
                    }
                    // A damaged shard is reported by the count that decides; here it is only not remembered.
                    let _ = self.dir.generation_data(g);
                }
            });
            let result = work();
            done.store(true, Ordering::Relaxed);
            result
        })
    }

    /// Training: from network `g` (exactly resumable; a fresh network for g = 0) on the window over every shard
    /// of the run, as many steps as the new positions ask for; writes network `g + 1`.
    /// `elapsed_seconds` is the run's clock as training starts (the summaries' clock, resumed sessions added).
    fn train(&self, g: u32, positions: u64, elapsed_seconds: f64) -> Result<TrainingRun> {
        let (config, dir) = (self.config, self.dir);
        // Training alone has the machine: `train.threads` intra-op threads, back to the process's count after.
        let _threads = TorchThreads::set(config.train.threads);
        let mut trainer = if g == 0 {
            Trainer::<G>::new(config.train.clone(), &config.network, self.rules.clone(), self.device)?
        } else {
            let from = dir.checkpoint(g);
            Trainer::<G>::resume(
                config.train.clone(),
                &config.network,
                self.rules.clone(),
                self.device,
                &from,
            )?
        };
        trainer.set_generation(g + 1, Some(dir.name()));
        let index = training::open_window::<G>(&dir.data_dir(), self.rules, &config.train, &mut dir.footers())?;
        let steps = trainer.config().steps_for_new_positions(positions).max(1);
        let bar = crate::progress::bar(steps, "training  {bar:30} {pos}/{len} steps, {msg}, ETA {eta}");
        let mut sums: BTreeMap<String, (f64, u64)> = BTreeMap::new();
        let metrics_path = dir.metrics_path();
        let clock = Instant::now();
        let mut failure = None;
        trainer.train_steps(&index, steps, |m| {
            // A shard found damaged when its rows are read (its digest, a bad row) is dropped from the stream.
            for shard in &m.skipped_shards {
                tracing::warn!("skipping shard: {shard}");
            }
            bar.inc(1);
            bar.set_message(format!("loss {:.3}", m.loss));
            for (k, v) in [
                ("loss", m.loss),
                ("policy_loss", m.policy_loss),
                ("value_loss", m.value_loss),
            ] {
                let e = sums.entry(k.to_string()).or_default();
                e.0 += v;
                e.1 += 1;
            }
            if failure.is_none()
                && let Err(e) = RunDir::append_line(
                    &metrics_path,
                    &MetricsRow::now(g + 1, elapsed_seconds + clock.elapsed().as_secs_f64(), m),
                )
            {
                failure = Some(e);
            }
        })?;
        bar.finish_and_clear();
        if let Some(e) = failure {
            return Err(e);
        }
        dir.check_lease()?;
        trainer.save(&dir.checkpoint(g + 1))?;
        let losses = sums.into_iter().map(|(k, (s, n))| (k, s / n.max(1) as f64)).collect();
        Ok(TrainingRun { steps, losses })
    }

    /// Evaluation: network `network` against the references and its parent, rated over the run's whole pool;
    /// keeps this generation's neighbourhood (the baselines, the network and its parent).
    fn evaluate(&self, network: u32, progress: bool) -> Result<(Vec<RatingPoint>, Vec<MatchScore>)> {
        if self.config.run.eval_games == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let (standings, scores) =
            evaluate::evaluate::<G>(self.config, self.dir, self.rules, self.book, network, progress)?;
        let (name, parent) = (network_name(network), network_name(network - 1));
        let ratings = standings
            .rows
            .iter()
            .filter(|r| r.name == name || r.name == parent || !is_network_name(&r.name))
            .map(|r| RatingPoint {
                player: r.name.clone(),
                elo: r.elo,
                low: r.elo - r.elo_interval,
                high: r.elo + r.elo_interval,
            })
            .collect();
        Ok((ratings, scores))
    }

    /// Gating: the network self-play uses next, and the gate's decision when one was played. Without gating,
    /// and for the first network (nothing to gate it against): the newest.
    fn gate(&self, candidate: u32, incumbent: Option<u32>) -> Result<(u32, Option<GateSummary>)> {
        match incumbent {
            Some(incumbent) if self.config.run.gate && incumbent >= 1 => {
                let summary = gate::gate::<G>(self.config, self.dir, self.rules, self.book, candidate, incumbent)?;
                let next = if summary.promoted { candidate } else { incumbent };
                Ok((next, Some(summary)))
            }
            _ => Ok((candidate, None)),
        }
    }
}

/// libtorch's intra-op thread count for a scope: set on creation, the previous count restored on drop.
struct TorchThreads(i32);

impl TorchThreads {
    fn set(threads: i32) -> TorchThreads {
        let previous = tch::get_num_threads();
        tch::set_num_threads(threads);
        TorchThreads(previous)
    }
}

impl Drop for TorchThreads {
    fn drop(&mut self) {
        tch::set_num_threads(self.0);
    }
}

/// A generation's summary before its evaluation (no ratings, gate or elapsed time yet), with the collapse
/// warnings against the `earlier` generations. Game statistics come from the shards, so they cover every game of
/// the generation (followers' too, and those of an earlier session); throughput and false resignations only from
/// self-play in this session.
fn summarize(
    generation: u32,
    data: &GenerationGames,
    selfplay: SelfPlayRun,
    training: TrainingRun,
    phases: PhaseTimes,
    earlier: &[GenerationSummary],
) -> GenerationSummary {
    let stats = selfplay.stats.as_ref();
    let mut summary = GenerationSummary {
        generation,
        elapsed_seconds: 0.0,
        games: data.games,
        positions: data.positions,
        positions_per_second: stats
            .filter(|_| selfplay.seconds > 0.0)
            .map(|s| s.positions as f64 / selfplay.seconds),
        mean_game_length: data.per_game(data.plies),
        draw_rate: data.per_game(data.draws),
        resign_rate: data.per_game(data.resignations),
        first_win_rate: data.per_game(data.first_wins),
        second_win_rate: data.per_game(data.second_wins),
        resign_checks: stats.map_or(0, |s| s.resign_checks),
        resignation_allowed: selfplay.resignation_allowed,
        warnings: Vec::new(),
        false_resign_rate: stats
            .filter(|s| s.resign_checks > 0)
            .map(|s| s.false_resigns as f64 / s.resign_checks as f64),
        train_steps: training.steps,
        phases,
        losses: training.losses,
        ratings: Vec::new(),
        scores: Vec::new(),
        network: network_name(generation),
        equal_time: None,
        oracle: None,
        gate: None,
        sparring: selfplay.sparring,
    };
    summary.warnings = collapse_warnings(earlier, &summary);
    summary
}

/// Prints the summary of a finished network whose evaluation pool was still playing beside self-play when a
/// signal ended the run: everything but the pool's ratings (its equal-time match included). The state keeps it,
/// and a resumed run plays the pool and records it whole in `generations.jsonl`.
fn say_waiting_summary(root: &Path) {
    let Ok(state) = RunDir::read_state(root) else { return };
    if let (Phase::Selfplay, Some(summary)) = (state.phase, &state.pending) {
        print_summary(summary);
        say(format!(
            "                (stopped while its evaluation pool played beside generation {}'s self-play: its \
             ratings come when the run resumes)",
            summary.generation + 1
        ));
    }
}

/// The summary's first line: the network's Elo beside the others' and its scores against each player it met.
fn learning_line(s: &GenerationSummary) -> String {
    let elo = |name: &str| {
        s.ratings
            .iter()
            .find(|r| r.player == name)
            .map(|r| format!("{:.0} ±{:.0}", r.elo, (r.high - r.low) / 2.0))
            .unwrap_or_else(|| "-".to_string())
    };
    let others: Vec<String> = s
        .ratings
        .iter()
        .filter(|r| r.player != s.network)
        .map(|r| format!("{} {}", r.player, elo(&r.player)))
        .collect();
    let scores: Vec<String> = s
        .scores
        .iter()
        .map(|m| format!("{} {}", m.opponent, m.describe()))
        .collect();
    let against = if scores.is_empty() {
        String::new()
    } else {
        format!("; against {}", scores.join("; "))
    };
    format!(
        "generation {:>3}: {} Elo {} (vs {}){against}",
        s.generation,
        s.network,
        elo(&s.network),
        others.join(", ")
    )
}

/// A finished network's summary on the terminal: first what rises within minutes of training (its Elo and its
/// scores against the weak baselines), then self-play and time, and the equal-time match against alpha-beta
/// labelled as the long-run headline it is.
fn print_summary(s: &GenerationSummary) {
    say(learning_line(s));
    let speed = s
        .positions_per_second
        .map_or_else(String::new, |p| format!("{p:.0} positions/s, "));
    say(format!(
        "                self-play {} games, {speed}losses {}",
        s.games,
        s.losses
            .iter()
            .map(|(k, v)| format!("{k} {v:.3}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    let phases = s.phases.describe();
    if !phases.is_empty() {
        say(format!("                time: {phases}"));
    }
    for warning in &s.warnings {
        say(format!(
            "                WARNING: self-play may be collapsing: {warning}"
        ));
        tracing::warn!("self-play of {} may be collapsing: {warning}", s.network);
    }
    if let Some(sparring) = &s.sparring {
        say(format!(
            "                {} against {} in its sparring games: {}",
            s.network,
            sparring.opponent,
            sparring.describe()
        ));
    }
    if let Some(oracle) = &s.oracle {
        say(format!(
            "                {} against perfect play: {}",
            s.network,
            oracle.describe()
        ));
    }
    if let Some(e) = &s.equal_time {
        say(format!(
            "                long-run headline: {} against {} at equal time ({} ms a move): {}",
            s.network,
            e.result.opponent,
            e.ms,
            e.describe()
        ));
    }
    if let Some(gate) = &s.gate {
        say(format!("                {}", gate_line(gate, &s.network)));
    }
}

/// A gate's decision in words, for the summary line and the report.
fn gate_line(gate: &GateSummary, network: &str) -> String {
    format!(
        "gate: {network} {} {} in self-play ({} after {} games: score {:.0}%, LLR {:.2})",
        if gate.promoted { "replaces" } else { "does not replace" },
        gate.opponent,
        gate.decision,
        gate.games,
        100.0 * gate.score,
        gate.llr
    )
}

/// The run's evaluation openings: generated once (or taken from the book cache, keyed by `build`) and kept in
/// the run, so every generation plays the same ones.
fn openings<G: Registered>(config: &RunConfig, dir: &RunDir, rules: &G::Rules, build: &str) -> Result<OpeningBook> {
    let path = dir.openings_path();
    if path.exists() {
        let book = OpeningBook::load(&path)?;
        book.validate::<G>(rules)?;
        return Ok(book);
    }
    let request = BookRequest::new(config.run.eval_openings, config.run.seed);
    let book = crate::book::evaluation_book::<G>(rules, request, build, &|line| say(format!("zero run: {line}")));
    book.save(&path)?;
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::session_seed;

    #[test]
    fn the_selfplay_seed_changes_the_runs_selfplay_and_its_default_keeps_the_old_seeds() {
        // Before `[selfplay] seed` was read, a session's seed was derive_seed(run.seed, g << 32 | have).
        let old = |run: u64, g: u32, have: u64| zero_selfplay::derive_seed(run, ((g as u64) << 32) | have);
        assert_eq!(session_seed(1, 1, 0, 0), old(1, 0, 0));
        assert_eq!(session_seed(7, 1, 3, 120), old(7, 3, 120));
        let seeds: std::collections::BTreeSet<u64> = [
            session_seed(1, 1, 2, 0),
            session_seed(1, 2, 2, 0),
            session_seed(1, 3, 2, 0),
            session_seed(2, 2, 2, 0),
            session_seed(1, 2, 3, 0),
            session_seed(1, 2, 2, 5),
        ]
        .into();
        assert_eq!(
            seeds.len(),
            6,
            "every run seed, self-play seed, generation and resume point differs"
        );
    }
}
