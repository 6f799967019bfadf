//! The trainer's replay window: which positions it may sample ([`ReplayIndex`]) and a shuffled stream of training
//! samples over them ([`SampleStream`]) whose memory is bounded by its shuffle buffer, not by the window.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use arrow_array::RecordBatch;
use arrow_array::types::{Float32Type, UInt16Type, UInt32Type};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::error::DataError;
use crate::reader::{Columns, InputColumn, ListColumn, READ_BATCH_ROWS, ShardEntry, ShardFile, ShardSet};
use crate::records::{RowValues, ShardHeader};
use crate::schema::{ShardSpec, position_columns};

/// How many of the newest positions the trainer samples from.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowRule {
    /// The newest `positions` positions.
    Fixed { positions: usize },
    /// Grows sub-linearly with the positions ever written (KataGo-style), so early, weak data leaves the window
    /// quickly while later the window still widens: with `total` positions,
    /// `window = total` while `total <= min_positions`, then
    /// `window = min(max_positions, min_positions * (total / min_positions)^exponent)`, with `exponent` in (0, 1].
    Growing {
        min_positions: usize,
        max_positions: usize,
        exponent: f64,
    },
}

impl WindowRule {
    /// The window size for `total_positions` positions written so far (never more than the total).
    pub fn window_size(&self, total_positions: u64) -> usize {
        let total = usize::try_from(total_positions).unwrap_or(usize::MAX);
        match *self {
            WindowRule::Fixed { positions } => positions.min(total),
            WindowRule::Growing {
                min_positions,
                max_positions,
                exponent,
            } => {
                if total <= min_positions {
                    return total.min(max_positions);
                }
                let grown = min_positions as f64 * (total as f64 / min_positions as f64).powf(exponent);
                // `as usize` saturates, and a NaN from a nonsensical exponent becomes 0, then min_positions.
                (grown.floor() as usize)
                    .max(min_positions)
                    .min(max_positions)
                    .min(total)
            }
        }
    }
}

/// How the trainer samples: the window, how often each new position is seen, and the shuffle.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayConfig {
    pub window: WindowRule,
    /// Samples the trainer draws per newly written position (`K = samples_per_position x new positions`).
    pub samples_per_position: f64,
    /// Rows held by the shuffle buffer; memory is about this many rows (see docs/data.md for Bashni sizes).
    pub shuffle_buffer: usize,
    pub seed: u64,
}

impl Default for ReplayConfig {
    fn default() -> Self {
        ReplayConfig {
            window: WindowRule::Growing {
                min_positions: 250_000,
                max_positions: 2_000_000,
                exponent: 0.75,
            },
            samples_per_position: 4.0,
            shuffle_buffer: 50_000,
            seed: 0,
        }
    }
}

impl ReplayConfig {
    /// The number of samples to draw after `new_positions` new positions: `round(samples_per_position x new)`.
    pub fn samples_for(&self, new_positions: u64) -> usize {
        (self.samples_per_position * new_positions as f64).round().max(0.0) as usize
    }
}

/// A row range of one shard that lies inside the window.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardSlice {
    pub path: PathBuf,
    pub header: ShardHeader,
    pub rows: Range<usize>,
    /// `rows` cut at the file's row-group boundaries: the pieces a [`SampleStream`] pass visits in random order.
    pub pieces: Vec<Range<usize>>,
}

/// `rows` cut at the boundaries of `groups`; one piece when the groups do not cover the rows (never for a file
/// whose footer was checked, but a wrong footer must not lose rows).
fn pieces_of(rows: &Range<usize>, groups: &[Range<usize>]) -> Vec<Range<usize>> {
    let pieces: Vec<Range<usize>> = groups
        .iter()
        .map(|g| g.start.max(rows.start)..g.end.min(rows.end))
        .filter(|p| p.start < p.end)
        .collect();
    if pieces.iter().map(|p| p.len()).sum::<usize>() == rows.len() {
        pieces
    } else {
        vec![rows.clone()]
    }
}

/// What the replay index needs of a shard's footer.
#[derive(Clone, Debug)]
struct Footer {
    modified: SystemTime,
    header: ShardHeader,
    rows: usize,
    row_groups: Vec<Range<usize>>,
}

