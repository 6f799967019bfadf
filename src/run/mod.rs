//! `zero run [CONFIG] [--run-dir DIR] [--set key=value]...`: zero's main job. A run alternates, generation after
//! generation: self-play with the newest network (generation 0: the search with uniform priors and random
//! playouts), training on the replay window of the run's shards, and evaluation of the new network against the
//! baselines and the previous generation. Everything a run needs to go on is in its directory (see [`dir`]); a
//! run killed at any moment resumes where it stopped when `zero run` is given the same directory.

pub mod dir;
pub mod evaluate;
pub mod gate;

use crate::config::RunConfig;
use crate::report::{self, GenerationSummary, RatingPoint};
use crate::selfplay_cmd::{PlayJob, play_games};
use anyhow::{Context, Result, bail};
use clap::Args;
use dir::{Phase, RunDir, shard_prefix};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use zero_arena::OpeningBook;
use zero_games::Game;
use zero_games::registry::{GameVisitor, dispatch};
use zero_model::DeviceChoice;
use zero_train::Trainer;

/// The config `zero run` uses when none is given: the quick run where learning shows fastest on a small CPU.
pub const DEFAULT_CONFIG: &str = include_str!("../../configs/bashni-quick.toml");
const DEFAULT_CONFIG_NAME: &str = "bashni-quick";

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Run config (TOML). Without one: the embedded quick Bashni config, or, with --run-dir on an existing
    /// run, that run's own config.
    pub config: Option<PathBuf>,
    /// The run directory (default: runs/<config name>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Override a config value, e.g. `--set selfplay.simulations=64` (repeatable). On an existing run only
    /// the keys that may change on resume (run.generations, evaluation and resources) are accepted.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

