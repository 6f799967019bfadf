//! Reading shards back with the Arrow reader: whole shards as records, row ranges as columnar batches for the
//! replay window, and a directory listing of complete shards. Nothing here panics on a bad file: every problem
//! becomes a [`DataError`] naming the file.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::OnceLock;
use std::time::SystemTime;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type, UInt8Type, UInt16Type, UInt32Type};
use arrow_array::{Array, ArrowPrimitiveType, BooleanArray, ListArray, PrimitiveArray, RecordBatch, StringArray};
use arrow_schema::SchemaRef;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::errors::ParquetError;
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};

use crate::digest::{self, DATA_SHA256_KEY};
use crate::error::DataError;
use crate::records::{GameRecord, PositionRecord, ShardHeader};
use crate::schema::{
    self, GAMES_SUFFIX, LEGACY_POSITIONS_SUFFIX, POSITIONS_SUFFIX, ShardSpec, game_columns, position_columns,
};
use crate::thrift;
use zero_io::is_temporary;

/// Rows per Arrow batch when reading: large enough to amortize decoding, small enough to stay a few MB.
pub const READ_BATCH_ROWS: usize = 1024;

/// An open Parquet file of a shard whose footer, version, header and columns were checked. Its data is checked
/// against the footer's digest at the first read of rows, not at opening: listing, counting and indexing a run's
/// shards read footers only, and hashing every file for them would read the whole data directory.
#[derive(Clone)]
pub struct ShardFile {
    path: PathBuf,
    header: ShardHeader,
    rows: usize,
    metadata: ArrowReaderMetadata,
    /// The footer's `zero.data_sha256`; none in files written before it.
    digest: Option<String>,
    /// Set once the data matched `digest` and its page headers passed; a failed check is repeated by the next read.
    data_checked: OnceLock<()>,
}

/// Runs a call into the Parquet reader, turning a panic inside it into [`DataError::Corrupt`] for `path`. The
/// reader trusts parts of a file it decodes and panics on some damage rather than failing (fuzzing found
/// pages that claim a dictionary the file lacks: `docs/reliability.md`); a damaged shard must be reported, not
/// end the trainer.
fn contained<T>(path: &Path, read: impl FnOnce() -> Result<T, DataError>) -> Result<T, DataError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        Err(DataError::corrupt(
            path,
            ParquetError::General(format!("the Parquet reader failed on it: {message}")),
        ))
    })
}

/// The longest footer read: a shard's is a few kB, and the Parquet crate would hold a claimed one in memory.
const MAX_FOOTER_BYTES: u64 = 64 << 20;

