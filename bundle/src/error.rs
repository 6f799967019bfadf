//! The crate's one error type, [`BundleError`]: a refusal that names the bundle and what in it is wrong, or a
//! library's error with what was being read when it came, kept as its own type behind
//! [`std::error::Error::source`].

zero_edge::library_error! {
    /// Why a bundle cannot be opened ([`BundleError::Invalid`]: a manifest or a file that does not match).
    pub enum BundleError {
        /// A file refused before it was read (missing, too large, not a regular file, outside its bundle).
        Open(zero_io::OpenError) in Box<zero_io::OpenError>,
        /// The file system refused an operation.
        Io(std::io::Error) in std::io::Error,
        /// A manifest that does not parse or does not fit its layout.
        Json(serde_json::Error) in serde_json::Error,
        /// A checkpoint that cannot be read.
        Checkpoint(zero_checkpoint::CheckpointError) in Box<zero_checkpoint::CheckpointError>,
        /// A bundle's rules that do not parse for its game.
        Rules(zero_games::RulesError) in Box<zero_games::RulesError>,
    }
}

pub type Result<T, E = BundleError> = std::result::Result<T, E>;

/// Returns a refusal ([`BundleError::Invalid`]) formatted as `format!` would.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::BundleError::Invalid(format!($($arg)*)))
    };
}
pub(crate) use bail;