pub fn run(args: RunArgs) -> Result<()> {
    let Resolved {
        config,
        run_dir,
        record_config,
    } = resolve(&args)?;
    let dir = RunDir::open(&run_dir)?;
    if record_config {
        zero_games::files::write_atomically(&dir.config_path(), config.to_toml().as_bytes())?;
    }
    if !dir.root().join("version.txt").exists() {
        let version = format!(
            "zero {} (git {})\n",
            env!("CARGO_PKG_VERSION"),
            env!("ZERO_GIT_REVISION")
        );
        zero_games::files::write_atomically(&dir.root().join("version.txt"), version.as_bytes())?;
    }
    let game = config.game.clone();
    dispatch(&game, Loop { config, dir })?
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
fn resolve(args: &RunArgs) -> Result<Resolved> {
    let (text, origin, name) = match &args.config {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("reading config {}", path.display()))?,
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
    let recorded = run_dir.join("config.toml");
    if recorded.exists() {
        let existing =
            RunConfig::load(&recorded).with_context(|| format!("the run's recorded config {}", recorded.display()))?;
        // Without a config file, overrides apply to the run's own config.
        let wanted = match &args.config {
            Some(_) => RunConfig::parse_with_overrides(&text, &origin, &args.set)?,
            None => RunConfig::parse_with_overrides(&existing.to_toml(), &recorded.display().to_string(), &args.set)?,
        };
        let changed = existing.differing_keys(&wanted);
        let fixed: Vec<&String> = changed
            .iter()
            .filter(|k| !crate::config::RESUMABLE_KEYS.contains(&k.as_str()))
            .collect();
        if !fixed.is_empty() {
            bail!(
                "{} already holds a run made with a different config ({} differ; a resumed run may change only {}); \
                 resume it with `zero run --run-dir {}`, or choose another --run-dir",
                run_dir.display(),
                fixed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "),
                crate::config::RESUMABLE_KEYS.join(", "),
                run_dir.display()
            );
        }
        if changed.is_empty() {
            eprintln!("zero run: resuming {}", run_dir.display());
        } else {
            eprintln!(
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

struct Loop {
    config: RunConfig,
    dir: RunDir,
}

impl GameVisitor for Loop {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        run_loop::<G>(&self.config, &self.dir)
    }
}

fn run_loop<G: Game>(config: &RunConfig, dir: &RunDir) -> Result<()> {
    let rules = G::parse_rules(config.variant.as_deref(), &config.rules)?;
    let mut state = dir.load_state()?;
    let device = config.train.device.parse::<DeviceChoice>()?.resolve()?;
    let book = openings::<G>(config, dir, &rules)?;
    println!(
        "zero run: {} in {} (generation {} of {}), report: {}",
        G::NAME,
        dir.root().display(),
        state.generation,
        config.run.generations,
        dir.report_dir().join("index.html").display()
    );
    // Runs made before generations were merged (and a merge that failed) still hold finished generations as
    // one-game shards; past the self-play phase, the current generation's self-play is finished too.
    let finished = match state.phase {
        Phase::Selfplay => state.generation.checked_sub(1),
        _ => Some(state.generation),
    };
    if let Some(finished) = finished {
        dir.merge_selfplay_shards(finished)?;
    }
    while state.generation < config.run.generations {
        let g = state.generation;
        let session = Instant::now();
        let base_elapsed = state.elapsed_seconds;

        // Self-play: finish the generation's games (those already in shards count).
        let have = dir.generation_data(g)?.games;
        let wanted = config.run.games_per_generation as u64;
        let mut selfplay_seconds = 0.0;
        let mut stats = None;
        if state.phase == Phase::Selfplay {
            if have < wanted {
                // The newest network, or with gating the last one promoted.
                let network = state.selfplay_network.unwrap_or(g);
                let model = if network == 0 {
                    "uniform".to_string()
                } else {
                    dir.checkpoint(network).display().to_string()
                };
                let mut sp = config.selfplay.clone();
                // A fresh seed for each session, so that a resumed generation does not replay the same games.
                sp.seed = zero_selfplay::derive_seed(config.run.seed, ((g as u64) << 32) | have);
                let job = PlayJob {
                    config: &sp,
                    model: &model,
                    games: (wanted - have) as usize,
                    out: &dir.data_dir(),
                    prefix: format!("{}{:06}", shard_prefix(g), have),
                    // One finished game per shard: a kill never loses a finished game.
                    games_per_shard: 1,
                    run: &dir.name(),
                };
                let (s, secs) = play_games::<G>(&rules, job)?;
                selfplay_seconds = secs;
                stats = Some(s);
            }
            // One shard per finished game kept each game safe; the finished generation needs one file, not hundreds.
            dir.merge_selfplay_shards(g)?;
            state.phase = Phase::Train;
            state.elapsed_seconds = base_elapsed + session.elapsed().as_secs_f64();
            dir.save_state(&state)?;
        }
        let data = dir.generation_data(g)?;
        let positions = data.positions;

        // Training: from the previous network (exactly resumable), on the window over every shard of the run.
        let mut losses = BTreeMap::new();
        let mut steps = 0;
        if state.phase == Phase::Train {
            let mut trainer = if g == 0 {
                Trainer::<G>::new(config.train.clone(), &config.network, rules.clone(), device)?
            } else {
                Trainer::<G>::resume(
                    config.train.clone(),
                    &config.network,
                    rules.clone(),
                    device,
                    &dir.checkpoint(g),
                )?
            };
            trainer.set_generation(g + 1, Some(dir.name()));
            let index = crate::train_cmd::open_window::<G>(&dir.data_dir(), &rules, &config.train)?;
            steps = trainer.config().steps_for_new_positions(positions).max(1);
            let bar = ProgressBar::new(steps);
            bar.set_style(
                ProgressStyle::with_template("training  {bar:30} {pos}/{len} steps, {msg}, ETA {eta}")
                    .expect("template"),
            );
            let mut sums: BTreeMap<String, (f64, u64)> = BTreeMap::new();
            let metrics_path = dir.metrics_path();
            let mut failure = None;
            trainer.train_steps(&index, steps, |m| {
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
                    && let Err(e) = RunDir::append_line(&metrics_path, m)
                {
                    failure = Some(e);
                }
            })?;
            bar.finish_and_clear();
            if let Some(e) = failure {
                return Err(e);
            }
            losses = sums.into_iter().map(|(k, (s, n))| (k, s / n.max(1) as f64)).collect();
            trainer.save(&dir.checkpoint(g + 1))?;
            state.phase = Phase::Evaluate;
            state.elapsed_seconds = base_elapsed + session.elapsed().as_secs_f64();
            dir.save_state(&state)?;
        }

        // Evaluation: the new network against the references and its parent, rated over the run's whole pool.
        let network_name = evaluate::network_name(g + 1);
        let ratings = if config.run.eval_games == 0 {
            Vec::new()
        } else {
            let standings = evaluate::evaluate::<G>(config, dir, &rules, &book, g + 1)?;
            let parent = evaluate::network_name(g);
            standings
                .rows
                .iter()
                // The summary keeps this generation's neighbourhood: the baselines, the network and its parent.
                .filter(|r| r.name == network_name || r.name == parent || !evaluate::is_network_name(&r.name))
                .map(|r| RatingPoint {
                    player: r.name.clone(),
                    elo: r.elo,
                    low: r.elo - r.elo_interval,
                    high: r.elo + r.elo_interval,
                })
                .collect()
        };
        // Gating: the network self-play uses next.
        let mut gate = None;
        let next_selfplay = match state.selfplay_network {
            Some(incumbent) if config.run.gate && incumbent >= 1 => {
                let summary = gate::gate::<G>(config, dir, &rules, &book, g + 1, incumbent)?;
                let promoted = summary.promoted;
                gate = Some(summary);
                if promoted { g + 1 } else { incumbent }
            }
            // Without gating, and for the first network (nothing to gate it against): the newest.
            _ => g + 1,
        };
        // Game statistics come from the shards, so they cover every game of the generation (followers' too, and
        // those of an earlier session); throughput and false resignations only from self-play in this session.
        let summary = GenerationSummary {
            generation: g + 1,
            elapsed_seconds: base_elapsed + session.elapsed().as_secs_f64(),
            games: data.games,
            positions,
            positions_per_second: stats
                .as_ref()
                .filter(|_| selfplay_seconds > 0.0)
                .map(|s| s.positions as f64 / selfplay_seconds),
            mean_game_length: data.per_game(data.plies),
            draw_rate: data.per_game(data.draws),
            resign_rate: data.per_game(data.resignations),
            false_resign_rate: stats
                .as_ref()
                .filter(|s| s.resign_checks > 0)
                .map(|s| s.false_resigns as f64 / s.resign_checks as f64),
            train_steps: steps,
            losses,
            ratings,
            network: network_name.clone(),
            gate,
        };
        RunDir::append_line(&dir.generations_path(), &summary)?;
        print_summary(&summary);
        state.generation = g + 1;
        state.phase = Phase::Selfplay;
        state.selfplay_network = Some(next_selfplay);
        state.elapsed_seconds = base_elapsed + session.elapsed().as_secs_f64();
        dir.save_state(&state)?;
        let report = report::write_report(dir.root())?;
        eprintln!("report: {}", report.html.display());
    }
    let report = report::write_report(dir.root())?;
    println!(
        "zero run: {} generations done; report: {}",
        state.generation,
        report.html.display()
    );
    Ok(())
}

fn print_summary(s: &GenerationSummary) {
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
    let speed = s
        .positions_per_second
        .map_or_else(String::new, |p| format!("{p:.0} positions/s, "));
    println!(
        "generation {:>3}: {} games, {speed}losses {}, Elo {} {} (vs {})",
        s.generation,
        s.games,
        s.losses
            .iter()
            .map(|(k, v)| format!("{k} {v:.3}"))
            .collect::<Vec<_>>()
            .join(" "),
        s.network,
        elo(&s.network),
        others.join(", ")
    );
    if let Some(gate) = &s.gate {
        println!("                {}", gate_line(gate, &s.network));
    }
}

/// A gate's decision in words, for the summary line and the report.
fn gate_line(gate: &gate::GateSummary, network: &str) -> String {
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

/// The run's evaluation openings: generated once and kept, so every generation plays the same ones.
fn openings<G: Game>(config: &RunConfig, dir: &RunDir, rules: &G::Rules) -> Result<OpeningBook> {
    let path = dir.openings_path();
    if path.exists() {
        let book = OpeningBook::load(&path)?;
        book.validate::<G>(rules)?;
        return Ok(book);
    }
    let book = OpeningBook::generate::<G>(rules, config.run.eval_openings, config.run.seed, 2, 6);
    book.save(&path)?;
    Ok(book)
}