/// Reads the file's footer through [`thrift::clean_footer`] (the Parquet crate's own reading of a footer can be
/// made to loop for hours: see there) and decodes what it kept.
fn load_metadata(path: &Path, file: &File, length: u64) -> Result<ArrowReaderMetadata, DataError> {
    let bad = |reason: String| DataError::corrupt(path, ParquetError::General(reason));
    if length < 12 {
        return Err(bad(format!("{length} bytes, too short for a Parquet file")));
    }
    let mut tail = [0u8; 8];
    file.read_exact_at(&mut tail, length - 8)
        .map_err(|e| DataError::io(path, e))?;
    if &tail[4..] != b"PAR1" {
        return Err(bad("no Parquet footer at its end (PAR1)".to_string()));
    }
    let footer_length = u64::from(u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")));
    if footer_length > (length - 12).min(MAX_FOOTER_BYTES) {
        return Err(bad(format!("a footer of {footer_length} bytes in a file of {length}")));
    }
    let mut footer = vec![0u8; footer_length as usize];
    file.read_exact_at(&mut footer, length - 8 - footer_length)
        .map_err(|e| DataError::io(path, e))?;
    let cleaned = thrift::clean_footer(&footer).map_err(|e| bad(format!("its footer: {e}")))?;
    contained(path, || {
        let metadata = ParquetMetaDataReader::decode_metadata(&cleaned).map_err(|e| DataError::corrupt(path, e))?;
        ArrowReaderMetadata::try_new(Arc::new(metadata), ArrowReaderOptions::new())
            .map_err(|e| DataError::corrupt(path, e))
    })
}

/// Walks the page headers of every column chunk ([`thrift::check_pages`]); the chunks were checked to lie
/// inside the file when it was opened.
fn check_page_headers(path: &Path, file: &File, metadata: &ParquetMetaData) -> Result<(), DataError> {
    let mut chunk = Vec::new();
    for (g, group) in metadata.row_groups().iter().enumerate() {
        for (c, column) in group.columns().iter().enumerate() {
            let start = column.dictionary_page_offset().unwrap_or(column.data_page_offset());
            let (start, size) = (start.max(0) as u64, column.compressed_size().max(0) as usize);
            chunk.resize(size, 0);
            file.read_exact_at(&mut chunk, start)
                .map_err(|e| DataError::io(path, e))?;
            thrift::check_pages(&chunk).map_err(|e| {
                DataError::corrupt(path, ParquetError::General(format!("row group {g}, column {c}: {e}")))
            })?;
        }
    }
    Ok(())
}

/// Refuses a footer whose row groups or column chunks cannot be those of this file: negative counts, offsets or
/// sizes, chunks reaching past its end, row groups that do not add up to its row count. The Parquet reader
/// trusts these numbers (a negative offset is a panic inside it), so they are checked before any is used.
fn check_layout(path: &Path, metadata: &ParquetMetaData, length: u64) -> Result<(), DataError> {
    let bad = |reason: String| Err(DataError::corrupt(path, ParquetError::General(reason)));
    let mut rows: i64 = 0;
    for (g, group) in metadata.row_groups().iter().enumerate() {
        if group.num_rows() < 0 {
            return bad(format!("row group {g} has {} rows", group.num_rows()));
        }
        rows = rows.saturating_add(group.num_rows());
        for (c, column) in group.columns().iter().enumerate() {
            let start = column.dictionary_page_offset().unwrap_or(column.data_page_offset());
            let size = column.compressed_size();
            let end = u64::try_from(start)
                .ok()
                .zip(u64::try_from(size).ok())
                .and_then(|(s, n)| s.checked_add(n));
            if end.is_none_or(|end| end > length) {
                return bad(format!(
                    "row group {g}, column {c}: {size} bytes at offset {start}, outside the file's {length}"
                ));
            }
        }
    }
    if rows != metadata.file_metadata().num_rows() {
        return bad(format!(
            "its row groups hold {rows} rows, its footer says {}",
            metadata.file_metadata().num_rows()
        ));
    }
    Ok(())
}

/// Opens the shard at `path` for reading, with its size: a regular file of at most a shard's cap
/// ([`zero_io::FileKind::Shard`]), so that a FIFO or a device among the shards is refused at once, not waited on.
fn open_shard(path: &Path) -> Result<(File, u64), DataError> {
    zero_io::open_bounded(path, zero_io::FileKind::Shard).map_err(|e| match e {
        zero_io::OpenError::Io { error, .. } => DataError::io(path, error),
        refused => DataError::NotAShard {
            path: path.to_path_buf(),
            reason: refused.to_string(),
        },
    })
}

impl ShardFile {
    /// Opens a positions file, checking its schema version, header and columns.
    pub fn open(path: &Path) -> Result<ShardFile, DataError> {
        ShardFile::open_with(path, |h| schema::positions_schema(h.input_len()))
    }

    /// Opens a positions file and refuses it unless its header satisfies `expected`.
    pub fn open_expecting(path: &Path, expected: Option<&ShardSpec>) -> Result<ShardFile, DataError> {
        let file = ShardFile::open(path)?;
        if let Some(spec) = expected {
            spec.check(path, &file.header)?;
        }
        Ok(file)
    }

    /// Opens a games file (`<name>.games.parquet`), checking its schema version, header and columns.
    pub fn open_games(path: &Path) -> Result<ShardFile, DataError> {
        ShardFile::open_with(path, |_| schema::games_schema())
    }

    fn open_with(path: &Path, expected_schema: impl Fn(&ShardHeader) -> SchemaRef) -> Result<ShardFile, DataError> {
        let (file, length) = open_shard(path)?;
        let metadata = load_metadata(path, &file, length)?;
        check_layout(path, metadata.metadata(), length)?;
        let parquet = metadata.metadata().file_metadata();
        let digest = parquet
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|e| e.key == DATA_SHA256_KEY))
            .and_then(|e| e.value.clone());
        let header = schema::header_from_metadata(path, parquet.key_value_metadata())?;
        let rows =
            usize::try_from(parquet.num_rows()).map_err(|_| DataError::not_a_shard(path, "negative row count"))?;
        schema::column_indices(path, metadata.schema(), &expected_schema(&header))?;
        Ok(ShardFile {
            path: path.to_path_buf(),
            header,
            rows,
            metadata,
            digest,
            data_checked: OnceLock::new(),
        })
    }

    /// Checks the file's data against its footer's digest and walks its page headers, once per open file. A
    /// digest is a checksum, not a signature: page headers made to hurt the Parquet reader can carry a matching
    /// one, so they are walked in every file.
    fn check_data(&self) -> Result<(), DataError> {
        if self.data_checked.get().is_some() {
            return Ok(());
        }
        let (mut file, length) = open_shard(&self.path)?;
        if let Some(recorded) = &self.digest {
            digest::verify(&self.path, &mut file, length, recorded)?;
        }
        check_page_headers(&self.path, &file, self.metadata.metadata())?;
        let _ = self.data_checked.set(());
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &ShardHeader {
        &self.header
    }

    /// Rows in the file, from its footer.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The value of a file metadata entry.
    pub fn metadata_value(&self, key: &str) -> Option<&str> {
        self.metadata
            .metadata()
            .file_metadata()
            .key_value_metadata()?
            .iter()
            .find(|e| e.key == key)?
            .value
            .as_deref()
    }

    /// The file's Arrow schema.
    pub(crate) fn arrow_schema(&self) -> SchemaRef {
        self.metadata.schema().clone()
    }

    /// Whether the file has the column `name` (a column added to the layout later is missing from older files).
    pub(crate) fn has_column(&self, name: &str) -> bool {
        self.metadata.schema().index_of(name).is_ok()
    }

    /// The rows of each row group, in file order: the units a reader can decode without touching the others.
    pub fn row_groups(&self) -> Vec<Range<usize>> {
        let mut start = 0;
        self.metadata
            .metadata()
            .row_groups()
            .iter()
            .map(|group| {
                let rows = usize::try_from(group.num_rows()).unwrap_or(0);
                start += rows;
                start - rows..start
            })
            .collect()
    }

    /// Streams the rows in `range` (clamped to the file) as Arrow batches of at most `batch_rows` rows, holding
    /// only the named columns; a column added to the layout later ([`schema::ADDED_COLUMNS`]) that the file
    /// lacks is left out of the batches. The first call checks the file's digest.
    pub fn batches(
        &self,
        range: Range<usize>,
        batch_rows: usize,
        columns: &[&str],
    ) -> Result<impl Iterator<Item = Result<RecordBatch, DataError>> + use<>, DataError> {
        self.check_data()?;
        let path = self.path.clone();
        let (file, _) = open_shard(&path)?;
        let indices = columns
            .iter()
            .filter(|name| self.has_column(name) || !schema::ADDED_COLUMNS.contains(name))
            .map(|name| {
                self.metadata
                    .schema()
                    .index_of(name)
                    .map_err(|_| DataError::not_a_shard(&path, format!("no column {name}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let start = range.start.min(self.rows);
        let end = range.end.clamp(start, self.rows);
        let mut reader = contained(&path, || {
            let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.metadata.clone());
            let mask = ProjectionMask::roots(builder.parquet_schema(), indices);
            builder
                .with_projection(mask)
                .with_batch_size(batch_rows.max(1))
                .with_offset(start)
                .with_limit(end - start)
                .build()
                .map_err(|e| DataError::corrupt(&path, e))
        })?;
        // After a failure, and a contained panic above all, the reader's state is unknown: nothing more is read.
        let mut failed = false;
        Ok(std::iter::from_fn(move || {
            if failed {
                return None;
            }
            let next = contained(&path, || {
                reader.next().transpose().map_err(|e| DataError::corrupt_data(&path, e))
            })
            .transpose();
            failed = matches!(next, Some(Err(_)));
            next
        }))
    }

    /// Reads every position of the file.
    pub fn read_positions(&self) -> Result<Vec<PositionRecord>, DataError> {
        use position_columns::*;
        let columns = [
            GAME_ID,
            PLY,
            STEP,
            SIDE_TO_MOVE,
            POSITION,
            INPUT,
            LEGAL_ACTIONS,
            POLICY_ACTIONS,
            POLICY_PROBS,
            ROOT_VALUE,
            RESULT,
            PLIES_TO_END,
            FULL_SEARCH,
            SIMULATIONS,
            SHORT_VALUE,
            SCORE,
        ];
        let mut records = Vec::with_capacity(self.rows);
        for batch in self.batches(0..self.rows, READ_BATCH_ROWS, &columns)? {
            let batch = batch?;
            let c = Columns {
                path: &self.path,
                batch: &batch,
            };
            let (game_id, position) = (c.string(GAME_ID)?, c.string(POSITION)?);
            let (ply, step, plies_to_end) = (
                c.primitive::<UInt32Type>(PLY)?,
                c.primitive::<UInt32Type>(STEP)?,
                c.primitive::<UInt32Type>(PLIES_TO_END)?,
            );
            let side_to_move = c.primitive::<UInt8Type>(SIDE_TO_MOVE)?;
            let inputs = InputColumn::new(&c, self.header.input_len())?;
            let legal = ListColumn::<UInt16Type>::new(&c, LEGAL_ACTIONS)?;
            let policy_actions = ListColumn::<UInt16Type>::new(&c, POLICY_ACTIONS)?;
            let policy_probs = ListColumn::<Float32Type>::new(&c, POLICY_PROBS)?;
            let (root_value, result) = (
                c.primitive::<Float32Type>(ROOT_VALUE)?,
                c.primitive::<Float32Type>(RESULT)?,
            );
            let full_search = c.boolean(FULL_SEARCH)?;
            let simulations = c.primitive::<UInt32Type>(SIMULATIONS)?;
            let short_value = c.optional_primitive::<Float32Type>(SHORT_VALUE)?;
            let score = c.optional_primitive::<Float32Type>(SCORE)?;
            for i in 0..batch.num_rows() {
                let record = PositionRecord {
                    game_id: game_id.value(i).to_string(),
                    ply: ply.value(i),
                    step: step.value(i),
                    side_to_move: side_to_move.value(i),
                    position: position.value(i).to_string(),
                    input: inputs.row(i).to_vec(),
                    legal_actions: legal.row(i)?.to_vec(),
                    policy_actions: policy_actions.row(i)?.to_vec(),
                    policy_probs: policy_probs.row(i)?.to_vec(),
                    root_value: root_value.value(i),
                    result: result.value(i),
                    plies_to_end: plies_to_end.value(i),
                    full_search: full_search.value(i),
                    simulations: simulations.value(i),
                    short_value: short_value.map_or(result.value(i), |s| s.value(i)),
                    score: score.map_or(0.0, |s| s.value(i)),
                };
                record
                    .values()
                    .check(self.header.action_space)
                    .map_err(|reason| DataError::BadRow {
                        path: self.path.clone(),
                        row: records.len(),
                        reason,
                    })?;
                records.push(record);
            }
        }
        Ok(records)
    }
}

/// Reads a whole positions file: its header and every position.
pub fn read_shard(path: &Path) -> Result<(ShardHeader, Vec<PositionRecord>), DataError> {
    let file = ShardFile::open(path)?;
    let records = file.read_positions()?;
    Ok((file.header, records))
}

/// Reads a whole games file (`<name>.games.parquet`): its header and every game.
pub fn read_games(path: &Path) -> Result<(ShardHeader, Vec<GameRecord>), DataError> {
    use game_columns::*;
    let file = ShardFile::open_games(path)?;
    let columns = [
        GAME_ID,
        START_POSITION,
        MOVES,
        WINNER,
        REASON,
        PLIES,
        RESIGNED_FALSE_CHECK,
    ];
    let mut games = Vec::with_capacity(file.rows);
    for batch in file.batches(0..file.rows, READ_BATCH_ROWS, &columns)? {
        let batch = batch?;
        let c = Columns { path, batch: &batch };
        let (game_id, start_position) = (c.string(GAME_ID)?, c.string(START_POSITION)?);
        let moves = c.list(MOVES)?;
        let move_text = moves.values().as_string_opt::<i32>().ok_or_else(|| c.bad_type(MOVES))?;
        let winner = c.primitive::<UInt8Type>(WINNER)?;
        let (reason, reason_text) = c.dictionary_strings(REASON)?;
        let plies = c.primitive::<UInt32Type>(PLIES)?;
        let resigned_false_check = c.boolean(RESIGNED_FALSE_CHECK)?;
        for i in 0..batch.num_rows() {
            let span = list_span(moves, i, move_text.len()).ok_or_else(|| c.bad_offsets(MOVES))?;
            let key = reason.keys().value(i) as usize;
            let reason_name = reason_text.get(key).ok_or_else(|| c.bad_offsets(REASON))?;
            games.push(GameRecord {
                game_id: game_id.value(i).to_string(),
                start_position: start_position.value(i).to_string(),
                moves: span.map(|m| move_text.value(m).to_string()).collect(),
                winner: winner.is_valid(i).then(|| winner.value(i)),
                reason: reason_name.to_string(),
                plies: plies.value(i),
                resigned_false_check: resigned_false_check.value(i),
            });
        }
    }
    Ok((file.header, games))
}

/// How one game of a games file ended, without its moves: what counting a generation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    /// 0 = first player, 1 = second, `None` = draw.
    pub winner: Option<u8>,
    pub reason: String,
    pub plies: u32,
}

/// Reads only the winner, reason and plies of every game of a games file: a fraction of [`read_games`]' work
/// (no moves, no ids), with the same checks on what it reads.
pub fn read_game_outcomes(path: &Path) -> Result<Vec<GameOutcome>, DataError> {
    use game_columns::*;
    let file = ShardFile::open_games(path)?;
    let mut games = Vec::with_capacity(file.rows);
    for batch in file.batches(0..file.rows, READ_BATCH_ROWS, &[WINNER, REASON, PLIES])? {
        let batch = batch?;
        let c = Columns { path, batch: &batch };
        let winner = c.primitive::<UInt8Type>(WINNER)?;
        let (reason, reason_text) = c.dictionary_strings(REASON)?;
        let plies = c.primitive::<UInt32Type>(PLIES)?;
        for i in 0..batch.num_rows() {
            let key = reason.keys().value(i) as usize;
            let reason_name = reason_text.get(key).ok_or_else(|| c.bad_offsets(REASON))?;
            games.push(GameOutcome {
                winner: winner.is_valid(i).then(|| winner.value(i)),
                reason: reason_name.to_string(),
                plies: plies.value(i),
            });
        }
    }
    Ok(games)
}

/// The strings of a dictionary column, looked up by key with a check.
pub(crate) struct DictionaryValues<'a>(&'a StringArray);

impl<'a> DictionaryValues<'a> {
    /// The value of `key`, or `None` for a key past the dictionary (a damaged file).
    pub fn get(&self, key: usize) -> Option<&'a str> {
        (key < self.0.len()).then(|| self.0.value(key))
    }
}

/// Typed access to the columns of one batch, turning a wrong type into an error instead of a panic.
pub(crate) struct Columns<'a> {
    pub path: &'a Path,
    pub batch: &'a RecordBatch,
}

