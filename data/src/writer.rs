//! Writing a shard: records accumulate in Arrow columns in memory, and [`ShardWriter::finish`] writes the games file
//! and then the positions file, each to a temporary name renamed into place, so a killed worker never leaves a
//! half-written file under a shard's name (a games file alone is an orphan that [`crate::clean_incomplete`] removes).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float32Builder, ListBuilder, StringBuilder, StringDictionaryBuilder, UInt8Builder, UInt16Builder,
    UInt32Builder,
};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, DictionaryArray, FixedSizeBinaryArray, Int32Array, RecordBatch, StringArray, UInt32Array};
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field, SchemaRef};

use crate::digest::DigestedWriter;
use crate::error::{DataError, RowError};
use crate::records::{GameRecord, PositionRecord, ShardHeader};
use crate::schema::{self, GAMES_SUFFIX, LEGACY_POSITIONS_SUFFIX, POSITIONS_SUFFIX};
use zero_io::write_atomically_held;

/// The paths and sizes of a written shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardSummary {
    pub positions_path: PathBuf,
    pub games_path: PathBuf,
    pub games: usize,
    pub positions: usize,
    pub positions_bytes: u64,
    pub games_bytes: u64,
}

impl ShardSummary {
    /// The summary of a shard just written to `positions_path` and `games_path`, with the files' sizes.
    pub(crate) fn of_written(
        positions_path: PathBuf,
        games_path: PathBuf,
        games: usize,
        positions: usize,
    ) -> Result<ShardSummary, DataError> {
        let size = |path: &Path| fs::metadata(path).map(|m| m.len()).map_err(|e| DataError::io(path, e));
        Ok(ShardSummary {
            positions_bytes: size(&positions_path)?,
            games_bytes: size(&games_path)?,
            positions_path,
            games_path,
            games,
            positions,
        })
    }
}

/// The paths of shard `name` in `dir`: (positions file, games file).
pub fn shard_paths(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let positions = dir.join(format!("{name}{POSITIONS_SUFFIX}"));
    let legacy = dir.join(format!("{name}{LEGACY_POSITIONS_SUFFIX}"));
    // A shard written before the positions suffix keeps its old name; every new shard gets the suffix.
    let positions = if !positions.exists() && legacy.is_file() {
        legacy
    } else {
        positions
    };
    (positions, dir.join(format!("{name}{GAMES_SUFFIX}")))
}

/// Refuses a shard name that is not a plain file name of its own (a path, a temporary, a games file's stem).
pub(crate) fn check_shard_name(dir: &Path, name: &str) -> Result<(), DataError> {
    let bad_name = name.is_empty()
        || name.contains(['/', '\\'])
        || name.contains(zero_io::TEMP_MARKER)
        || name.ends_with(".games")
        || name.ends_with(".positions");
    if bad_name {
        return Err(DataError::InvalidRecord {
            path: shard_paths(dir, name).0,
            reason: format!("{name:?} is not a usable shard name"),
        });
    }
    Ok(())
}

/// Collects finished games and their positions, then writes one shard. Memory grows with the shard (about the
/// input size per position), so workers should finish a shard every few thousand to few tens of thousands of
/// positions.
pub struct ShardWriter {
    positions_path: PathBuf,
    games_path: PathBuf,
    header: ShardHeader,
    positions: PositionColumns,
    games: GameColumns,
}

impl ShardWriter {
    /// Starts shard `name` in `dir` (created if missing). `name` must be a plain file name; a shard of that name
    /// that is already complete is never replaced.
    pub fn create(dir: &Path, name: &str, header: ShardHeader) -> Result<ShardWriter, DataError> {
        let (positions_path, games_path) = shard_paths(dir, name);
        check_shard_name(dir, name)?;
        if header.input_len() == 0 || header.input_len() > i32::MAX as usize || header.action_space > 1 << 16 {
            return Err(DataError::InvalidRecord {
                path: positions_path,
                reason: format!(
                    "input shape {:?} or action space {} out of range",
                    header.input_shape, header.action_space
                ),
            });
        }
        zero_io::create_dir_durably(dir).map_err(|e| DataError::io(dir, e))?;
        if positions_path.exists() {
            return Err(DataError::AlreadyExists { path: positions_path });
        }
        Ok(ShardWriter {
            positions_path,
            games_path,
            positions: PositionColumns::new(header.input_len()),
            games: GameColumns::default(),
            header,
        })
    }

    pub fn header(&self) -> &ShardHeader {
        &self.header
    }

    /// Positions added so far.
    pub fn positions(&self) -> usize {
        self.positions.rows
    }

    /// Games added so far.
    pub fn games(&self) -> usize {
        self.games.rows
    }