impl Footer {
    fn of(file: &ShardFile, modified: SystemTime) -> Footer {
        Footer {
            modified,
            header: file.header().clone(),
            rows: file.rows(),
            row_groups: file.row_groups(),
        }
    }
}

/// The footers of the shards a replay index was last built over, by path, for
/// [`ReplayIndex::build_remembering`]. A few hundred bytes a shard.
#[derive(Debug, Default)]
pub struct FooterCache {
    entries: HashMap<PathBuf, Footer>,
}

impl FooterCache {
    fn knows(&self, shard: &ShardEntry) -> bool {
        self.entries
            .get(&shard.positions_path)
            .is_some_and(|f| f.modified == shard.modified)
    }

    /// How many shards it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The positions inside the window: whole shards taken newest first until the window is covered, the oldest of
/// them trimmed to its last rows (rows within a shard are in the order games finished).
#[derive(Clone, Debug)]
pub struct ReplayIndex {
    dir: PathBuf,
    slices: Vec<ShardSlice>,
    total_positions: u64,
    window_positions: usize,
    skipped: Vec<PathBuf>,
    /// Why each of `skipped` was left out, for the error of a window left with nothing.
    skipped_reasons: Vec<String>,
}

impl ReplayIndex {
    /// Opens every shard's footer (in parallel) to count positions (bad or incompatible shards are returned as
    /// errors beside the index and left out of it), then selects the window.
    pub fn build(set: &ShardSet, rule: &WindowRule, expected: Option<&ShardSpec>) -> (ReplayIndex, Vec<DataError>) {
        ReplayIndex::build_remembering(set, rule, expected, &mut FooterCache::default())
    }

    /// [`ReplayIndex::build`], opening only the shards that `cache` has not seen as they are now (a run indexes
    /// its window once a generation; a shard once written never changes). `cache` then holds the set's shards.
    pub fn build_remembering(
        set: &ShardSet,
        rule: &WindowRule,
        expected: Option<&ShardSpec>,
        cache: &mut FooterCache,
    ) -> (ReplayIndex, Vec<DataError>) {
        let mut errors = Vec::new();
        let new: Vec<&ShardEntry> = set.shards().iter().filter(|s| !cache.knows(s)).collect();
        // Thousands of followers' one-game shards: their footers are opened in parallel.
        use rayon::prelude::*;
        let opened: Vec<Result<Footer, DataError>> = new
            .par_iter()
            .map(|s| ShardFile::open_expecting(&s.positions_path, expected).map(|f| Footer::of(&f, s.modified)))
            .collect();
        for (shard, footer) in new.into_iter().zip(opened) {
            match footer {
                Ok(footer) => {
                    cache.entries.insert(shard.positions_path.clone(), footer);
                }
                Err(e) => errors.push(e),
            }
        }
        let present: std::collections::HashSet<&Path> =
            set.shards().iter().map(|s| s.positions_path.as_path()).collect();
        cache.entries.retain(|path, _| present.contains(path.as_path()));
        // Newest first, as the set lists them.
        let files: Vec<(&Path, &Footer)> = set
            .shards()
            .iter()
            .filter_map(|s| {
                cache
                    .entries
                    .get(&s.positions_path)
                    .map(|f| (s.positions_path.as_path(), f))
            })
            .collect();
        let total_positions = files.iter().map(|(_, f)| f.rows as u64).sum();
        let window_positions = rule.window_size(total_positions);
        let mut slices = Vec::new();
        let mut covered = 0;
        for (path, file) in files {
            if covered >= window_positions {
                break;
            }
            let take = file.rows.min(window_positions - covered);
            if take == 0 {
                continue;
            }
            covered += take;
            let rows = file.rows - take..file.rows;
            slices.push(ShardSlice {
                path: path.to_path_buf(),
                header: file.header.clone(),
                pieces: pieces_of(&rows, &file.row_groups),
                rows,
            });
        }
        let skipped = errors.iter().map(|e| e.path().to_path_buf()).collect();
        let skipped_reasons = errors.iter().map(ToString::to_string).collect();
        (
            ReplayIndex {
                dir: set.dir().to_path_buf(),
                slices,
                total_positions,
                window_positions,
                skipped,
                skipped_reasons,
            },
            errors,
        )
    }

    /// The selected row ranges, newest shard first.
    pub fn slices(&self) -> &[ShardSlice] {
        &self.slices
    }

