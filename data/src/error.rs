//! The one error type of the crate. Every variant that concerns a file names it, so that a trainer skipping a bad
//! shard can say which one and why.

use std::io;
use std::path::{Path, PathBuf};

use arrow_schema::ArrowError;
use parquet::errors::ParquetError;

/// What went wrong reading or writing training data.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file system refused (missing directory, permissions, disk full).
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The bytes are not a readable Parquet file: typically a truncated or corrupt shard.
    #[error("{path}: corrupt or truncated Parquet file: {source}")]
    Corrupt {
        path: PathBuf,
        #[source]
        source: ParquetError,
    },
    /// The Parquet file decoded, but its Arrow data did not (also a sign of corruption).
    #[error("{path}: corrupt data: {source}")]
    CorruptData {
        path: PathBuf,
        #[source]
        source: ArrowError,
    },
    /// The file was written by a version of zero whose layout this build does not know.
    #[error("{path}: schema version {found} is not supported (this build reads schema version {supported})")]
    UnsupportedVersion {
        path: PathBuf,
        found: String,
        supported: u32,
    },
    /// The file is Parquet but not a zero shard of the expected layout (missing metadata, column, wrong type).
    #[error("{path}: not a zero shard: {reason}")]
    NotAShard { path: PathBuf, reason: String },
    /// The shard is valid but holds data of another game or network encoding than the caller trains on.
    #[error("{path}: shard refused: {reason}")]
    Incompatible { path: PathBuf, reason: String },
    /// A row decoded, but holds a value the trainer cannot use (NaN, a target outside [-1, 1], an action outside
    /// the action space): the file was damaged or edited outside zero.
    #[error("{path}: row {row}: {reason}")]
    BadRow {
        path: PathBuf,
        row: usize,
        reason: RowError,
    },
    /// A writer was handed a record that contradicts its shard header or itself.
    #[error("invalid record for shard {path}: {reason}")]
    InvalidRecord { path: PathBuf, reason: String },
    /// A shard of that name is already complete; writers never replace finished data.
    #[error("{path}: shard already exists")]
    AlreadyExists { path: PathBuf },
    /// The replay window holds no readable positions; `failures` says why each shard that failed did.
    #[error("{dir}: the replay window holds no readable positions{}", failures_note(.failures))]
    EmptyWindow { dir: PathBuf, failures: Vec<String> },
}

/// The shards that failed, for [`DataError::EmptyWindow`]: how many, and the first three with their reasons.
fn failures_note(failures: &[String]) -> String {
    match failures {
        [] => " (no shard in it failed: it holds no positions)".to_string(),
        _ => {
            let shown: Vec<&str> = failures.iter().take(3).map(String::as_str).collect();
            let more = failures.len().saturating_sub(shown.len());
            let rest = if more > 0 {
                format!("; and {more} more")
            } else {
                String::new()
            };
            format!("; {} shard(s) failed: {}{rest}", failures.len(), shown.join("; "))
        }
    }
}

impl DataError {
    /// The file or directory the error is about.
    pub fn path(&self) -> &Path {
        match self {
            DataError::Io { path, .. }
            | DataError::Corrupt { path, .. }
            | DataError::CorruptData { path, .. }
            | DataError::UnsupportedVersion { path, .. }
            | DataError::NotAShard { path, .. }
            | DataError::BadRow { path, .. }
            | DataError::Incompatible { path, .. }
            | DataError::InvalidRecord { path, .. }
            | DataError::AlreadyExists { path } => path,
            DataError::EmptyWindow { dir, .. } => dir,
        }
    }

    pub(crate) fn io(path: &Path, source: io::Error) -> Self {
        DataError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn not_a_shard(path: &Path, reason: impl Into<String>) -> Self {
        DataError::NotAShard {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }

    pub(crate) fn corrupt(path: &Path, source: ParquetError) -> Self {
        // The Arrow reader wraps decoding failures of Parquet pages as ArrowError::ParquetError and the other way
        // round; both mean the same to a caller: this file cannot be read.
        DataError::Corrupt {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn corrupt_data(path: &Path, source: ArrowError) -> Self {
        DataError::CorruptData {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Why a position row cannot be written or trained on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RowError {
    #[error("{actions} policy actions but {probabilities} probabilities")]
    PolicyLengths { actions: usize, probabilities: usize },
    #[error("action {action} outside the action space of {action_space}")]
    Action { action: u16, action_space: u32 },
    #[error("{name} {value} is not a number in [-1, 1]")]
    Value { name: &'static str, value: f32 },
    #[error("policy probability {0} is not a number in [0, 1]")]
    Probability(f32),
    #[error("policy probabilities sum to {0}, above 1")]
    PolicySum(f64),
    #[error("input has {got} bytes, the header says {want}")]
    InputLength { got: usize, want: usize },
    #[error("side to move {0}")]
    SideToMove(u8),
}
