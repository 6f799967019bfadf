//! The one error type of the crate, [`BotError`]: a refusal that names what is wrong and where (a bundle's file,
//! a setting, a record), or a library's error with what the bot was doing when it came (`bundle b/: reading
//! ...: No such file or directory`), each library's error kept as its own type behind
//! [`std::error::Error::source`] and its text in the message.

use std::fmt::Display;

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A bundle, a setting, a record or a request that cannot be used: what is wrong, naming where.
    #[error("{0}")]
    Invalid(String),
    /// A file refused before it was read (missing, too large, not a regular file, outside its bundle).
    #[error("{}", zero_edge::joined(doing, source))]
    Open {
        doing: String,
        #[source]
        source: Box<zero_io::OpenError>,
    },
    /// The file system, or the network listener, refused an operation.
    #[error("{}", zero_edge::joined(doing, source))]
    Io {
        doing: String,
        #[source]
        source: std::io::Error,
    },
    /// A JSON file that does not parse or does not fit its layout.
    #[error("{}", zero_edge::joined(doing, source))]
    Json {
        doing: String,
        #[source]
        source: serde_json::Error,
    },
    /// A checkpoint that cannot be read.
    #[error("{}", zero_edge::joined(doing, source))]
    Checkpoint {
        doing: String,
        #[source]
        source: Box<zero_checkpoint::CheckpointError>,
    },
    /// The ONNX model could not be written or run.
    #[error("{}", zero_edge::joined(doing, source))]
    Onnx {
        doing: String,
        #[source]
        source: Box<zero_onnx::OnnxError>,
    },
    /// A bundle's or a record's rules that do not parse for its game.
    #[error("{}", zero_edge::joined(doing, source))]
    Rules {
        doing: String,
        #[source]
        source: Box<zero_games::RulesError>,
    },
    /// A game record that cannot be read or replayed.
    #[error("{}", zero_edge::joined(doing, source))]
    Record {
        doing: String,
        #[source]
        source: Box<zero_records::RecordError>,
    },
    /// A tablebase that cannot be opened.
    #[error("{}", zero_edge::joined(doing, source))]
    Tablebase {
        doing: String,
        #[source]
        source: Box<zero_tablebase::TablebaseError>,
    },
    /// libtorch refused an operation (tracing, saving or loading the TorchScript module).
    #[cfg(feature = "torch")]
    #[error("{}", zero_edge::joined(doing, source))]
    Torch {
        doing: String,
        #[source]
        source: Box<tch::TchError>,
    },
    /// A step of the bot's own that failed, with what was being done around it.
    #[error("{}", zero_edge::joined(doing, source))]
    Within {
        doing: String,
        #[source]
        source: Box<BotError>,
    },
}

pub type Result<T, E = BotError> = std::result::Result<T, E>;

impl BotError {
    /// A refusal, naming what is wrong and where.
    pub fn invalid(text: impl Display) -> BotError {
        BotError::Invalid(text.to_string())
    }
}

zero_edge::error_causes!(BotError {
    Open: zero_io::OpenError => Box::new,
    Io: std::io::Error => std::convert::identity,
    Json: serde_json::Error => std::convert::identity,
    Checkpoint: zero_checkpoint::CheckpointError => Box::new,
    Onnx: zero_onnx::OnnxError => Box::new,
    Rules: zero_games::RulesError => Box::new,
    Record: zero_records::RecordError => Box::new,
    Tablebase: zero_tablebase::TablebaseError => Box::new,
    #[cfg(feature = "torch")]
    Torch: tch::TchError => Box::new,
});

/// Returns a refusal ([`BotError::Invalid`]) formatted as `format!` would.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::BotError::Invalid(format!($($arg)*)))
    };
}
pub(crate) use bail;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_is_kept_as_the_source_with_what_was_being_done() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let err = Err::<(), _>(io).context("reading b/manifest.json").unwrap_err();
        assert_eq!(err.to_string(), "reading b/manifest.json: No such file or directory");
        let source = std::error::Error::source(&err).unwrap();
        assert_eq!(source.to_string(), "No such file or directory");
        assert!(matches!(err, BotError::Io { .. }));
        let within = Err::<(), _>(err).context("bundle b").unwrap_err();
        assert!(matches!(&within, BotError::Within { source, .. } if matches!(**source, BotError::Io { .. })));
        assert!(matches!(None::<u8>.context("no game"), Err(BotError::Invalid(text)) if text == "no game"));
    }
}
