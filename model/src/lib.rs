//! Networks for zero: positions become tensors, tensors become move priors and values.
//!
//! - [`encode`]: each game's input planes (written by the game's [`Encoding::encode`]) batched into tensors,
//!   seen from the side to move, and policy logits turned into priors over the legal actions.
//! - [`network`]: a residual network configured by [`NetworkConfig`], with a policy head (logits over the
//!   game's action space), a win/draw/loss value head and an optional moves-left head.
//! - [`checkpoint`]: a network's variables written as a checkpoint file and loaded from one (the file format,
//!   its metadata and the architecture config are the tch-free `zero-checkpoint` crate's).
//! - [`evaluator`]: [`NetworkEvaluator`], the network as the search's evaluator (`zero_search::Evaluator`):
//!   it batches, runs under no-grad on the configured device and can cache.
//!
//! [`Encoding::encode`]: zero_games::Encoding::encode

pub mod checkpoint;
pub mod device;
pub mod encode;
pub mod evaluator;
pub mod network;

pub use checkpoint::{Checkpoint, raw_tensor};
// The checkpoint file and the architecture are `zero-checkpoint`'s (no tch); named here too, as every user of a
// network needs them.
pub use device::{DeviceChoice, Precision};
pub use evaluator::NetworkEvaluator;
pub use network::{NetOutput, NetShape, NetworkConfig, PolicyHead, PolicyValueNet};
pub use zero_checkpoint::{
    CheckpointError, CheckpointMeta, RawTensor, checksum, covered_json, read_meta, read_meta_of, sealed_json,
    serialize_with_metadata,
};
