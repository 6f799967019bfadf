//! Training of zero's policy/value networks from self-play shards.
//!
//! A [`Trainer`] holds a network, its optimizer and a step counter. [`Trainer::train_steps`] reads a replay
//! window ([`zero_data::ReplayIndex`]) through a loader thread that streams, shuffles, augments
//! ([`augment`]) and batches samples ahead of the optimizer ([`loader`]), and takes optimizer steps on the loss
//! of [`loss`] (policy cross-entropy, win/draw/loss cross-entropy, optional moves-left Huber) with SGD-momentum
//! or AdamW ([`optimizer`], implemented here so that their state can be saved) under a warm-up-then-decay
//! learning-rate schedule ([`schedule`]) and global-norm gradient clipping. [`Trainer::save`] writes the network
//! checkpoint and a train-state file ([`state`]); [`Trainer::resume`] continues exactly as if training had not
//! stopped, because the data order and augmentation are functions of (seed, step). Metrics of every step go to
//! a callback ([`metrics`]). See docs/train.md.

pub mod augment;
pub mod batch;
pub mod config;
pub mod loader;
pub mod loss;
pub mod metrics;
pub mod optimizer;
pub mod schedule;
pub mod state;
pub mod trainer;

use std::path::{Path, PathBuf};

pub use config::{DecayKind, OptimizerKind, TrainConfig, WindowKind};
pub use metrics::{MetricsLog, StepMetrics};
pub use schedule::LrSchedule;
pub use trainer::{Trainer, shard_spec};

/// What can stop training.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("{0}")]
    Config(String),
    #[error(transparent)]
    Checkpoint(#[from] zero_model::CheckpointError),
    #[error("train state {path}: {reason}")]
    State { path: PathBuf, reason: String },
    #[error("training data: {0}")]
    Data(#[from] zero_data::DataError),
    #[error("{0}: no readable shards to train on")]
    NoData(PathBuf),
    #[error("the loader thread stopped before the last batch")]
    LoaderStopped,
    /// Training diverged: nothing of it was applied or saved.
    #[error(
        "training diverged at step {step}: {what}; the network was left as it was before that step and not saved \
         (try a lower train.learning_rate or a smaller train.grad_clip_norm)"
    )]
    Diverged { step: u64, what: String },
}

impl TrainError {
    pub fn state(path: &Path, reason: impl Into<String>) -> Self {
        TrainError::State {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}
