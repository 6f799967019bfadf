//! Networks for zero: positions become tensors, tensors become move priors and values.
//!
//! - [`encode`]: each game's input planes (written by the game's [`Game::encode`]) batched into tensors, seen
//!   from the side to move, and the mapping of legal actions to policy indices in that view.
//! - [`network`]: a residual network configured by [`NetworkConfig`], with a policy head (logits over the
//!   game's action space), a win/draw/loss value head and an optional moves-left head.
//! - [`checkpoint`]: weights as safetensors with the metadata that must travel with them (game, rules,
//!   encoding, action space, architecture, training step, parent run), written atomically and verified on load.
//! - [`evaluator`]: the small interface the search knows ([`Evaluator`]), with a network implementation that
//!   batches, runs under no-grad on the configured device and can cache, and a uniform one that needs no network.
//!
//! [`Game::encode`]: zero_games::Game::encode

pub mod checkpoint;
pub mod device;
pub mod encode;
pub mod evaluator;
pub mod network;

pub use checkpoint::{Checkpoint, CheckpointError, CheckpointMeta, RawTensor, serialize_with_metadata};
pub use device::{DeviceChoice, Precision};
pub use evaluator::{EvalRequest, Evaluation, Evaluator, NetworkEvaluator, UniformEvaluator};
pub use network::{NetOutput, NetworkConfig, PolicyValueNet};
