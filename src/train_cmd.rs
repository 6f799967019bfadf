//! `zero train --config FILE --data DIR [--from CKPT] --steps N --out CKPT`: trains the config's network on the
//! shards of a data directory and writes a resumable checkpoint (docs/train.md).

use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use zero_games::{Encoding, with_game};
use zero_model::DeviceChoice;
use zero_run::RunConfig;
use zero_run::training::{check_memory, open_window};
use zero_train::{MetricsLog, Trainer};

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

/// Trains the config's network for `--steps` steps and writes `--out`.
fn train<G: Encoding>(args: &TrainArgs, config: &RunConfig) -> Result<()> {
    let train = config.train.clone();
    let device_text = args.device.clone().unwrap_or_else(|| train.device.clone());
    let device = device_text.parse::<DeviceChoice>()?.resolve()?;
    tch::set_num_threads(train.threads);
    let rules = config.rules_of::<G>()?;
    let memory = check_memory::<G>(&train)?;
    let index = open_window::<G>(&args.data, &rules, &train, &mut zero_data::FooterCache::default())?;
    let mut trainer = match &args.from {
        Some(from) => Trainer::<G>::resume(train.clone(), &config.network, rules, device, from)?,
        None => Trainer::<G>::new(train.clone(), &config.network, rules, device)?,
    };
    tracing::info!(
        "zero train: {} on {}: window {} of {} positions in {} shard(s); data path about {memory} MiB; \
             from step {}",
        G::NAME,
        zero_model::device::device_name(device),
        index.window_positions(),
        index.total_positions(),
        index.slices().len(),
        trainer.step()
    );
    let metrics_path = args.metrics.clone().unwrap_or_else(|| default_metrics_path(&args.out));
    let mut log = MetricsLog::append(&metrics_path)
        .with_context(|| format!("opening the metrics file {}", metrics_path.display()))?;
    let bar = zero_run::progress::bar(
        args.steps,
        "training {bar:30} {pos}/{len} steps {elapsed_precise} eta {eta} {msg}",
    );
    let mut log_error = None;
    trainer.train_steps(&index, args.steps, |m| {
        for shard in &m.skipped_shards {
            tracing::warn!("skipping shard: {shard}");
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
    tracing::info!(
        "zero train: step {}; wrote {} and its train state; metrics in {}",
        trainer.step(),
        args.out.display(),
        metrics_path.display()
    );
    Ok(())
}

/// `NAME.metrics.jsonl` beside the checkpoint `NAME.safetensors`.
fn default_metrics_path(out: &std::path::Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".safetensors").unwrap_or(&name).to_string();
    out.with_file_name(format!("{stem}.metrics.jsonl"))
}

pub fn run(args: TrainArgs) -> Result<()> {
    let config = RunConfig::load(&args.config)?;
    with_game!(config.game, G => train::<G>(&args, &config))
}
