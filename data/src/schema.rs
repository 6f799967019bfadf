//! The on-disk layout: column names and types of both files of a shard, the file metadata, and the version rule.
//! docs/data.md describes the same layout for people opening the files from Python or DuckDB.

use std::path::Path;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use crate::error::DataError;
use crate::records::ShardHeader;

/// The layout version this build writes and the only one it reads. Bump it on any change a reader of the previous
/// version would misread (a renamed, removed or retyped column, a changed meaning); adding a column readers may
/// ignore does not need a bump.
pub const SCHEMA_VERSION: u32 = 1;
/// File metadata key holding [`SCHEMA_VERSION`] as decimal text.
pub const SCHEMA_VERSION_KEY: &str = "zero.schema_version";
/// File metadata key holding the [`ShardHeader`] as JSON.
pub const HEADER_KEY: &str = "zero.header";

/// Suffix of a shard's positions file, which marks the shard complete. Each table has its own suffix, so one
/// glob selects it (`data/*.positions.parquet`, `data/*.games.parquet`).
pub const POSITIONS_SUFFIX: &str = ".positions.parquet";
/// Suffix of positions files written before [`POSITIONS_SUFFIX`] (`NAME.parquet`): still read, never written.
pub const LEGACY_POSITIONS_SUFFIX: &str = ".parquet";
/// Suffix of a shard's games file, written before the positions file.
pub const GAMES_SUFFIX: &str = ".games.parquet";

/// Rows per Parquet row group. A row group is what a reader decodes at once and what the replay stream visits
/// in random order ([`crate::SampleStream`]), so it is small enough (about 3 MB of Bashni inputs) that a large
/// merged shard still mixes well with the others in the shuffle buffer.
pub const ROW_GROUP_ROWS: usize = 1024;

/// Header fields repeated as columns in both files (dictionary-encoded, so a constant column costs a few bytes).
pub mod header_columns {
    pub const RUN: &str = "run";
    pub const GENERATION: &str = "generation";
    pub const MODEL_ID: &str = "model_id";
    pub const GAME: &str = "game";
    pub const RULES: &str = "rules";
    pub const ALL: [&str; 5] = [RUN, GENERATION, MODEL_ID, GAME, RULES];
}

/// Columns of the positions file after the header columns, one per [`crate::PositionRecord`] field.
pub mod position_columns {
    pub const GAME_ID: &str = "game_id";
    pub const PLY: &str = "ply";
    pub const STEP: &str = "step";
    pub const SIDE_TO_MOVE: &str = "side_to_move";
    pub const POSITION: &str = "position";
    pub const INPUT: &str = "input";
    pub const LEGAL_ACTIONS: &str = "legal_actions";
    pub const POLICY_ACTIONS: &str = "policy_actions";
    pub const POLICY_PROBS: &str = "policy_probs";
    pub const ROOT_VALUE: &str = "root_value";
    pub const RESULT: &str = "result";
    pub const PLIES_TO_END: &str = "plies_to_end";
    pub const FULL_SEARCH: &str = "full_search";
    pub const SIMULATIONS: &str = "simulations";
    /// Added after version 1 without a bump (readers may ignore it); a file without it reads its `result` here.
    pub const SHORT_VALUE: &str = "short_value";
    /// Added after version 1 without a bump (readers may ignore it); a file without it reads 0 here.
    pub const SCORE: &str = "score";
}

/// Columns of the games file after the header columns, one per [`crate::GameRecord`] field.
pub mod game_columns {
    pub const GAME_ID: &str = "game_id";
    pub const START_POSITION: &str = "start_position";
    pub const MOVES: &str = "moves";
    pub const WINNER: &str = "winner";
    pub const REASON: &str = "reason";
    pub const PLIES: &str = "plies";
    pub const RESIGNED_FALSE_CHECK: &str = "resigned_false_check";
}

pub(crate) fn dictionary_utf8() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
}

pub(crate) fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, false)))
}

fn header_fields() -> Vec<Field> {
    use header_columns::*;
    vec![
        Field::new(RUN, dictionary_utf8(), false),
        Field::new(GENERATION, DataType::UInt32, false),
        Field::new(MODEL_ID, dictionary_utf8(), false),
        Field::new(GAME, dictionary_utf8(), false),
        Field::new(RULES, dictionary_utf8(), false),
    ]
}

