//! Per-step metrics: what [`crate::Trainer::train_steps`] reports after each step, and a JSONL writer for them
//! (one JSON object per line; the columns are documented in docs/train.md).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use serde::Serialize;

/// One optimizer step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepMetrics {
    /// Steps taken after this one (1 for the first step of a fresh network).
    pub step: u64,
    /// Learning rate of this step.
    pub lr: f64,
    /// Weighted sum of the terms.
    pub loss: f64,
    pub policy_loss: f64,
    pub value_loss: f64,
    /// Absent when the network has no moves-left head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_left_loss: Option<f64>,
    /// The short-horizon value's mean squared error; absent when the network has no such head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_value_loss: Option<f64>,
    /// The score's mean squared error; absent when the network has no score head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_loss: Option<f64>,
    /// Global L2 norm of the gradient before clipping.
    pub grad_norm: f64,
    /// Batch size divided by the wall time since the previous step ended (data wait included).
    pub samples_per_sec: f64,
    /// Mixed precision only: the step was skipped because the gradient overflowed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub skipped_overflow: bool,
    /// Shards that failed while this step's batch was drawn (each reported once, then left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_shards: Vec<String>,
}

/// Appends metrics to a JSONL file.
pub struct MetricsLog {
    out: BufWriter<File>,
}

impl MetricsLog {
    /// Opens `path` for appending (created if missing), so that a resumed run continues the same file.
    pub fn append(path: &Path) -> std::io::Result<Self> {
        let file = File::options().create(true).append(true).open(path)?;
        Ok(MetricsLog {
            out: BufWriter::new(file),
        })
    }

    pub fn write(&mut self, metrics: &StepMetrics) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, metrics)?;
        self.out.write_all(b"\n")
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
