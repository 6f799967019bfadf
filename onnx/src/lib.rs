//! zero's networks without libtorch: the policy/value network written as an ONNX model, and an evaluator that
//! plays it through tract, a pure-Rust inference engine.
//!
//! - [`graph`]: [`checkpoint_to_onnx`], the network's layers as an ONNX graph (opset 13) with the weights of a
//!   checkpoint file, read by `zero-checkpoint`: no tch.
//! - [`runtime`] (feature `runtime`, on by default): [`OnnxEvaluator`], an ONNX network as the search's
//!   evaluator, checked against the game's encoding on load. Without the feature the crate only writes models
//!   and does not compile tract, the largest part of a release build (the main job builds it so, see
//!   `docs/stack.md`).
//!
//! The libtorch-free bot (`zero-play`) is built on these; `docs/bundle.md` describes the file and its parity
//! with libtorch.

pub mod graph;
mod proto;
#[cfg(feature = "runtime")]
pub mod runtime;

pub use graph::{OPSET, checkpoint_file_to_onnx, checkpoint_to_onnx};
#[cfg(feature = "runtime")]
pub use runtime::{OnnxEvaluator, OnnxOutput};

/// Why an ONNX model could not be written, loaded or run; each names what and where.
#[derive(Debug, thiserror::Error)]
pub enum OnnxError {
    #[error(transparent)]
    Checkpoint(#[from] zero_checkpoint::CheckpointError),
    #[error("network weight {name}: {reason}")]
    Weight { name: String, reason: String },
    #[error("invalid ONNX model: {0}")]
    Model(String),
    #[error("running the ONNX model: {0}")]
    Run(String),
}