/// The Arrow schema of a positions file whose inputs have `input_len` bytes.
pub fn positions_schema(input_len: usize) -> SchemaRef {
    use position_columns::*;
    let mut fields = header_fields();
    fields.extend([
        Field::new(GAME_ID, DataType::Utf8, false),
        Field::new(PLY, DataType::UInt32, false),
        Field::new(STEP, DataType::UInt32, false),
        Field::new(SIDE_TO_MOVE, DataType::UInt8, false),
        Field::new(POSITION, DataType::Utf8, false),
        Field::new(INPUT, DataType::FixedSizeBinary(input_len as i32), false),
        Field::new(LEGAL_ACTIONS, list_of(DataType::UInt16), false),
        Field::new(POLICY_ACTIONS, list_of(DataType::UInt16), false),
        Field::new(POLICY_PROBS, list_of(DataType::Float32), false),
        Field::new(ROOT_VALUE, DataType::Float32, false),
        Field::new(RESULT, DataType::Float32, false),
        Field::new(PLIES_TO_END, DataType::UInt32, false),
        Field::new(FULL_SEARCH, DataType::Boolean, false),
        Field::new(SIMULATIONS, DataType::UInt32, false),
        Field::new(SHORT_VALUE, DataType::Float32, false),
        Field::new(SCORE, DataType::Float32, false),
    ]);
    Arc::new(Schema::new(fields))
}

/// The Arrow schema of a games file.
pub fn games_schema() -> SchemaRef {
    use game_columns::*;
    let mut fields = header_fields();
    fields.extend([
        Field::new(GAME_ID, DataType::Utf8, false),
        Field::new(START_POSITION, DataType::Utf8, false),
        Field::new(MOVES, list_of(DataType::Utf8), false),
        Field::new(WINNER, DataType::UInt8, true),
        Field::new(REASON, dictionary_utf8(), false),
        Field::new(PLIES, DataType::UInt32, false),
        Field::new(RESIGNED_FALSE_CHECK, DataType::Boolean, false),
    ]);
    Arc::new(Schema::new(fields))
}

/// Writer settings shared by both files: zstd level 1 everywhere (fast, and inputs are mostly zeros), Parquet
/// dictionaries only where values repeat (header columns, reasons), no statistics on the bulky input column.
pub(crate) fn writer_properties(header: &ShardHeader) -> WriterProperties {
    writer_properties_with(header, Vec::new())
}

/// [`writer_properties`] with more file metadata entries.
pub(crate) fn writer_properties_with(header: &ShardHeader, extra: Vec<KeyValue>) -> WriterProperties {
    let json = serde_json::to_string(header).expect("a ShardHeader always serializes");
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1).expect("zstd level 1 exists")))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_dictionary_enabled(false)
        .set_column_statistics_enabled(ColumnPath::from(position_columns::INPUT), EnabledStatistics::None)
        .set_key_value_metadata(Some(
            [
                KeyValue::new(SCHEMA_VERSION_KEY.to_string(), SCHEMA_VERSION.to_string()),
                KeyValue::new(HEADER_KEY.to_string(), json),
            ]
            .into_iter()
            .chain(extra)
            .collect(),
        ));
    for column in header_columns::ALL.into_iter().chain([game_columns::REASON]) {
        builder = builder.set_column_dictionary_enabled(ColumnPath::from(column), true);
    }
    builder.build()
}

/// Reads and checks the zero metadata of a file: refuses unknown schema versions, then parses the header.
pub(crate) fn header_from_metadata(path: &Path, metadata: Option<&Vec<KeyValue>>) -> Result<ShardHeader, DataError> {
    let value_of = |key: &str| {
        metadata
            .and_then(|kv| kv.iter().find(|e| e.key == key))
            .and_then(|e| e.value.as_deref())
    };
    let version =
        value_of(SCHEMA_VERSION_KEY).ok_or_else(|| DataError::not_a_shard(path, format!("no {SCHEMA_VERSION_KEY}")))?;
    if version.trim().parse::<u32>() != Ok(SCHEMA_VERSION) {
        return Err(DataError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version.to_string(),
            supported: SCHEMA_VERSION,
        });
    }
    let json = value_of(HEADER_KEY).ok_or_else(|| DataError::not_a_shard(path, format!("no {HEADER_KEY}")))?;
    serde_json::from_str(json).map_err(|e| DataError::not_a_shard(path, format!("bad {HEADER_KEY}: {e}")))
}

