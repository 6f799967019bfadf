//! `zero bench selfplay --config FILE [--model CKPT] [--seconds S]`: the self-play loop of the config with a
//! freshly initialised network of its architecture (or a checkpoint), on the CPU. Reports simulations and
//! network evaluations per second and the mean batch, then times the bare evaluator on batches of that mean size
//! in the same run: the ratio is the search's efficiency (how much of the network's speed the loop keeps).
//! Finally it measures the tree arena of one search of 1000 simulations (memory per game in flight).

use super::nn::{requests_of, sample_positions, timed};
use anyhow::Result;
use clap::Args;
use rand::SeedableRng;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tch::nn;
use zero_games::{Encoding, Registered, with_game};
use zero_model::network::NetShape;
use zero_model::{NetworkEvaluator, PolicyValueNet, Precision};
use zero_run::RunConfig;
use zero_run::play::{AnyEvaluator, make_evaluator};
use zero_search::{CachedEvaluator, Evaluator, GameSearch, Node, SearchConfig, search_blocking};
use zero_selfplay::{Progress, SelfPlayConfig, Worker};

#[derive(Args, Debug)]
pub struct SelfPlayBenchArgs {
    /// Run config: game, rules, `[network]` and `[selfplay]`.
    #[arg(long)]
    pub config: PathBuf,
    /// A checkpoint instead of a fresh network; `uniform` for the rollout evaluator.
    #[arg(long)]
    pub model: Option<zero_run::play::SelfPlayModel>,
    /// Seconds of self-play.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Worker threads (default: the config's).
    #[arg(long)]
    pub workers: Option<usize>,
    /// The network's number format: auto, f32 or bf16 (default: the config's `selfplay.precision`).
    #[arg(long)]
    pub precision: Option<Precision>,
}

fn evaluator_for<G: Encoding>(args: &SelfPlayBenchArgs, config: &RunConfig, w: usize) -> AnyEvaluator<G> {
    match &args.model {
        Some(model) => make_evaluator::<G>(model, &config.selfplay, w).unwrap_or_else(|e| panic!("{e}")),
        None => {
            let vs = nn::VarStore::new(tch::Device::Cpu);
            let net = PolicyValueNet::new(&vs.root(), &config.network, NetShape::of::<G>());
            let evaluator = NetworkEvaluator::new(vs, net, "fresh").with_precision(config.selfplay.precision);
            AnyEvaluator::Network(CachedEvaluator::new(evaluator, config.selfplay.eval_cache))
        }
    }
}

/// Runs the self-play workers for the bench's seconds; returns worker 0's evaluator (its network warmed up).
fn run_workers<G: Registered>(
    args: &SelfPlayBenchArgs,
    config: &RunConfig,
    sp: &SelfPlayConfig,
    rules: &G::Rules,
    progress: &Progress,
) -> AnyEvaluator<G> {
    let start = Instant::now();
    let deadline = Duration::from_secs_f64(args.seconds);
    let stop = || start.elapsed() >= deadline;
    let mut first_evaluator = None;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..sp.workers)
            .map(|w| {
                let (rules, stop) = (rules.clone(), &stop);
                scope.spawn(move || {
                    tch::set_num_threads(1);
                    let evaluator = evaluator_for::<G>(args, config, w);
                    let mut worker = Worker::<G, _>::new(sp, rules, evaluator, Some(progress));
                    let games = (w..).step_by(sp.workers);
                    worker.play(games, |_| true, stop).expect("self-play runs");
                    worker
                })
            })
            .collect();
        for (w, h) in handles.into_iter().enumerate() {
            let mut worker = h.join().expect("worker thread");
            if w == 0 {
                let fresh = evaluator_for::<G>(args, config, 0);
                first_evaluator = Some(std::mem::replace(worker.evaluator(), fresh));
            }
        }
    });
    first_evaluator.expect("worker 0 ran")
}

