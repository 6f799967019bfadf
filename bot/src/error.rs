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
    #[error("{}", joined(doing, source))]
    Open {
        doing: String,
        #[source]
        source: Box<zero_io::OpenError>,
    },
    /// The file system, or the network listener, refused an operation.
    #[error("{}", joined(doing, source))]
    Io {
        doing: String,
        #[source]
        source: std::io::Error,
    },
    /// A JSON file that does not parse or does not fit its layout.
    #[error("{}", joined(doing, source))]
    Json {
        doing: String,
        #[source]
        source: serde_json::Error,
    },
    /// A checkpoint that cannot be read.
    #[error("{}", joined(doing, source))]
    Checkpoint {
        doing: String,
        #[source]
        source: Box<zero_checkpoint::CheckpointError>,
    },
    /// The ONNX model could not be written or run.
    #[error("{}", joined(doing, source))]
    Onnx {
        doing: String,
        #[source]
        source: Box<zero_onnx::OnnxError>,
    },
    /// A bundle's or a record's rules that do not parse for its game.
    #[error("{}", joined(doing, source))]
    Rules {
        doing: String,
        #[source]
        source: Box<zero_games::RulesError>,
    },
    /// A game record that cannot be read or replayed.
    #[error("{}", joined(doing, source))]
    Record {
        doing: String,
        #[source]
        source: Box<zero_records::RecordError>,
    },
    /// A tablebase that cannot be opened.
    #[error("{}", joined(doing, source))]
    Tablebase {
        doing: String,
        #[source]
        source: Box<zero_tablebase::TablebaseError>,
    },
    /// libtorch refused an operation (tracing, saving or loading the TorchScript module).
    #[cfg(feature = "torch")]
    #[error("{}", joined(doing, source))]
    Torch {
        doing: String,
        #[source]
        source: Box<tch::TchError>,
    },
    /// A step of the bot's own that failed, with what was being done around it.
    #[error("{}", joined(doing, source))]
    Within {
        doing: String,
        #[source]
        source: Box<BotError>,
    },
}

pub type Result<T, E = BotError> = std::result::Result<T, E>;

/// What was being done and why it failed, on one line (`reading b/manifest.json: No such file or directory`):
/// the whole story wherever the error is shown, the edge's printer leaving out the causes it already holds.
fn joined(doing: &str, source: &dyn Display) -> String {
    if doing.is_empty() {
        source.to_string()
    } else {
        format!("{doing}: {source}")
    }
}

impl BotError {
    /// A refusal, naming what is wrong and where.
    pub fn invalid(text: impl Display) -> BotError {
        BotError::Invalid(text.to_string())
    }
}

/// An error the bot keeps as the source of its own, with what it was doing ([`Context`]).
pub trait Cause {
    fn while_doing(self, doing: String) -> BotError;
}

/// Each cause's variant; `$wrap` makes its source (a box for the larger ones, so that a `BotError` stays small
/// where it is passed up).
macro_rules! causes {
    ($($(#[$attr:meta])* $variant:ident: $ty:ty => $wrap:path),* $(,)?) => {
        $(
            $(#[$attr])*
            impl Cause for $ty {
                fn while_doing(self, doing: String) -> BotError {
                    BotError::$variant { doing, source: $wrap(self) }
                }
            }
            $(#[$attr])*
            impl From<$ty> for BotError {
                /// The error alone, as its own text says what failed.
                fn from(source: $ty) -> BotError {
                    BotError::$variant { doing: String::new(), source: $wrap(source) }
                }
            }
        )*
    };
}

/// The source as it is (`std::convert::identity` reads worse in the table below).
fn itself<T>(source: T) -> T {
    source
}

causes! {
    Open: zero_io::OpenError => Box::new,
    Io: std::io::Error => itself,
    Json: serde_json::Error => itself,
    Checkpoint: zero_checkpoint::CheckpointError => Box::new,
    Onnx: zero_onnx::OnnxError => Box::new,
    Rules: zero_games::RulesError => Box::new,
    Record: zero_records::RecordError => Box::new,
    Tablebase: zero_tablebase::TablebaseError => Box::new,
    #[cfg(feature = "torch")]
    Torch: tch::TchError => Box::new,
}

impl Cause for BotError {
    fn while_doing(self, doing: String) -> BotError {
        BotError::Within {
            doing,
            source: Box::new(self),
        }
    }
}

/// What the bot was doing when a call failed: `.context("reading the record")` or `.with_context(|| ...)` on
/// a library's result keeps its error as the source of a [`BotError`] that says so; on an option, a refusal.
pub trait Context<T> {
    fn context(self, doing: impl Display) -> Result<T>;
    fn with_context<D: Display>(self, doing: impl FnOnce() -> D) -> Result<T>;
}

impl<T, E: Cause> Context<T> for std::result::Result<T, E> {
    fn context(self, doing: impl Display) -> Result<T> {
        self.map_err(|e| e.while_doing(doing.to_string()))
    }

    fn with_context<D: Display>(self, doing: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| e.while_doing(doing().to_string()))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, doing: impl Display) -> Result<T> {
        self.ok_or_else(|| BotError::invalid(doing))
    }

    fn with_context<D: Display>(self, doing: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| BotError::invalid(doing()))
    }
}

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
