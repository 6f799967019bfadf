//! `zero train --config FILE --data DIR [--from CKPT] --steps N --out CKPT`: trains the config's network on the
//! shards of a data directory and writes a resumable checkpoint (docs/train.md).

use crate::config::RunConfig;
use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use zero_data::{ReplayIndex, ShardSet};
use zero_games::Game;
use zero_games::registry::{GameVisitor, dispatch};
use zero_model::DeviceChoice;
use zero_model::network::NetShape;
use zero_train::{MetricsLog, TrainConfig, Trainer, shard_spec};

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Run config: game, rules, `[network]` and `[train]`.
    #[arg(long)]
    pub config: PathBuf,
    /// Directory of self-play shards.
    #[arg(long)]
    pub data: PathBuf,
    /// Checkpoint to continue from (exactly, when its `.train.safetensors` lies beside it); a fresh network
    /// initialised with `train.seed` without it.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Optimizer steps to take.
    #[arg(long)]
    pub steps: u64,
    /// Checkpoint to write (`NAME.safetensors`; the optimizer state goes to `NAME.train.safetensors`).
    #[arg(long)]
    pub out: PathBuf,
    /// Per-step metrics, appended as JSON lines (default: `NAME.metrics.jsonl` beside the output).
    #[arg(long)]
    pub metrics: Option<PathBuf>,
    /// Device, overriding `train.device`: auto, cpu, cuda or cuda:N.
    #[arg(long)]
    pub device: Option<String>,
}

/// The window over the readable shards of `dir`; each refused shard is reported on stderr and left out.
pub fn open_window<G: Game>(dir: &Path, rules: &G::Rules, train: &TrainConfig) -> Result<ReplayIndex> {
    let set = ShardSet::scan(dir).with_context(|| format!("reading the data directory {}", dir.display()))?;
    let (index, errors) = ReplayIndex::build(&set, &train.window_rule(), Some(&shard_spec::<G>(rules)));
    for e in &errors {
        eprintln!("zero: skipping shard: {e}");
    }
    if index.slices().is_empty() {
        bail!(
            "{}: no shards to train on ({} complete shard(s) found, {} refused)",
            dir.display(),
            set.len(),
            errors.len()
        );
    }
    Ok(index)
}

/// Refuses a data path whose estimated memory exceeds `train.memory_cap_mib`.
pub fn check_memory<G: Game>(train: &TrainConfig) -> Result<u64> {
    let shape = NetShape::of::<G>();
    let bytes = train.data_memory_bytes((shape.planes * shape.squares()) as usize, G::ACTION_SPACE);
    let mib = bytes.div_ceil(1 << 20);
    if mib > train.memory_cap_mib as u64 {
        bail!(
            "the data path needs about {mib} MiB (shuffle buffer {} rows, {} prefetched batches of {}), over \
             train.memory_cap_mib = {}: lower train.shuffle_buffer or raise the cap",
            train.shuffle_buffer,
            train.prefetch_batches,
            train.batch_size,
            train.memory_cap_mib
        );
    }
    Ok(mib)
}

struct TrainRun {
    args: TrainArgs,
    config: RunConfig,
}

impl GameVisitor for TrainRun {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        let TrainRun { args, config } = self;
        let train = config.train.clone();
        let device_text = args.device.clone().unwrap_or_else(|| train.device.clone());
        let device = device_text.parse::<DeviceChoice>()?.resolve()?;
        tch::set_num_threads(train.threads);
        let rules = G::parse_rules(config.variant.as_deref(), &config.rules)?;
        let memory = check_memory::<G>(&train)?;
        let index = open_window::<G>(&args.data, &rules, &train)?;
        let mut trainer = match &args.from {
            Some(from) => Trainer::<G>::resume(train.clone(), &config.network, rules, device, from)?,
            None => Trainer::<G>::new(train.clone(), &config.network, rules, device)?,
        };
        eprintln!(
            "zero train: {} on {}: window {} of {} positions in {} shard(s); data path about {memory} MiB; \
             from step {}",
            G::NAME,
            zero_model::device::device_name(device),
            index.window_positions(),
            index.total_positions(),
            index.slices().len(),
            trainer.step()
        );
        let metrics_path = args.metrics.clone().unwrap_or_else(|| {
            let name = args
                .out
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let stem = name.strip_suffix(".safetensors").unwrap_or(&name).to_string();
            args.out.with_file_name(format!("{stem}.metrics.jsonl"))
        });
        let mut log = MetricsLog::append(&metrics_path)
            .with_context(|| format!("opening the metrics file {}", metrics_path.display()))?;
        let bar = ProgressBar::new(args.steps);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} steps {elapsed_precise} eta {eta} {msg}")
                .expect("valid template"),
        );
        let mut log_error = None;
        trainer.train_steps(&index, args.steps, |m| {
            for shard in &m.skipped_shards {
                bar.suspend(|| eprintln!("zero: skipping shard: {shard}"));
            }
            if let Err(e) = log.write(m)
                && log_error.is_none()
            {
                log_error = Some(e);
            }
            bar.set_message(format!(
                "loss {:.3} (policy {:.3} value {:.3}) lr {:.2e} {:.0} samples/s",
                m.loss, m.policy_loss, m.value_loss, m.lr, m.samples_per_sec
            ));
            bar.inc(1);
        })?;
        bar.finish();
        log.flush()?;
        if let Some(e) = log_error {
            return Err(e).with_context(|| format!("writing {}", metrics_path.display()));
        }
        trainer.save(&args.out)?;
        eprintln!(
            "zero train: step {}; wrote {} and its train state; metrics in {}",
            trainer.step(),
            args.out.display(),
            metrics_path.display()
        );
        Ok(())
    }
}

pub fn run(args: TrainArgs) -> Result<()> {
    let config = RunConfig::load(&args.config)?;
    let game = config.game.clone();
    dispatch(&game, TrainRun { args, config })?
}
