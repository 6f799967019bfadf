//! The one error type of the crate, [`RunError`]: a refusal that names what is wrong and where (a config key, a
//! run directory's file, a follower), or a library's error with what the run was doing when it came (`reading
//! runs/x/config.toml: ...`), each library's error kept as its own type behind [`std::error::Error::source`] and
//! its text in the message.

/// Why a run setting was refused; the message names the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub(crate) String);

zero_edge::library_error! {
    /// What went wrong in a training run ([`RunError::Invalid`]: a config, a run directory or a follower that
    /// cannot be used).
    pub enum RunError {
        /// A config key or table the pipeline's crates refused.
        Config(ConfigError) in ConfigError,
        /// A config, a tablebase or a record refused before it was read (missing, too large, not a regular file).
        Open(zero_io::OpenError) in Box<zero_io::OpenError>,
        /// The file system refused an operation on the run's files, or a follower's process could not be started.
        Io(std::io::Error) in std::io::Error,
        /// A run directory's JSON record (its state, a summary line) that does not parse or fit its layout.
        Json(serde_json::Error) in serde_json::Error,
        /// A TOML config that does not parse.
        Toml(toml::de::Error) in Box<toml::de::Error>,
        /// A rule set that does not parse for its game.
        Rules(zero_games::RulesError) in Box<zero_games::RulesError>,
        /// A checkpoint that cannot be read or written.
        Checkpoint(zero_model::CheckpointError) in Box<zero_model::CheckpointError>,
        /// Self-play's data: a shard that cannot be written, read or merged.
        Data(zero_data::DataError) in Box<zero_data::DataError>,
        /// Self-play itself.
        SelfPlay(zero_selfplay::SelfPlayError) in Box<zero_selfplay::SelfPlayError>,
        /// The trainer.
        Train(zero_train::TrainError) in Box<zero_train::TrainError>,
        /// An evaluation match, a player or an opening book.
        Arena(zero_arena::ArenaError) in Box<zero_arena::ArenaError>,
        /// The run directory's records, lease or followers.
        RunDir(zero_rundir::RunDirError) in Box<zero_rundir::RunDirError>,
        /// The run's lease: held by another process, or lost.
        Lease(zero_rundir::lease::LeaseError) in Box<zero_rundir::lease::LeaseError>,
        /// A file of match records that cannot be read or written.
        Records(zero_arena::records::MatchRecordError) in Box<zero_arena::records::MatchRecordError>,
        /// A device that cannot run the trainer.
        Device(zero_model::device::DeviceError) in Box<zero_model::device::DeviceError>,
        /// The report's plots, page or TensorBoard events.
        Report(zero_report::ReportError) in Box<zero_report::ReportError>,
        /// A tablebase that cannot be opened.
        Tablebase(zero_tablebase::TablebaseError) in Box<zero_tablebase::TablebaseError>,
    }
}

pub type Result<T, E = RunError> = std::result::Result<T, E>;

/// Returns a refusal ([`RunError::Invalid`]) formatted as `format!` would.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::RunError::Invalid(format!($($arg)*)))
    };
}
pub(crate) use bail;
