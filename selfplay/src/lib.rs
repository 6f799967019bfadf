//! Self-play for zero: the search that turns an evaluator (a network, or random rollouts for generation 0) into
//! moves and training targets, and the workers that play many games at once and write their records.
//!
//! - [`config`]: [`SelfPlayConfig`], the `[selfplay]` table of a run config.
//! - [`tree`]: one game's search tree in a flat arena.
//! - [`puct`]: PUCT selection with first-play urgency and virtual loss, Dirichlet noise, temperature.
//! - [`gumbel`]: Gumbel AlphaZero's root: Gumbel-top-k, sequential halving, the completed-Q improved policy.
//! - [`search`]: [`GameSearch`], a search driven one leaf at a time so that leaves of many games share a batch.
//! - [`rollout`]: [`RolloutEvaluator`], uniform priors and random-playout values.
//! - [`records`]: training records ([`zero_data::PositionRecord`], [`zero_data::GameRecord`]) of a game.
//! - [`sink`]: where finished games go ([`GameSink`]: Parquet shards, or memory).
//! - [`worker`]: worker threads, batching and resignation; [`run_selfplay`] runs a whole self-play job.
//! - [`stats`]: live progress and the summary of a run.
//!
//! The search knows evaluators only through [`zero_model::Evaluator`]. The design is documented in
//! `docs/selfplay.md`.

pub mod config;
pub mod gumbel;
pub mod puct;
pub mod records;
pub mod rollout;
pub mod search;
pub mod sink;
pub mod stats;
pub mod tree;
pub mod worker;

pub use config::{ConfigError, RootSearch, SelfPlayConfig};
pub use records::GameRecorder;
pub use rollout::RolloutEvaluator;
pub use search::{GameSearch, LeafStep, SearchResult, search_blocking};
pub use sink::{GameSink, MemorySink, ShardSink, SinkError};
pub use stats::{Progress, SelfPlayStats};
pub use tree::{Node, NodeId, NodeState, Tree};
pub use worker::{FinishedGame, SelfPlayError, Worker, derive_seed, run_selfplay, worker_seed};
