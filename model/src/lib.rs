//! Networks for zero: positions become tensors, tensors become move priors and values.
//!
//! - [`encode`]: each game's input planes (written by the game's [`Encoding::encode`]) batched into tensors,
//!   seen from the side to move, and policy logits turned into priors over the legal actions.
//! - [`network`]: a residual network configured by [`NetworkConfig`], with a policy head (logits over the
//!   game's action space), a win/draw/loss value head and an optional moves-left head.
//! - [`checkpoint`]: weights as safetensors with the metadata that must travel with them (game, rules,
//!   encoding, action space, architecture, training step, parent run), written atomically and verified on load.
//! - [`evaluator`]: [`NetworkEvaluator`], the network as the search's evaluator (`zero_search::Evaluator`):
//!   it batches, runs under no-grad on the configured device and can cache.
//!
//! [`Encoding::encode`]: zero_games::Encoding::encode

pub mod checkpoint;
pub mod device;
pub mod encode;
pub mod evaluator;
pub mod network;

pub use checkpoint::{
    Checkpoint, CheckpointError, CheckpointMeta, RawTensor, checksum, covered_json, sealed_json,
    serialize_with_metadata,
};
pub use device::{DeviceChoice, Precision};
pub use evaluator::NetworkEvaluator;
pub use network::{NetOutput, NetworkConfig, PolicyValueNet};
