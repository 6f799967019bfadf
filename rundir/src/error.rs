//! The one error type of the crate: what of a run directory could not be read, naming the file.

use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum RunDirError {
    /// A command that reads a run was pointed at a folder that holds none.
    #[error("{path} is not a run directory (no state.json or config.toml)")]
    NotARunDir { path: PathBuf },
    /// The file system refused a file of the run.
    #[error("reading {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A JSON file of the run does not parse: damaged, or edited by hand.
    #[error("{path}: {source}")]
    Damaged {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// A line of a JSONL record that does not parse (and is not a torn last line, which is skipped).
    #[error("{path} line {line}: {source}")]
    DamagedLine {
        path: PathBuf,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
}
