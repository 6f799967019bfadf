//! `zero bench nn --config FILE`: the network of a run config at batch sizes 1 to 512: evaluations per second,
//! floating-point operations per evaluation, achieved GFLOP/s beside the machine's own matrix-multiply ceiling
//! (a large float32 matmul through libtorch, measured in the same run with the same threads), the cost of
//! encoding a position, and the process's peak memory after the largest batch; each in every number format asked
//! for (f32 and bf16 by default), with how far bf16's priors and values are from f32's.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tch::{Device, Kind, Tensor, nn};
use zero_games::checks::CheckRng;
use zero_games::encode_batch;
use zero_games::{ActionList, Encoding, with_game};
use zero_model::encode::batch_tensor;
use zero_model::network::NetShape;
use zero_model::{DeviceChoice, NetworkEvaluator, PolicyValueNet, Precision};
use zero_run::RunConfig;
use zero_search::{EvalRequest, Evaluation, Evaluator};

#[derive(Args, Debug)]
pub struct NnBenchArgs {
    /// Run config whose game and `[network]` are measured.
    #[arg(long)]
    pub config: PathBuf,
    /// auto, cpu, cuda or cuda:N.
    #[arg(long, default_value = "auto")]
    pub device: String,
    /// Intra-op threads of libtorch for this measurement.
    #[arg(long, default_value_t = 1)]
    pub threads: i32,
    /// Seconds per batch size.
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    /// Batch sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,8,32,128,512")]
    pub batches: Vec<usize>,
    /// Number formats to measure, each at every batch size (auto, f32, bf16), and compare with the first.
    #[arg(long, value_delimiter = ',', default_value = "f32,bf16")]
    pub precisions: Vec<Precision>,
}

/// Positions from random games, a few from each ply, so that the batch looks like a search's.
pub(crate) fn sample_positions<G: Encoding>(rules: &G::Rules, count: usize) -> Vec<(G, ActionList)> {
    let mut rng = CheckRng::new(12345);
    let mut out = Vec::with_capacity(count);
    let mut legal = ActionList::new();
    while out.len() < count {
        let mut game = G::start(rules);
        loop {
            game.legal_actions(&mut legal);
            if legal.is_empty() || out.len() >= count {
                break;
            }
            out.push((game.clone(), legal.clone()));
            let a = legal[rng.below(legal.len())];
            game.apply_action(a);
        }
    }
    out
}

/// The evaluator's requests for sampled positions.
pub(crate) fn requests_of<G: Encoding>(positions: &[(G, ActionList)]) -> Vec<EvalRequest<'_, G>> {
    positions
        .iter()
        .map(|(g, legal)| EvalRequest {
            game: g,
            legal: legal.as_slice(),
        })
        .collect()
}

pub(crate) fn timed(seconds: f64, mut work: impl FnMut()) -> f64 {
    work(); // warm-up
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < Duration::from_secs_f64(seconds) || runs < 2 {
        work();
        runs += 1;
    }
    start.elapsed().as_secs_f64() / runs as f64
}

pub(crate) fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// GFLOP/s of a square float32 matmul of size n on the device: the ceiling for the network.
fn matmul_gflops(device: Device, seconds: f64) -> f64 {
    let n = 1024;
    let a = Tensor::randn([n, n], (Kind::Float, device));
    let b = Tensor::randn([n, n], (Kind::Float, device));
    let secs = timed(seconds, || {
        let c = a.matmul(&b);
        if device.is_cuda() {
            tch::Cuda::synchronize(0);
        }
        let _ = std::hint::black_box(c);
    });
    2.0 * (n as f64).powi(3) / secs / 1e9
}

fn bench<G: Encoding>(args: &NnBenchArgs, config: &RunConfig, device: Device) -> Result<()> {
    tch::set_num_threads(args.threads);
    let rules = config.rules_of::<G>()?;
    let shape = NetShape::of::<G>();
    let flops = config.network.flops_per_eval(shape);
    let vs = nn::VarStore::new(device);
    let net = PolicyValueNet::new(&vs.root(), &config.network, shape);
    let mut evaluator = NetworkEvaluator::<G>::new(vs, net, "bench");
    let max_batch = args.batches.iter().copied().max().unwrap_or(1);
    let positions = sample_positions::<G>(&rules, max_batch);

    let mut buffer = Vec::new();
    let encode_secs = timed(args.seconds.min(1.0), || {
        encode_batch(positions.iter().map(|(g, _)| g), &mut buffer)
    });
    let _ = batch_tensor::<G>(&buffer);
    let ceiling = matmul_gflops(device, args.seconds.min(2.0));
    println!(
        "{} network {:?}: {:.2} MFLOP per evaluation; device {}, {} thread(s)",
        G::NAME,
        config.network,
        flops as f64 / 1e6,
        zero_model::device::device_name(device),
        args.threads
    );
    println!(
        "encoding: {:.2} us per position; matmul ceiling: {:.1} GFLOP/s",
        encode_secs / positions.len() as f64 * 1e6,
        ceiling
    );
    println!(
        "{:>9} {:>6} {:>12} {:>10} {:>10} {:>12}",
        "precision", "batch", "evals/s", "ms/batch", "GFLOP/s", "of ceiling"
    );
    let requests = requests_of(&positions);
    let mut reference: Option<(Precision, Vec<Evaluation>)> = None;
    let mut differences = Vec::new();
    for &precision in &args.precisions {
        evaluator = evaluator.with_precision(precision);
        let label = match precision {
            Precision::Auto if evaluator.kind() == Kind::BFloat16 => "auto=bf16".to_string(),
            Precision::Auto => "auto=f32".to_string(),
            other => other.to_string(),
        };
        for &batch in &args.batches {
            let batch = batch.min(requests.len());
            let secs = timed(args.seconds, || {
                std::hint::black_box(evaluator.evaluate(&requests[..batch]));
            });
            let gflops = batch as f64 * flops as f64 / secs / 1e9;
            println!(
                "{:>9} {:>6} {:>12.0} {:>10.2} {:>10.1} {:>11.0}%",
                label,
                batch,
                batch as f64 / secs,
                secs * 1e3,
                gflops,
                100.0 * gflops / ceiling
            );
        }
        // How far this format's judgements are from the first format's, over every sampled position.
        let evaluations = evaluator.evaluate(&requests);
        match &reference {
            None => reference = Some((precision, evaluations)),
            Some((first, expected)) => differences.push(difference(precision, *first, expected, &evaluations)),
        }
    }
    for line in differences {
        println!("{line}");
    }
    if let Some(mib) = peak_rss_mib() {
        println!("peak resident memory of this process: {mib:.0} MiB");
    }
    Ok(())
}

/// The largest prior and value differences between two formats' evaluations of the same positions, in words.
fn difference(precision: Precision, first: Precision, expected: &[Evaluation], got: &[Evaluation]) -> String {
    let (mut prior, mut value) = (0f32, 0f32);
    for (a, b) in expected.iter().zip(got) {
        value = value.max((a.value - b.value).abs());
        for (p, q) in a.priors.iter().zip(&b.priors) {
            prior = prior.max((p - q).abs());
        }
    }
    format!(
        "{precision} vs {first} over {} positions: largest prior difference {prior:.4}, largest value difference \
         {value:.4}",
        expected.len()
    )
}

pub fn run(args: NnBenchArgs) -> Result<()> {
    let config = RunConfig::load(&args.config)?;
    let device = args.device.parse::<DeviceChoice>()?.resolve()?;
    with_game!(config.game, G => bench::<G>(&args, &config, device))
}