    /// Positions in all readable shards of the directory: the `total` of the window rule.
    pub fn total_positions(&self) -> u64 {
        self.total_positions
    }

    /// Positions inside the window (the rule's size; all of them are in [`ReplayIndex::slices`]).
    pub fn window_positions(&self) -> usize {
        self.window_positions
    }

    /// Shards left out because they could not be read or were refused.
    pub fn skipped(&self) -> &[PathBuf] {
        &self.skipped
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// One position as the trainer consumes it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingSample {
    /// Quantized network input (see [`crate::dequantize`]).
    pub input: Vec<u8>,
    pub legal_actions: Vec<u16>,
    /// Whether this sample is a policy target: only positions searched with the full budget are (playout cap
    /// randomization). When false, `policy_actions` and `policy_probs` are empty and the sample trains the value
    /// heads only.
    pub has_policy: bool,
    pub policy_actions: Vec<u16>,
    pub policy_probs: Vec<f32>,
    /// Search value at the root, side to move's view.
    pub root_value: f32,
    /// Final result, side to move's view: 1, 0, -1.
    pub result: f32,
    pub plies_to_end: u32,
    /// The short-horizon value target ([`crate::PositionRecord::short_value`]; the result for older files).
    pub short_value: f32,
    /// The game's score at its end ([`crate::PositionRecord::score`]; 0 for older files).
    pub score: f32,
}

impl TrainingSample {
    /// The values the trainer uses, to be checked as a stored row's are ([`crate::PositionRecord`]'s).
    pub(crate) fn values(&self) -> RowValues<'_> {
        RowValues {
            legal_actions: &self.legal_actions,
            policy_actions: &self.policy_actions,
            policy_probs: &self.policy_probs,
            root_value: self.root_value,
            result: self.result,
            short_value: self.short_value,
            score: self.score,
        }
    }
}

/// Samples drawn by [`SampleStream::draw`], with the shards that failed while drawing them.
#[derive(Debug)]
pub struct Drawn {
    pub samples: Vec<TrainingSample>,
    pub skipped: Vec<DataError>,
}

const SAMPLE_COLUMNS: [&str; 10] = [
    position_columns::INPUT,
    position_columns::LEGAL_ACTIONS,
    position_columns::POLICY_ACTIONS,
    position_columns::POLICY_PROBS,
    position_columns::ROOT_VALUE,
    position_columns::RESULT,
    position_columns::PLIES_TO_END,
    position_columns::FULL_SEARCH,
    position_columns::SHORT_VALUE,
    position_columns::SCORE,
];

/// An endless shuffled stream of samples over a window. It reads the window in passes; each pass visits every
/// piece of every slice (a row group's share of it, [`ShardSlice::pieces`]) in a fresh random order, row after
/// row, through a shuffle buffer of at most `shuffle_buffer` rows: each incoming row replaces a uniformly chosen
/// buffered one, which is emitted. Visiting pieces rather than whole shards keeps the buffer mixed when a few
/// large shards (a merged generation) hold the window: it holds rows of many pieces from all of them, not one
/// shard at a time. Memory is the buffer plus one batch of at most [`READ_BATCH_ROWS`] rows (decoded, then handed to
/// the buffer row by row). The same index, buffer size and seed give the same samples.
///
/// A shard that fails while streaming is yielded once as an `Err` (naming it) and dropped from later passes; the
/// stream ends (`None`) only when no readable shard is left.
pub struct SampleStream {
    dir: PathBuf,
    /// Why shards failed, from the index and from reading: named when nothing readable is left.
    failures: Vec<String>,
    slices: Vec<ShardSlice>,
    /// Each slice's file, opened at its first piece and kept (its footer) for the later ones.
    files: Vec<Option<ShardFile>>,
    /// Slices that failed; their pieces are skipped.
    dropped: Vec<bool>,
    live_slices: usize,
    /// (slice, rows) of every piece of the window.
    pieces: Vec<(usize, Range<usize>)>,
    capacity: usize,
    rng: ChaCha8Rng,
    buffer: Vec<TrainingSample>,
    peak_buffered: usize,
    /// Piece indices still to read in this pass, in reverse reading order.
    pass: Vec<usize>,
    current: Option<PieceReader>,
}

struct PieceReader {
    slice: usize,
    batches: Box<dyn Iterator<Item = Result<RecordBatch, DataError>>>,
    /// The file row of the next batch's first row, to name a bad row.
    next_file_row: usize,
    /// The decoded rows of the current batch not yet handed to the buffer.
    rows: std::vec::IntoIter<TrainingSample>,
}

impl SampleStream {
    /// A stream over `index` with the buffer size and seed of `config`. The buffer holds at most
    /// `min(config.shuffle_buffer, window positions)` rows, so a small window is not read twice to fill it.
    pub fn new(index: &ReplayIndex, config: &ReplayConfig) -> SampleStream {
        let window: usize = index.slices.iter().map(|s| s.rows.len()).sum();
        let capacity = config.shuffle_buffer.min(window).max(1);
        let pieces = index
            .slices
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.pieces.iter().map(move |rows| (i, rows.clone())))
            .collect();
        SampleStream {
            dir: index.dir.clone(),
            failures: index.skipped_reasons.clone(),
            slices: index.slices.clone(),
            files: vec![None; index.slices.len()],
            dropped: vec![false; index.slices.len()],
            live_slices: index.slices.len(),
            pieces,
            capacity,
            rng: ChaCha8Rng::seed_from_u64(config.seed),
            buffer: Vec::with_capacity(capacity),
            peak_buffered: 0,
            pass: Vec::new(),
            current: None,
        }
    }

