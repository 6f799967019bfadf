//! Training data of zero. Self-play workers write every searched position to Parquet shards; the trainer reads
//! them back through a replay window. Data scientists open the same files in pandas, polars or DuckDB.
//!
//! A shard is two files in one directory, written by [`ShardWriter`]: `<name>.games.parquet` (one row per
//! finished game, [`GameRecord`]) and then `<name>.positions.parquet` (one row per searched position,
//! [`PositionRecord`]; `<name>.parquet` in shards written before that suffix, still read),
//! each renamed into place once complete, so a shard is complete exactly when its positions file exists. Both carry
//! the [`ShardHeader`] (run, generation, model, game, rules, network encoding) in their file metadata, and its
//! identifying fields as dictionary-encoded columns. Readers ([`read_shard`], [`read_games`], [`ShardSet`]) report a
//! corrupt, truncated, incompatible or unknown-version shard as a [`DataError`] naming the file, never panic, and
//! never hand the Parquet crate a footer or page header it could loop on (`thrift.rs` reads them first).
//! [`ReplayIndex`] selects the newest positions by a [`WindowRule`], and [`SampleStream`] streams shuffled
//! [`TrainingSample`]s from them with bounded memory. [`merge_shards`] replaces many small shards (self-play writes one
//! per finished game) by one, crash-safely, and [`clean_incomplete`] makes a directory consistent after a crash
//! (both in `merge.rs`). docs/data.md documents the columns for other tools.

mod digest;
mod error;
mod merge;
mod reader;
mod records;
mod schema;
mod thrift;
mod window;
mod writer;

pub use digest::DATA_SHA256_KEY;
pub use error::{DataError, RowError};
pub use merge::{MERGED_FROM_KEY, MERGED_SUFFIX, clean_incomplete, merge_shards, remove_merged_sources};
pub use reader::{
    GameOutcome, READ_BATCH_ROWS, ShardEntry, ShardFile, ShardSet, read_game_outcomes, read_games, read_shard,
};
pub use records::{GameRecord, PositionRecord, ShardHeader, dequantize, quantize};
pub use schema::{
    GAMES_SUFFIX, HEADER_KEY, LEGACY_POSITIONS_SUFFIX, POSITIONS_SUFFIX, ROW_GROUP_ROWS, SCHEMA_VERSION,
    SCHEMA_VERSION_KEY, ShardSpec, game_columns, games_schema, header_columns, position_columns, positions_schema,
};
pub use window::{Drawn, FooterCache, ReplayConfig, ReplayIndex, SampleStream, ShardSlice, TrainingSample, WindowRule};
pub use writer::{ShardSummary, ShardWriter, shard_paths};