impl<'a> Columns<'a> {
    pub fn column(&self, name: &str) -> Result<&'a dyn Array, DataError> {
        self.batch
            .column_by_name(name)
            .map(|c| c.as_ref())
            .ok_or_else(|| DataError::not_a_shard(self.path, format!("no column {name}")))
    }

    pub fn bad_type(&self, name: &str) -> DataError {
        DataError::not_a_shard(self.path, format!("column {name} has an unexpected type"))
    }

    pub fn bad_offsets(&self, name: &str) -> DataError {
        DataError::not_a_shard(self.path, format!("column {name} has out-of-range offsets or keys"))
    }

    pub fn primitive<T: ArrowPrimitiveType>(&self, name: &str) -> Result<&'a PrimitiveArray<T>, DataError> {
        self.column(name)?
            .as_primitive_opt::<T>()
            .ok_or_else(|| self.bad_type(name))
    }

    /// A column added to the layout later, which older files lack: `None` where the batch has no such column.
    pub fn optional_primitive<T: ArrowPrimitiveType>(
        &self,
        name: &str,
    ) -> Result<Option<&'a PrimitiveArray<T>>, DataError> {
        match self.batch.column_by_name(name) {
            None => Ok(None),
            Some(_) => self.primitive(name).map(Some),
        }
    }

    /// A dictionary column of strings: its keys, and its values as `Option`-returning lookups by key.
    pub fn dictionary_strings(
        &self,
        name: &str,
    ) -> Result<(&'a arrow_array::DictionaryArray<Int32Type>, DictionaryValues<'a>), DataError> {
        let dictionary = self
            .column(name)?
            .as_dictionary_opt::<Int32Type>()
            .ok_or_else(|| self.bad_type(name))?;
        let values = dictionary
            .values()
            .as_string_opt::<i32>()
            .ok_or_else(|| self.bad_type(name))?;
        Ok((dictionary, DictionaryValues(values)))
    }

    pub fn string(&self, name: &str) -> Result<&'a StringArray, DataError> {
        self.column(name)?
            .as_string_opt::<i32>()
            .ok_or_else(|| self.bad_type(name))
    }

    pub fn boolean(&self, name: &str) -> Result<&'a BooleanArray, DataError> {
        self.column(name)?.as_boolean_opt().ok_or_else(|| self.bad_type(name))
    }

    pub fn list(&self, name: &str) -> Result<&'a ListArray, DataError> {
        self.column(name)?
            .as_list_opt::<i32>()
            .ok_or_else(|| self.bad_type(name))
    }
}

