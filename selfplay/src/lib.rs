//! Self-play for zero: workers that play many games at once with the search crate's [`GameSearch`], batching
//! the leaves of all their games into one evaluator call, and write training records.
//!
//! - [`config`]: [`SelfPlayConfig`], the `[selfplay]` table of a run config (its search settings are the search
//!   crate's [`zero_search::SearchConfig`], in `[selfplay.search]`).
//! - [`records`]: training records ([`zero_data::PositionRecord`], [`zero_data::GameRecord`]) of a game.
//! - [`starts`]: lead starts, positions of earlier drawn games where one side was ahead, to begin games from.
//! - [`sink`]: where finished games go ([`GameSink`]: Parquet shards, or memory).
//! - [`worker`]: worker threads, batching and resignation; [`run_selfplay`] runs a whole self-play job.
//! - [`stats`]: live progress and the summary of a run.
//!
//! Workers know evaluators only through [`zero_search::Evaluator`]. The design is documented in
//! `docs/selfplay.md`.
//!
//! [`GameSearch`]: zero_search::GameSearch

pub mod config;
pub mod records;
pub mod sink;
pub mod starts;
pub mod stats;
pub mod worker;

pub use config::{BootstrapConfig, ConfigError, ResignConfig, SelfPlayConfig, SparringConfig, SparringSide};
pub use records::GameRecorder;
pub use sink::{GameSink, MemorySink, ShardSink, SinkError};
pub use starts::lead_starts;
pub use stats::{Progress, SelfPlayStats};
pub use worker::{FinishedGame, SelfPlayError, Worker, derive_seed, run_selfplay, worker_seed};