    /// Rows in the shuffle buffer now.
    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// The most rows the buffer ever held.
    pub fn peak_buffered(&self) -> usize {
        self.peak_buffered
    }

    /// The buffer's limit.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Exactly `count` samples, with the shards that failed on the way. Fails only when the window has no readable
    /// positions left.
    pub fn draw(&mut self, count: usize) -> Result<Drawn, DataError> {
        let mut drawn = Drawn {
            samples: Vec::with_capacity(count),
            skipped: Vec::new(),
        };
        while drawn.samples.len() < count {
            match self.next() {
                Some(Ok(sample)) => drawn.samples.push(sample),
                Some(Err(e)) => {
                    self.failures.push(e.to_string());
                    drawn.skipped.push(e);
                }
                None => {
                    return Err(DataError::EmptyWindow {
                        dir: self.dir.clone(),
                        failures: self.failures.clone(),
                    });
                }
            }
        }
        Ok(drawn)
    }

    /// A uniform index below `n` (n > 0), by multiply-shift: no modulo bias worth the name at these sizes.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.rng.next_u64()) * n as u128) >> 64) as usize
    }

    /// The next row of the window, in pass order; `Ok(None)` when no readable slice is left.
    fn next_row(&mut self) -> Result<Option<TrainingSample>, DataError> {
        loop {
            if self.live_slices == 0 {
                return Ok(None);
            }
            let Some(reader) = self.current.as_mut() else {
                if self.pass.is_empty() {
                    // A new pass: every piece of the slices still readable, in a fresh random order (Fisher-Yates).
                    self.pass = (0..self.pieces.len())
                        .filter(|&p| !self.dropped[self.pieces[p].0])
                        .collect();
                    for i in (1..self.pass.len()).rev() {
                        let j = self.below(i + 1);
                        self.pass.swap(i, j);
                    }
                }
                let piece = self.pass.pop().expect("a pass has pieces");
                let slice = self.pieces[piece].0;
                if self.dropped[slice] {
                    continue;
                }
                match self.open_piece(piece) {
                    Ok(reader) => self.current = Some(reader),
                    Err(e) => {
                        self.drop_slice(slice);
                        return Err(e);
                    }
                }
                continue;
            };
            if let Some(sample) = reader.rows.next() {
                return Ok(Some(sample));
            }
            match reader.batches.next() {
                Some(Ok(batch)) => {
                    let slice = reader.slice;
                    let first_row = reader.next_file_row;
                    reader.next_file_row += batch.num_rows();
                    let (path, header) = (&self.slices[slice].path, &self.slices[slice].header);
                    match samples_of(path, header, &batch, first_row) {
                        Ok(rows) => reader.rows = rows.into_iter(),
                        Err(e) => {
                            self.drop_slice(slice);
                            return Err(e);
                        }
                    }
                }
                Some(Err(e)) => {
                    let slice = reader.slice;
                    self.drop_slice(slice);
                    return Err(e);
                }
                None => self.current = None,
            }
        }
    }

    fn open_piece(&mut self, piece: usize) -> Result<PieceReader, DataError> {
        let (slice, rows) = self.pieces[piece].clone();
        if self.files[slice].is_none() {
            let s = &self.slices[slice];
            let file = ShardFile::open(&s.path)?;
            // The file may have been replaced since the index was built; its rows must still mean the same.
            ShardSpec::of(&s.header).check(&s.path, file.header())?;
            self.files[slice] = Some(file);
        }
        let file = self.files[slice].as_ref().expect("opened above");
        let next_file_row = rows.start;
        let batches = file.batches(rows, READ_BATCH_ROWS.min(self.capacity), &SAMPLE_COLUMNS)?;
        Ok(PieceReader {
            slice,
            batches: Box::new(batches),
            next_file_row,
            rows: Vec::new().into_iter(),
        })
    }

    /// Forgets a failed slice for the rest of the stream: its pieces still in the pass are skipped.
    fn drop_slice(&mut self, slice: usize) {
        self.current = None;
        if !self.dropped[slice] {
            self.dropped[slice] = true;
            self.files[slice] = None;
            self.live_slices -= 1;
        }
    }
}