/// The input column as one byte slice with a fixed stride.
pub(crate) struct InputColumn<'a> {
    bytes: &'a [u8],
    len: usize,
}

impl<'a> InputColumn<'a> {
    pub fn new(c: &Columns<'a>, len: usize) -> Result<Self, DataError> {
        let array = c
            .column(position_columns::INPUT)?
            .as_fixed_size_binary_opt()
            .ok_or_else(|| c.bad_type("input"))?;
        if array.value_length() as usize != len {
            return Err(DataError::not_a_shard(
                c.path,
                format!("inputs have {} bytes, the header says {len}", array.value_length()),
            ));
        }
        // value_data() starts at the array's first value even for a sliced array.
        let bytes = array.value_data();
        if bytes.len() < array.len() * len {
            return Err(c.bad_offsets(position_columns::INPUT));
        }
        Ok(InputColumn { bytes, len })
    }

    pub fn row(&self, i: usize) -> &'a [u8] {
        &self.bytes[i * self.len..(i + 1) * self.len]
    }
}

/// A list column of primitive values, read as slices of its child values.
pub(crate) struct ListColumn<'a, T: ArrowPrimitiveType> {
    path: &'a Path,
    name: &'static str,
    list: &'a ListArray,
    values: &'a [T::Native],
}

impl<'a, T: ArrowPrimitiveType> ListColumn<'a, T> {
    pub fn new(c: &Columns<'a>, name: &'static str) -> Result<Self, DataError> {
        let list = c.list(name)?;
        let values = list.values().as_primitive_opt::<T>().ok_or_else(|| c.bad_type(name))?;
        // Offsets index the child array's logical values, which start at its own offset.
        Ok(ListColumn {
            path: c.path,
            name,
            list,
            values: values.values(),
        })
    }