    /// Adds one finished game and its searched positions, after checking them against the header.
    pub fn add_game(&mut self, game: &GameRecord, positions: &[PositionRecord]) -> Result<(), DataError> {
        for (i, p) in positions.iter().enumerate() {
            self.check(p).map_err(|reason| DataError::InvalidRecord {
                path: self.positions_path.clone(),
                reason: format!("game {:?}, position {i}: {reason}", game.game_id),
            })?;
            if p.game_id != game.game_id {
                return Err(DataError::InvalidRecord {
                    path: self.positions_path.clone(),
                    reason: format!("position {i} belongs to game {:?}, not {:?}", p.game_id, game.game_id),
                });
            }
        }
        self.games.push(game);
        for p in positions {
            self.positions.push(p);
        }
        Ok(())
    }

    fn check(&self, p: &PositionRecord) -> Result<(), RowError> {
        if p.input.len() != self.header.input_len() {
            return Err(RowError::InputLength {
                got: p.input.len(),
                want: self.header.input_len(),
            });
        }
        if p.side_to_move > 1 {
            return Err(RowError::SideToMove(p.side_to_move));
        }
        p.values().check(self.header.action_space)
    }

    /// Writes the games file, then the positions file (which marks the shard complete), each atomically.
    pub fn finish(self) -> Result<ShardSummary, DataError> {
        let ShardWriter {
            positions_path,
            games_path,
            header,
            mut positions,
            mut games,
        } = self;
        if positions_path.exists() {
            return Err(DataError::AlreadyExists { path: positions_path });
        }
        let (game_rows, position_rows) = (games.rows, positions.rows);
        // Both halves or neither, even when the process is told to end meanwhile.
        let _writing = zero_io::writing();
        let games_batch = games
            .finish(&header)
            .map_err(|e| DataError::corrupt_data(&games_path, e))?;
        // Held until the positions file is in place: until then a cleanup must not take it for an orphan.
        let games_file = write_parquet(&games_path, &header, games_batch)?;
        let positions_batch = positions
            .finish(&header)
            .map_err(|e| DataError::corrupt_data(&positions_path, e))?;
        write_parquet(&positions_path, &header, positions_batch)?;
        drop(games_file);
        ShardSummary::of_written(positions_path, games_path, game_rows, position_rows)
    }
}

/// Writes one Parquet file atomically; returns it still locked ([`write_atomically_held`]).
fn write_parquet(path: &Path, header: &ShardHeader, batch: RecordBatch) -> Result<File, DataError> {
    let properties = schema::writer_properties(header);
    write_atomically_held(path, |file: &mut File| {
        let mut writer = DigestedWriter::new(file, batch.schema(), properties).map_err(io::Error::other)?;
        writer.write(&batch).map_err(io::Error::other)?;
        writer.close().map_err(io::Error::other)?;
        Ok(())
    })
    .map_err(|e| DataError::io(path, e))
}

/// The header fields as constant columns: one dictionary entry, all keys zero.
fn header_arrays(header: &ShardHeader, rows: usize) -> Vec<ArrayRef> {
    let constant = |value: &str| -> ArrayRef {
        let keys = Int32Array::from(vec![0; rows]);
        Arc::new(DictionaryArray::<Int32Type>::new(
            keys,
            Arc::new(StringArray::from(vec![value])),
        ))
    };
    vec![
        constant(&header.run),
        Arc::new(UInt32Array::from(vec![header.generation; rows])),
        constant(&header.model_id),
        constant(&header.game),
        constant(&header.rules),
    ]
}

fn list_builder<T: arrow_array::builder::ArrayBuilder>(values: T, item: DataType) -> ListBuilder<T> {
    ListBuilder::new(values).with_field(Arc::new(Field::new("item", item, false)))
}

struct PositionColumns {
    rows: usize,
    input_len: usize,
    game_id: StringBuilder,
    ply: UInt32Builder,
    step: UInt32Builder,
    side_to_move: UInt8Builder,
    position: StringBuilder,
    /// Inputs back to back; one FixedSizeBinary buffer at the end, with no per-row offsets.
    input: Vec<u8>,
    legal_actions: ListBuilder<UInt16Builder>,
    policy_actions: ListBuilder<UInt16Builder>,
    policy_probs: ListBuilder<Float32Builder>,
    root_value: Float32Builder,
    result: Float32Builder,
    plies_to_end: UInt32Builder,
    full_search: BooleanBuilder,
    simulations: UInt32Builder,
    short_value: Float32Builder,
    score: Float32Builder,
}