impl Iterator for SampleStream {
    type Item = Result<TrainingSample, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let incoming = match self.next_row() {
                Ok(row) => row,
                Err(e) => return Some(Err(e)),
            };
            match incoming {
                Some(row) if self.buffer.len() < self.capacity => {
                    self.buffer.push(row);
                    self.peak_buffered = self.peak_buffered.max(self.buffer.len());
                }
                Some(row) => {
                    let j = self.below(self.buffer.len());
                    return Some(Ok(std::mem::replace(&mut self.buffer[j], row)));
                }
                // No readable slice is left: drain what the buffer still holds.
                None if self.buffer.is_empty() => return None,
                None => {
                    let j = self.below(self.buffer.len());
                    return Some(Ok(self.buffer.swap_remove(j)));
                }
            }
        }
    }
}

/// Decodes a batch into samples, looking each column up once, and checks each row's values (`first_row` is the
/// batch's first row in the file, to name a bad one).
fn samples_of(
    path: &Path,
    header: &ShardHeader,
    batch: &RecordBatch,
    first_row: usize,
) -> Result<Vec<TrainingSample>, DataError> {
    use position_columns::*;
    let c = Columns { path, batch };
    let full_search = c.boolean(FULL_SEARCH)?;
    let inputs = InputColumn::new(&c, header.input_len())?;
    let legal = ListColumn::<UInt16Type>::new(&c, LEGAL_ACTIONS)?;
    let policy_actions = ListColumn::<UInt16Type>::new(&c, POLICY_ACTIONS)?;
    let policy_probs = ListColumn::<Float32Type>::new(&c, POLICY_PROBS)?;
    let root_value = c.primitive::<Float32Type>(ROOT_VALUE)?;
    let result = c.primitive::<Float32Type>(RESULT)?;
    let plies_to_end = c.primitive::<UInt32Type>(PLIES_TO_END)?;
    let short_value = c.optional_primitive::<Float32Type>(SHORT_VALUE)?;
    let score = c.optional_primitive::<Float32Type>(SCORE)?;
    (0..batch.num_rows())
        .map(|row| {
            let has_policy = full_search.value(row);
            let (actions, probs) = if has_policy {
                (policy_actions.row(row)?.to_vec(), policy_probs.row(row)?.to_vec())
            } else {
                (Vec::new(), Vec::new())
            };
            let sample = TrainingSample {
                input: inputs.row(row).to_vec(),
                legal_actions: legal.row(row)?.to_vec(),
                has_policy,
                policy_actions: actions,
                policy_probs: probs,
                root_value: root_value.value(row),
                result: result.value(row),
                plies_to_end: plies_to_end.value(row),
                short_value: short_value.map_or(result.value(row), |s| s.value(row)),
                score: score.map_or(0.0, |s| s.value(row)),
            };
            sample
                .values()
                .check(header.action_space)
                .map_err(|reason| DataError::BadRow {
                    path: path.to_path_buf(),
                    row: first_row + row,
                    reason,
                })?;
            Ok(sample)
        })
        .collect()
}
