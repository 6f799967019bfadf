//! `zero bench train --config FILE [--data DIR]`: samples per second of real training steps fed from shards on
//! disk (synthetic ones written to a temporary directory unless `--data` is given), beside a bare loop of the same
//! steps (forward, backward, clipping, optimizer) on one batch held in memory, measured in the same run: their
//! ratio says whether the data path keeps up. Also the data path's memory estimate and the process's peak memory.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use zero_data::ReplayIndex;
use zero_data::{GameRecord, PositionRecord, ShardHeader, ShardWriter};
use zero_games::checks::CheckRng;
use zero_games::{Encoding, with_game};
use zero_model::DeviceChoice;
use zero_model::network::NetShape;
use zero_run::RunConfig;
use zero_run::training::{check_memory, open_window};
use zero_train::augment::Augmenter;
use zero_train::batch::{BatchTensors, HostBatch};
use zero_train::{TrainConfig, Trainer, shard_spec};

#[derive(Args, Debug)]
pub struct TrainBenchArgs {
    /// Run config whose game, `[network]` and `[train]` are measured.
    #[arg(long)]
    pub config: PathBuf,
    /// Shards to read; without it, `--positions` synthetic positions are written to a temporary directory.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Synthetic positions to write when no `--data` is given.
    #[arg(long, default_value_t = 20_000)]
    pub positions: usize,
    /// Steps per measurement.
    #[arg(long, default_value_t = 100)]
    pub steps: u64,
    /// Intra-op threads, overriding `train.threads`.
    #[arg(long)]
    pub threads: Option<i32>,
    /// Device, overriding `train.device`.
    #[arg(long)]
    pub device: Option<String>,
}

/// Synthetic rows shaped like real ones: sparse planes (a few pieces, one constant plane), about a dozen legal
/// actions, a policy on three rows of four, games of 80 positions.
fn write_synthetic<G: Encoding>(dir: &std::path::Path, header: &ShardHeader, positions: usize) -> Result<()> {
    let mut rng = CheckRng::new(7);
    let input_len = header.input_len();
    let cells = G::BOARD_HEIGHT * G::BOARD_WIDTH;
    let per_shard = 50_000;
    let mut written = 0;
    for shard in 0..positions.div_ceil(per_shard) {
        let mut writer = ShardWriter::create(dir, &format!("synthetic-{shard:04}"), header.clone())?;
        let in_shard = per_shard.min(positions - written);
        let mut g = 0;
        while writer.positions() < in_shard {
            let len = 80.min(in_shard - writer.positions());
            let id = format!("s{shard}-g{g}");
            let rows: Vec<PositionRecord> = (0..len)
                .map(|i| {
                    let mut input = vec![0u8; input_len];
                    for _ in 0..12 {
                        input[rng.below(input_len.min(4 * cells))] = 255;
                    }
                    input[input_len - cells..].fill(255);
                    let legal: Vec<u16> = (0..12).map(|_| rng.below(G::ACTION_SPACE) as u16).collect();
                    let full = i % 4 != 3;
                    PositionRecord {
                        game_id: id.clone(),
                        ply: i as u32,
                        step: i as u32,
                        side_to_move: (i % 2) as u8,
                        position: String::new(),
                        input,
                        policy_actions: if full { legal[..4].to_vec() } else { vec![] },
                        policy_probs: if full { vec![0.4, 0.3, 0.2, 0.1] } else { vec![] },
                        legal_actions: legal,
                        root_value: 0.0,
                        result: [1.0, 0.0, -1.0][rng.below(3)],
                        plies_to_end: (len - i) as u32,
                        full_search: full,
                        simulations: 100,
                        short_value: 0.0,
                        score: 0.0,
                    }
                })
                .collect();
            let record = GameRecord {
                game_id: id.clone(),
                start_position: "start".into(),
                moves: vec![],
                winner: None,
                reason: "synthetic".into(),
                plies: len as u32,
                resigned_false_check: false,
            };
            writer.add_game(&record, &rows)?;
            g += 1;
        }
        written += writer.positions();
        writer.finish()?;
    }
    Ok(())
}

/// The shards to read: `--data`, or synthetic ones written into `temporary`.
fn training_data<G: Encoding>(args: &TrainBenchArgs, rules: &G::Rules, temporary: &std::path::Path) -> Result<PathBuf> {
    if let Some(d) = &args.data {
        return Ok(d.clone());
    }
    let header = shard_spec::<G>(rules).header("bench", 0, "bench");
    let start = Instant::now();
    write_synthetic::<G>(temporary, &header, args.positions)?;
    println!(
        "wrote {} synthetic positions in {:.1} s",
        args.positions,
        start.elapsed().as_secs_f64()
    );
    Ok(temporary.to_path_buf())
}

