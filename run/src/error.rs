//! The one error type of the crate, [`RunError`]: a refusal that names what is wrong and where (a config key, a
//! run directory's file, a follower), or a library's error with what the run was doing when it came (`reading
//! runs/x/config.toml: ...`), each library's error kept as its own type behind [`std::error::Error::source`] and
//! its text in the message.

use std::fmt::Display;

/// Why a run setting was refused; the message names the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub(crate) String);

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A config, a run directory or a follower that cannot be used: what is wrong, naming where.
    #[error("{0}")]
    Invalid(String),
    /// A config key or table the pipeline's crates refused.
    #[error("{}", zero_edge::joined(doing, source))]
    Config {
        doing: String,
        #[source]
        source: ConfigError,
    },
    /// A config, a tablebase or a record refused before it was read (missing, too large, not a regular file).
    #[error("{}", zero_edge::joined(doing, source))]
    Open {
        doing: String,
        #[source]
        source: Box<zero_io::OpenError>,
    },
    /// The file system refused an operation on the run's files, or a follower's process could not be started.
    #[error("{}", zero_edge::joined(doing, source))]
    Io {
        doing: String,
        #[source]
        source: std::io::Error,
    },
    /// A run directory's JSON record (its state, a summary line) that does not parse or fit its layout.
    #[error("{}", zero_edge::joined(doing, source))]
    Json {
        doing: String,
        #[source]
        source: serde_json::Error,
    },
    /// A TOML config that does not parse.
    #[error("{}", zero_edge::joined(doing, source))]
    Toml {
        doing: String,
        #[source]
        source: Box<toml::de::Error>,
    },
    /// A rule set that does not parse for its game.
    #[error("{}", zero_edge::joined(doing, source))]
    Rules {
        doing: String,
        #[source]
        source: Box<zero_games::RulesError>,
    },
    /// A checkpoint that cannot be read or written.
    #[error("{}", zero_edge::joined(doing, source))]
    Checkpoint {
        doing: String,
        #[source]
        source: Box<zero_model::CheckpointError>,
    },
    /// Self-play's data: a shard that cannot be written, read or merged.
    #[error("{}", zero_edge::joined(doing, source))]
    Data {
        doing: String,
        #[source]
        source: Box<zero_data::DataError>,
    },
    /// Self-play itself.
    #[error("{}", zero_edge::joined(doing, source))]
    SelfPlay {
        doing: String,
        #[source]
        source: Box<zero_selfplay::SelfPlayError>,
    },
    /// The trainer.
    #[error("{}", zero_edge::joined(doing, source))]
    Train {
        doing: String,
        #[source]
        source: Box<zero_train::TrainError>,
    },
    /// An evaluation match, a player or an opening book.
    #[error("{}", zero_edge::joined(doing, source))]
    Arena {
        doing: String,
        #[source]
        source: Box<zero_arena::ArenaError>,
    },
    /// The run directory's records, lease or followers.
    #[error("{}", zero_edge::joined(doing, source))]
    RunDir {
        doing: String,
        #[source]
        source: Box<zero_rundir::RunDirError>,
    },
    /// The run's lease: held by another process, or lost.
    #[error("{}", zero_edge::joined(doing, source))]
    Lease {
        doing: String,
        #[source]
        source: Box<zero_rundir::lease::LeaseError>,
    },
    /// A file of match records that cannot be read or written.
    #[error("{}", zero_edge::joined(doing, source))]
    Records {
        doing: String,
        #[source]
        source: Box<zero_arena::records::MatchRecordError>,
    },
    /// A device that cannot run the trainer.
    #[error("{}", zero_edge::joined(doing, source))]
    Device {
        doing: String,
        #[source]
        source: Box<zero_model::device::DeviceError>,
    },
    /// The report's plots, page or TensorBoard events.
    #[error("{}", zero_edge::joined(doing, source))]
    Report {
        doing: String,
        #[source]
        source: Box<zero_report::ReportError>,
    },
    /// A tablebase that cannot be opened.
    #[error("{}", zero_edge::joined(doing, source))]
    Tablebase {
        doing: String,
        #[source]
        source: Box<zero_tablebase::TablebaseError>,
    },
    /// A step of the run's own that failed, with what was being done around it.
    #[error("{}", zero_edge::joined(doing, source))]
    Within {
        doing: String,
        #[source]
        source: Box<RunError>,
    },
}

pub type Result<T, E = RunError> = std::result::Result<T, E>;

impl RunError {
    /// A refusal, naming what is wrong and where.
    pub fn invalid(text: impl Display) -> RunError {
        RunError::Invalid(text.to_string())
    }
}

zero_edge::error_causes!(RunError {
    Config: ConfigError => std::convert::identity,
    Open: zero_io::OpenError => Box::new,
    Io: std::io::Error => std::convert::identity,
    Json: serde_json::Error => std::convert::identity,
    Toml: toml::de::Error => Box::new,
    Rules: zero_games::RulesError => Box::new,
    Checkpoint: zero_model::CheckpointError => Box::new,
    Data: zero_data::DataError => Box::new,
    SelfPlay: zero_selfplay::SelfPlayError => Box::new,
    Train: zero_train::TrainError => Box::new,
    Arena: zero_arena::ArenaError => Box::new,
    RunDir: zero_rundir::RunDirError => Box::new,
    Lease: zero_rundir::lease::LeaseError => Box::new,
    Records: zero_arena::records::MatchRecordError => Box::new,
    Device: zero_model::device::DeviceError => Box::new,
    Report: zero_report::ReportError => Box::new,
    Tablebase: zero_tablebase::TablebaseError => Box::new,
});

/// Returns a refusal ([`RunError::Invalid`]) formatted as `format!` would.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::RunError::Invalid(format!($($arg)*)))
    };
}
pub(crate) use bail;