impl PositionColumns {
    fn new(input_len: usize) -> Self {
        PositionColumns {
            rows: 0,
            input_len,
            game_id: StringBuilder::new(),
            ply: UInt32Builder::new(),
            step: UInt32Builder::new(),
            side_to_move: UInt8Builder::new(),
            position: StringBuilder::new(),
            input: Vec::new(),
            legal_actions: list_builder(UInt16Builder::new(), DataType::UInt16),
            policy_actions: list_builder(UInt16Builder::new(), DataType::UInt16),
            policy_probs: list_builder(Float32Builder::new(), DataType::Float32),
            root_value: Float32Builder::new(),
            result: Float32Builder::new(),
            plies_to_end: UInt32Builder::new(),
            full_search: BooleanBuilder::new(),
            simulations: UInt32Builder::new(),
            short_value: Float32Builder::new(),
            score: Float32Builder::new(),
        }
    }

    fn push(&mut self, p: &PositionRecord) {
        self.rows += 1;
        self.game_id.append_value(&p.game_id);
        self.ply.append_value(p.ply);
        self.step.append_value(p.step);
        self.side_to_move.append_value(p.side_to_move);
        self.position.append_value(&p.position);
        self.input.extend_from_slice(&p.input);
        self.legal_actions.values().append_slice(&p.legal_actions);
        self.legal_actions.append(true);
        self.policy_actions.values().append_slice(&p.policy_actions);
        self.policy_actions.append(true);
        self.policy_probs.values().append_slice(&p.policy_probs);
        self.policy_probs.append(true);
        self.root_value.append_value(p.root_value);
        self.result.append_value(p.result);
        self.plies_to_end.append_value(p.plies_to_end);
        self.full_search.append_value(p.full_search);
        self.simulations.append_value(p.simulations);
        self.short_value.append_value(p.short_value);
        self.score.append_value(p.score);
    }

    fn finish(&mut self, header: &ShardHeader) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let schema: SchemaRef = schema::positions_schema(self.input_len);
        let input = FixedSizeBinaryArray::try_new(
            self.input_len as i32,
            Buffer::from_vec(std::mem::take(&mut self.input)),
            None,
        )?;
        let mut columns = header_arrays(header, self.rows);
        columns.extend([
            Arc::new(self.game_id.finish()) as ArrayRef,
            Arc::new(self.ply.finish()),
            Arc::new(self.step.finish()),
            Arc::new(self.side_to_move.finish()),
            Arc::new(self.position.finish()),
            Arc::new(input),
            Arc::new(self.legal_actions.finish()),
            Arc::new(self.policy_actions.finish()),
            Arc::new(self.policy_probs.finish()),
            Arc::new(self.root_value.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.plies_to_end.finish()),
            Arc::new(self.full_search.finish()),
            Arc::new(self.simulations.finish()),
            Arc::new(self.short_value.finish()),
            Arc::new(self.score.finish()),
        ]);
        RecordBatch::try_new(schema, columns)
    }
}

struct GameColumns {
    rows: usize,
    game_id: StringBuilder,
    start_position: StringBuilder,
    moves: ListBuilder<StringBuilder>,
    winner: UInt8Builder,
    /// Reasons repeat across games: a dictionary column, which pandas reads as a categorical.
    reason: StringDictionaryBuilder<Int32Type>,
    plies: UInt32Builder,
    resigned_false_check: BooleanBuilder,
}

impl Default for GameColumns {
    fn default() -> Self {
        GameColumns {
            rows: 0,
            game_id: StringBuilder::new(),
            start_position: StringBuilder::new(),
            moves: list_builder(StringBuilder::new(), DataType::Utf8),
            winner: UInt8Builder::new(),
            reason: StringDictionaryBuilder::new(),
            plies: UInt32Builder::new(),
            resigned_false_check: BooleanBuilder::new(),
        }
    }
}

impl GameColumns {
    fn push(&mut self, g: &GameRecord) {
        self.rows += 1;
        self.game_id.append_value(&g.game_id);
        self.start_position.append_value(&g.start_position);
        for m in &g.moves {
            self.moves.values().append_value(m);
        }
        self.moves.append(true);
        self.winner.append_option(g.winner);
        self.reason.append_value(&g.reason);
        self.plies.append_value(g.plies);
        self.resigned_false_check.append_value(g.resigned_false_check);
    }

    fn finish(&mut self, header: &ShardHeader) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let mut columns = header_arrays(header, self.rows);
        columns.extend([
            Arc::new(self.game_id.finish()) as ArrayRef,
            Arc::new(self.start_position.finish()),
            Arc::new(self.moves.finish()),
            Arc::new(self.winner.finish()),
            Arc::new(self.reason.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.resigned_false_check.finish()),
        ]);
        RecordBatch::try_new(schema::games_schema(), columns)
    }
}