/// Checks that a file's Arrow schema has every column of `expected` with its type (extra columns are allowed, so
/// later writers may add columns without a version bump; an [`ADDED_COLUMNS`] one may be missing) and returns the
/// index in the file of each expected column it has.
pub(crate) fn column_indices(path: &Path, found: &Schema, expected: &Schema) -> Result<Vec<usize>, DataError> {
    expected
        .fields()
        .iter()
        .filter_map(|want| match found.column_with_name(want.name()) {
            None if ADDED_COLUMNS.contains(&want.name().as_str()) => None,
            None => Some(Err(DataError::not_a_shard(path, format!("no column {}", want.name())))),
            Some(found) => Some(Ok((want, found))),
        })
        .map(|column| {
            let (want, (index, field)) = column?;
            if !types_match(field.data_type(), want.data_type()) {
                return Err(DataError::not_a_shard(
                    path,
                    format!(
                        "column {} is {}, expected {}",
                        want.name(),
                        field.data_type(),
                        want.data_type()
                    ),
                ));
            }
            Ok(index)
        })
        .collect()
}

/// Columns added to a layout after its version was set, without a bump: files written before lack them, and
/// readers fall back to what such files meant (`docs/data.md`). One present must still have its type.
pub(crate) const ADDED_COLUMNS: [&str; 2] = [position_columns::SHORT_VALUE, position_columns::SCORE];

/// Type equality that ignores list item names and nullability (pyarrow, polars and DuckDB name them differently).
fn types_match(found: &DataType, expected: &DataType) -> bool {
    match (found, expected) {
        (DataType::List(a), DataType::List(b)) => types_match(a.data_type(), b.data_type()),
        _ => found == expected,
    }
}

/// What a caller requires of a shard before training on it: the game, the rules variant, and the network encoding.
/// Run, generation and model may differ between shards of one replay window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSpec {
    pub game: String,
    pub rules: String,
    pub encoding_version: u32,
    pub input_shape: [u32; 3],
    pub action_space: u32,
}

impl ShardSpec {
    /// The spec a shard of this header satisfies.
    pub fn of(header: &ShardHeader) -> Self {
        ShardSpec {
            game: header.game.clone(),
            rules: header.rules.clone(),
            encoding_version: header.encoding_version,
            input_shape: header.input_shape,
            action_space: header.action_space,
        }
    }

    /// The header of a shard that satisfies this spec, written by `run` with `model_id` of `generation`.
    pub fn header(self, run: &str, generation: u32, model_id: &str) -> ShardHeader {
        ShardHeader {
            run: run.to_string(),
            generation,
            model_id: model_id.to_string(),
            game: self.game,
            rules: self.rules,
            encoding_version: self.encoding_version,
            input_shape: self.input_shape,
            action_space: self.action_space,
        }
    }

    /// Refuses a shard whose header differs from this spec, naming every difference.
    pub fn check(&self, path: &Path, header: &ShardHeader) -> Result<(), DataError> {
        let found = ShardSpec::of(header);
        let mut differences = Vec::new();
        if found.game != self.game {
            differences.push(format!("game {:?}, expected {:?}", found.game, self.game));
        }
        if found.rules != self.rules {
            differences.push(format!("rules {:?}, expected {:?}", found.rules, self.rules));
        }
        if found.encoding_version != self.encoding_version {
            differences.push(format!(
                "encoding version {}, expected {}",
                found.encoding_version, self.encoding_version
            ));
        }
        if found.input_shape != self.input_shape {
            differences.push(format!(
                "input shape {:?}, expected {:?}",
                found.input_shape, self.input_shape
            ));
        }
        if found.action_space != self.action_space {
            differences.push(format!(
                "action space {}, expected {}",
                found.action_space, self.action_space
            ));
        }
        if differences.is_empty() {
            Ok(())
        } else {
            Err(DataError::Incompatible {
                path: path.to_path_buf(),
                reason: differences.join("; "),
            })
        }
    }
}