    pub fn row(&self, i: usize) -> Result<&'a [T::Native], DataError> {
        list_span(self.list, i, self.values.len())
            .map(|span| &self.values[span])
            .ok_or_else(|| DataError::not_a_shard(self.path, format!("column {} has out-of-range offsets", self.name)))
    }
}

/// The child-value range of row `i` of a list, or `None` when the offsets do not fit the child (corrupt data).
fn list_span(list: &ListArray, i: usize, child_len: usize) -> Option<Range<usize>> {
    let offsets = list.value_offsets();
    let (start, end) = (*offsets.get(i)?, *offsets.get(i + 1)?);
    let (start, end) = (usize::try_from(start).ok()?, usize::try_from(end).ok()?);
    (start <= end && end <= child_len).then_some(start..end)
}

/// One complete shard found in a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardEntry {
    /// The shard's name: its positions file name without `.parquet`.
    pub name: String,
    pub positions_path: PathBuf,
    pub games_path: PathBuf,
    /// Modification time of the positions file: when the shard became complete.
    pub modified: SystemTime,
}

/// The complete shards of a directory, newest first. "Newest" is the modification time of the positions file
/// (the moment its rename completed the shard), ties broken by name, later names first. Copies of a data
/// directory must keep modification times (`cp -p`, `rsync -t`).
#[derive(Clone, Debug)]
pub struct ShardSet {
    dir: PathBuf,
    shards: Vec<ShardEntry>,
}

