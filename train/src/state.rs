//! The train-state file beside a network checkpoint: `NAME.train.safetensors` holds the optimizer's tensors and,
//! in its header under the key `zero.train`, the JSON [`TrainState`] (step, seed, optimizer updates, loss scale).
//! Written atomically, before the network file, and tied to it by the step.

use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors};
use serde::{Deserialize, Serialize};
use tch::Tensor;

use crate::TrainError;
use crate::config::OptimizerKind;
use zero_model::{RawTensor, serialize_with_metadata};

/// Version of the train-state layout.
pub const TRAIN_STATE_FORMAT: u32 = 1;
const METADATA_KEY: &str = "zero.train";

/// What besides tensors a resume needs. The data order and the augmentation are functions of (seed, step) and
/// the learning rate a function of the step, so no generator state or cursor beyond these is needed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainState {
    pub format: u32,
    /// Optimizer steps taken (equals the network checkpoint's step).
    pub step: u64,
    pub generation: u32,
    /// The seed of data order and augmentation.
    pub seed: u64,
    pub optimizer: OptimizerKind,
    /// Updates the optimizer applied (fewer than `step` when mixed precision skipped overflowing steps).
    pub optimizer_updates: u64,
    /// Mixed precision's loss scale and good steps since it last changed.
    pub loss_scale: Option<(f64, u64)>,
    /// Batch size and chunk length the data order was made with (changing them changes the order after a resume).
    pub batch_size: usize,
    pub chunk_steps: u64,
    /// The learning rate of the last step, for people reading the file.
    pub last_learning_rate: f64,
}

/// `NAME.safetensors` -> `NAME.train.safetensors` (any other name gets `.train.safetensors` appended).
pub fn train_state_path(checkpoint: &Path) -> PathBuf {
    let name = checkpoint
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".safetensors").unwrap_or(&name);
    checkpoint.with_file_name(format!("{stem}.train.safetensors"))
}

/// Writes `state` and `tensors` to `path` atomically.
pub fn save(path: &Path, state: &TrainState, tensors: &[(String, Tensor)]) -> Result<(), TrainError> {
    let raw: Vec<(String, RawTensor)> = tensors
        .iter()
        .map(|(name, t)| (name.clone(), RawTensor::from_tensor(t)))
        .collect();
    let json = serde_json::to_string(state).expect("train state serializes");
    let bytes = serialize_with_metadata(&raw, METADATA_KEY, json).map_err(|e| TrainError::state(path, e))?;
    zero_games::files::write_atomically(path, &bytes).map_err(|e| TrainError::state(path, e.to_string()))
}

/// Reads a train-state file: its state and its tensors (on the CPU).
pub fn load(path: &Path) -> Result<(TrainState, Vec<(String, Tensor)>), TrainError> {
    let bytes = std::fs::read(path).map_err(|e| TrainError::state(path, e.to_string()))?;
    let bad = |reason: String| TrainError::state(path, reason);
    let (_, metadata) = SafeTensors::read_metadata(&bytes).map_err(|e| bad(format!("{e:?}")))?;
    let file = SafeTensors::deserialize(&bytes).map_err(|e| bad(format!("corrupt or truncated: {e:?}")))?;
    let json = metadata
        .metadata()
        .as_ref()
        .and_then(|m| m.get(METADATA_KEY))
        .ok_or_else(|| bad("no zero.train metadata (not a zero train-state file)".into()))?;
    let state: TrainState = serde_json::from_str(json).map_err(|e| bad(format!("metadata: {e}")))?;
    if state.format != TRAIN_STATE_FORMAT {
        return Err(bad(format!(
            "train-state format {} is not {TRAIN_STATE_FORMAT}",
            state.format
        )));
    }
    let mut tensors = Vec::new();
    for (name, view) in file.tensors() {
        if view.dtype() != Dtype::F32 {
            return Err(bad(format!("tensor {name} is {:?}, not F32", view.dtype())));
        }
        let values: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let dims: Vec<i64> = view.shape().iter().map(|&d| d as i64).collect();
        tensors.push((name, Tensor::from_slice(&values).view(dims.as_slice())));
    }
    Ok((state, tensors))
}
