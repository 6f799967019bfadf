//! The one error type of the crate: a report that could not be drawn or written, naming the file.

use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The run's records could not be read.
    #[error(transparent)]
    Run(#[from] zero_rundir::RunDirError),
    /// A file or folder of the report could not be made.
    #[error("writing {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A plot could not be drawn (the plotting library's own error, which names no file).
    #[error("writing {path}: {reason}")]
    Draw { path: PathBuf, reason: String },
    /// A generation's summary did not turn into TensorBoard values.
    #[error("{path}: {source}")]
    Summary {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
}

/// What `source` did to `path`, as a [`ReportError::Write`].
pub(crate) fn writing(path: &std::path::Path) -> impl FnOnce(io::Error) -> ReportError + '_ {
    move |source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    }
}
