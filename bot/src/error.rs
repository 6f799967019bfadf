//! The one error type of the crate, [`BotError`]: a refusal that names what is wrong and where (a bundle's file,
//! a setting, a record), or a library's error with what the bot was doing when it came (`bundle b/: reading
//! ...: No such file or directory`), each library's error kept as its own type behind
//! [`std::error::Error::source`] and its text in the message.

zero_edge::library_error! {
    /// What went wrong in a bundle, a bot or one of its sessions ([`BotError::Invalid`]: a bundle, a setting, a
    /// record or a request that cannot be used).
    pub enum BotError {
        /// A file refused before it was read (missing, too large, not a regular file, outside its bundle).
        Open(zero_io::OpenError) in Box<zero_io::OpenError>,
        /// The file system, or the network listener, refused an operation.
        Io(std::io::Error) in std::io::Error,
        /// A JSON file that does not parse or does not fit its layout.
        Json(serde_json::Error) in serde_json::Error,
        /// A bundle that does not open.
        Bundle(zero_bundle::BundleError) in Box<zero_bundle::BundleError>,
        /// A checkpoint that cannot be read.
        Checkpoint(zero_checkpoint::CheckpointError) in Box<zero_checkpoint::CheckpointError>,
        /// The ONNX model could not be written or run.
        Onnx(zero_onnx::OnnxError) in Box<zero_onnx::OnnxError>,
        /// A bundle's or a record's rules that do not parse for its game.
        Rules(zero_games::RulesError) in Box<zero_games::RulesError>,
        /// A game record that cannot be read or replayed.
        Record(zero_records::RecordError) in Box<zero_records::RecordError>,
        /// A tablebase that cannot be opened.
        Tablebase(zero_tablebase::TablebaseError) in Box<zero_tablebase::TablebaseError>,
        /// libtorch refused an operation (tracing, saving or loading the TorchScript module).
        #[cfg(feature = "torch")]
        Torch(tch::TchError) in Box<tch::TchError>,
    }
}

pub type Result<T, E = BotError> = std::result::Result<T, E>;

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