/// One batch of the window, on the device, for the bare loop.
fn one_batch<G: Encoding>(index: &ReplayIndex, train: &TrainConfig, device: tch::Device) -> Result<BatchTensors> {
    let samples = {
        let replay = zero_data::ReplayConfig {
            shuffle_buffer: train.batch_size,
            ..train.replay()
        };
        zero_data::SampleStream::new(index, &replay)
            .draw(train.batch_size)?
            .samples
    };
    let shape = NetShape::of::<G>();
    let augmenter = Augmenter::new::<G>(false);
    Ok(
        HostBatch::build(&samples, &vec![0; samples.len()], &augmenter, G::ACTION_SPACE)
            .to_tensors([shape.planes, shape.height, shape.width], device),
    )
}

fn bench<G: Encoding>(args: &TrainBenchArgs, config: &RunConfig) -> Result<()> {
    let mut train = config.train.clone();
    if let Some(t) = args.threads {
        train.threads = t;
    }
    if let Some(d) = &args.device {
        train.device = d.clone();
    }
    let device = train.device.parse::<DeviceChoice>()?.resolve()?;
    tch::set_num_threads(train.threads);
    let rules = config.rules_of::<G>()?;
    let memory = check_memory::<G>(&train)?;
    let temporary = tempfile::tempdir()?;
    let data = training_data::<G>(args, &rules, temporary.path())?;
    let index = open_window::<G>(&data, &rules, &train, &mut zero_data::FooterCache::default())?;
    let batch_size = train.batch_size;
    println!(
        "{}: network {:?}; batch {batch_size}, {} thread(s), {}; window {} positions; shuffle buffer {} rows; \
         augmentation {}",
        G::NAME,
        config.network,
        train.threads,
        zero_model::device::device_name(device),
        index.window_positions(),
        train.shuffle_buffer,
        Augmenter::new::<G>(train.augment).symmetries()
    );

    // Bare loop: the same trainer's steps on one batch held on the device.
    let mut bare = Trainer::<G>::new(train.clone(), &config.network, rules.clone(), device)?;
    let batch = one_batch::<G>(&index, &train, device)?;
    let mut bare_rate = |steps: u64| -> Result<f64, zero_train::TrainError> {
        let start = Instant::now();
        for _ in 0..steps {
            bare.train_batch(&batch)?;
        }
        Ok((steps as usize * batch_size) as f64 / start.elapsed().as_secs_f64())
    };
    bare_rate(5)?;

    // Real steps: loader thread, shards on disk, augmentation; the first steps (buffer fill) are not timed.
    let mut real = Trainer::<G>::new(train.clone(), &config.network, rules, device)?;
    let mut real_rate = |steps: u64| -> Result<f64> {
        const UNTIMED: u64 = 5;
        let mut start = Instant::now();
        let mut seen = 0;
        real.train_steps(&index, steps + UNTIMED, |_| {
            seen += 1;
            if seen == UNTIMED {
                start = Instant::now();
            }
        })?;
        let secs = start.elapsed().as_secs_f64();
        let timed = (seen - UNTIMED) as usize;
        Ok((timed * batch_size) as f64 / secs)
    };
    // Alternate the two, so that a neighbour's load on the shared machine hits both alike.
    let (mut bare_total, mut real_total) = (0.0, 0.0);
    for round in 0..2 {
        let b = bare_rate(args.steps)?;
        let r = real_rate(args.steps)?;
        println!("round {round}: bare loop {b:.0} samples/s, from shards {r:.0} samples/s");
        bare_total += b;
        real_total += r;
    }
    println!(
        "from shards: {:.0} samples/s; bare loop: {:.0} samples/s; ratio {:.3}",
        real_total / 2.0,
        bare_total / 2.0,
        real_total / bare_total
    );
    println!("data path memory estimate: {memory} MiB");
    if let Some(mib) = crate::bench::nn::peak_rss_mib() {
        println!("peak resident memory of this process: {mib:.0} MiB");
    }
    Ok(())
}

pub fn run(args: TrainBenchArgs) -> Result<()> {
    let config = RunConfig::load(&args.config)?;
    with_game!(config.game, G => bench::<G>(&args, &config))
}