fn bench<G: Registered>(args: &SelfPlayBenchArgs, mut config: RunConfig) -> Result<()> {
    if let Some(precision) = args.precision {
        config.selfplay.precision = precision;
    }
    let rules = config.rules_of::<G>()?;
    let mut sp: SelfPlayConfig = config.selfplay.clone();
    if let Some(w) = args.workers {
        sp.workers = w.max(1);
    }
    let progress = Progress::default();
    let start = Instant::now();
    let mut evaluator = run_workers::<G>(args, &config, &sp, &rules, &progress);
    let secs = start.elapsed().as_secs_f64();
    let sims = Progress::get(&progress.simulations) as f64 / secs;
    let evals = Progress::get(&progress.evaluations) as f64 / secs;
    let batch = progress.mean_batch();
    println!(
        "{} {} root, {} simulations (cheap {}, full share {}), {} games in flight x {} leaves, {} worker(s), \
         precision {}, {:.1} s",
        G::NAME,
        sp.search.root,
        sp.search.simulations,
        sp.cheap_simulations,
        sp.full_search_prob,
        sp.games_in_flight,
        sp.leaves_per_game,
        sp.workers,
        sp.precision,
        secs
    );
    println!(
        "self-play: {sims:.0} simulations/s, {evals:.0} evaluations/s, mean batch {batch:.1}, {} games finished, {:.0} positions/s",
        Progress::get(&progress.games),
        Progress::get(&progress.positions) as f64 / secs
    );
    // The bare evaluator on batches of the same size, in this process, one thread.
    tch::set_num_threads(1);
    let size = batch.round().max(1.0) as usize;
    let positions = sample_positions::<G>(&rules, size);
    let requests = requests_of(&positions);
    // Past the evaluation cache: through it the same batch again would be all hits, not the network's speed.
    let bare_evaluator: &mut dyn Evaluator<G> = match &mut evaluator {
        AnyEvaluator::Network(cached) => cached.inner_mut(),
        rollout => rollout,
    };
    let per_batch = timed(2.0, || {
        std::hint::black_box(bare_evaluator.evaluate(&requests));
    });
    let bare = size as f64 / per_batch;
    let per_worker = evals / sp.workers as f64;
    println!(
        "bare evaluator at batch {size}: {bare:.0} evaluations/s; efficiency (self-play evals/s per worker / bare) = {:.2}",
        per_worker / bare
    );
    tree_memory::<G>(&rules, &sp.search, &mut evaluator);
    Ok(())
}

/// Tree memory of one 1000-simulation search, at the start and after 20 random actions.
fn tree_memory<G: Encoding>(rules: &G::Rules, search_config: &SearchConfig, evaluator: &mut AnyEvaluator<G>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let cfg = SearchConfig {
        simulations: 1000,
        ..search_config.clone()
    };
    for (label, skip) in [("start", 0usize), ("after 20 random actions", 20)] {
        let mut game = G::start(rules);
        let mut check = zero_games::checks::CheckRng::new(3);
        let mut legal = zero_games::ActionList::new();
        for _ in 0..skip {
            game.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            game.apply_action(legal[check.below(legal.len())]);
        }
        if game.outcome().is_some() {
            continue;
        }
        let mut search = GameSearch::new(game, cfg.root);
        search_blocking(&mut search, evaluator, &cfg, 1000, true, &mut rng);
        let tree = search.tree();
        println!(
            "tree at 1000 simulations ({label}): {} nodes x {} B = {:.2} MiB arena ({:.2} MiB allocated)",
            tree.len(),
            std::mem::size_of::<Node>(),
            (tree.len() * std::mem::size_of::<Node>()) as f64 / (1 << 20) as f64,
            tree.arena_bytes() as f64 / (1 << 20) as f64
        );
    }
}

pub fn run(args: SelfPlayBenchArgs) -> Result<()> {
    let config = RunConfig::load(&args.config)?;
    with_game!(config.game, G => bench::<G>(&args, config.clone()))
}
