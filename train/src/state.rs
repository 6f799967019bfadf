//! The train-state file beside a network checkpoint: `NAME.train.safetensors` holds the optimizer's tensors and,
//! in its header under the key `zero.train`, the JSON [`TrainState`] (step, seed, optimizer updates, loss scale).
//! Written atomically, before the network file, and tied to it by the step. From format 2 on, a checksum over the
//! state and every tensor (the one checkpoints use) is checked on load; format 1 files still load.

use std::path::{Path, PathBuf};

use safetensors::tensor::{Dtype, SafeTensors};
use serde::{Deserialize, Serialize};
use tch::Tensor;

use crate::TrainError;
use crate::config::OptimizerKind;
use zero_model::{RawTensor, serialize_with_metadata};

/// Version of the train-state layout: 2 adds the checksum; 1 still loads.
pub const TRAIN_STATE_FORMAT: u32 = 2;
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
    /// Checksum of the rest of the state and of every tensor, hex; filled in by [`save`].
    #[serde(default)]
    pub checksum: String,
}

/// Tensors as the checksum reads them: by name, with shapes and bytes.
type TensorView<'a> = (String, Vec<usize>, &'a [u8]);

fn by_name<'a>(views: &'a mut [TensorView<'_>]) -> impl Iterator<Item = (&'a str, &'a [usize], &'a [u8])> {
    views.sort_by(|a, b| a.0.cmp(&b.0));
    views
        .iter()
        .map(|(n, shape, bytes)| (n.as_str(), shape.as_slice(), *bytes))
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
        .map(|(name, t)| (name.clone(), zero_model::raw_tensor(t)))
        .collect();
    let mut state = state.clone();
    state.format = TRAIN_STATE_FORMAT;
    state.checksum.clear();
    let mut views: Vec<TensorView> = raw
        .iter()
        .map(|(n, t)| (n.clone(), t.shape.clone(), t.bytes.as_slice()))
        .collect();
    let json = zero_model::sealed_json(&state, by_name(&mut views));
    let bytes =
        serialize_with_metadata(&raw, METADATA_KEY, json).map_err(|e| TrainError::state(path, e.to_string()))?;
    zero_io::write_atomically(path, &bytes).map_err(|e| TrainError::state(path, e.to_string()))
}

/// Reads a train-state file: its state and its tensors (on the CPU).
pub fn load(path: &Path) -> Result<(TrainState, Vec<(String, Tensor)>), TrainError> {
    let bytes =
        zero_io::read_bounded(path, zero_io::FileKind::Network).map_err(|e| TrainError::state(path, e.to_string()))?;
    let bad = |reason: String| TrainError::state(path, reason);
    let (_, metadata) = SafeTensors::read_metadata(&bytes).map_err(|e| bad(format!("{e:?}")))?;
    let file = SafeTensors::deserialize(&bytes).map_err(|e| bad(format!("corrupt or truncated: {e:?}")))?;
    let json = metadata
        .metadata()
        .as_ref()
        .and_then(|m| m.get(METADATA_KEY))
        .ok_or_else(|| bad("no zero.train metadata (not a zero train-state file)".into()))?;
    let state: TrainState = serde_json::from_str(json).map_err(|e| bad(format!("metadata: {e}")))?;
    if !(1..=TRAIN_STATE_FORMAT).contains(&state.format) {
        return Err(bad(format!(
            "train-state format {} is not one this version reads (1 to {TRAIN_STATE_FORMAT})",
            state.format
        )));
    }
    if state.format >= 2 {
        let mut views: Vec<TensorView> = file
            .tensors()
            .into_iter()
            .map(|(n, v)| (n, v.shape().to_vec(), v.data()))
            .collect();
        let covered = zero_model::covered_json(json, &state.checksum)
            .ok_or_else(|| bad("the state does not carry its checksum".into()))?;
        let found = zero_model::checksum(Some(&covered), by_name(&mut views));
        if found != state.checksum {
            return Err(bad(format!(
                "checksum {found} does not match the recorded {}",
                state.checksum
            )));
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> TrainState {
        TrainState {
            format: TRAIN_STATE_FORMAT,
            step: 300,
            generation: 2,
            seed: 9,
            optimizer: OptimizerKind::Sgd,
            optimizer_updates: 300,
            loss_scale: None,
            batch_size: 64,
            chunk_steps: 100,
            // A learning rate from a real run whose text serde_json does not parse back to the same f64: the
            // checksum must cover the text as written.
            last_learning_rate: 0.019999995695076458,
            checksum: String::new(),
        }
    }

    fn momentum() -> Vec<(String, Tensor)> {
        vec![("w.momentum".to_string(), Tensor::from_slice(&[0.5f32, -0.25, 2.0, 8.0]))]
    }

    #[test]
    fn a_damaged_state_or_tensor_fails_its_checksum_and_a_format_1_file_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen-0002.train.safetensors");
        save(&path, &state(), &momentum()).unwrap();
        let (loaded, tensors) = load(&path).unwrap();
        assert_eq!(
            (loaded.step, loaded.format, tensors.len()),
            (300, TRAIN_STATE_FORMAT, 1)
        );
        let clean = std::fs::read(&path).unwrap();

        let mut flipped = clean.clone();
        let last = flipped.len() - 2; // inside the tensor's bytes, at the end of the file
        flipped[last] ^= 0x10;
        std::fs::write(&path, &flipped).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(
            err.contains("checksum") && err.contains("gen-0002.train.safetensors"),
            "{err}"
        );

        let (from, to) = (b"\\\"step\\\":300", b"\\\"step\\\":900");
        let at = clean
            .windows(from.len())
            .position(|w| w == from)
            .expect("the step is in the header");
        let mut edited = clean.clone();
        edited[at..at + to.len()].copy_from_slice(to);
        std::fs::write(&path, &edited).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");

        // Format 1, as earlier versions wrote it: no checksum, loaded as it is.
        let mut old = state();
        old.format = 1;
        let json = serde_json::to_string(&old).unwrap().replace(",\"checksum\":\"\"", "");
        let raw = vec![("w.momentum".to_string(), zero_model::raw_tensor(&momentum()[0].1))];
        std::fs::write(&path, serialize_with_metadata(&raw, METADATA_KEY, json).unwrap()).unwrap();
        assert_eq!(load(&path).unwrap().0.step, 300);
    }
}