impl ShardSet {
    /// Lists the complete shards of `dir`: `*.parquet` files that are neither games files nor temporaries. Files
    /// are not opened here; reading them reports bad ones.
    pub fn scan(dir: &Path) -> Result<ShardSet, DataError> {
        let mut shards = Vec::new();
        for entry in fs::read_dir(dir).map_err(|e| DataError::io(dir, e))? {
            let entry = entry.map_err(|e| DataError::io(dir, e))?;
            let path = entry.path();
            let Some(name) = shard_name(&path) else { continue };
            // A file deleted between listing and stat is simply not part of the set.
            let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else {
                continue;
            };
            let (positions_path, games_path) = crate::writer::shard_paths(dir, &name);
            shards.push(ShardEntry {
                name,
                positions_path,
                games_path,
                modified,
            });
        }
        shards.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| b.name.cmp(&a.name)));
        Ok(ShardSet {
            dir: dir.to_path_buf(),
            shards,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The shards, newest first.
    pub fn shards(&self) -> &[ShardEntry] {
        &self.shards
    }

    pub fn len(&self) -> usize {
        self.shards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }

    /// Opens each shard's footer, newest first: one `Result` per shard, so the caller reports a bad shard (its
    /// error names the file and the reason) and goes on with the others.
    pub fn open_each<'a>(
        &'a self,
        expected: Option<&'a ShardSpec>,
    ) -> impl Iterator<Item = Result<ShardFile, DataError>> + 'a {
        self.shards
            .iter()
            .map(move |s| ShardFile::open_expecting(&s.positions_path, expected))
    }

    /// Reads each shard whole, newest first: one `Result` per shard, as [`ShardSet::open_each`].
    pub fn read_each<'a>(
        &'a self,
        expected: Option<&'a ShardSpec>,
    ) -> impl Iterator<Item = Result<(ShardHeader, Vec<PositionRecord>), DataError>> + 'a {
        self.open_each(expected).map(|file| {
            let file = file?;
            let records = file.read_positions()?;
            Ok((file.header, records))
        })
    }
}

/// The shard name of a complete positions file, or `None` for games files, temporaries and other files.
pub(crate) fn shard_name(path: &Path) -> Option<String> {
    let file_name = path.file_name().and_then(OsStr::to_str)?;
    if is_temporary(path) || file_name.ends_with(GAMES_SUFFIX) || !path.is_file() {
        return None;
    }
    file_name
        .strip_suffix(POSITIONS_SUFFIX)
        .or_else(|| file_name.strip_suffix(LEGACY_POSITIONS_SUFFIX))
        .filter(|n| !n.is_empty())
        .map(str::to_string)
}
