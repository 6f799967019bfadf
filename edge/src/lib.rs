//! How errors reach the edge, where a command's error meets the person who typed it: the one way an error and
//! its causes are written on a line ([`error_chain`]), and the one way a library's typed error says what it was
//! doing around the error it wraps ([`library_error!`], [`joined`]). A crate of its own because the programs have
//! no other common home for it (the front door `zero` must not link the bot crate, which links libtorch, where
//! `zero-play`'s commands live), and the libraries `run` and `bot` none below them.

/// What was being done and why it failed, on one line (`reading b/manifest.json: No such file or directory`): how
/// a library's error that wraps another says both ([`library_error!`]).
pub fn joined(doing: &str, source: &dyn std::fmt::Display) -> String {
    if doing.is_empty() {
        source.to_string()
    } else {
        format!("{doing}: {source}")
    }
}

/// A library crate's one error type, in one shape in every crate: `Invalid(String)`, a refusal naming what is
/// wrong and where; for each library error it keeps as a source (`Variant(SourceType) in FieldType`, the field a
/// `Box` for a large one), the variant `Variant { doing: String, source: FieldType }`, shown as what was being
/// done and why it failed ([`joined`]); and `Within { doing, source: Box<Self> }` for its own errors given a
/// context. With it: `invalid(..)`, `From` for each source type (`?` alone), a `Cause` trait and a `Context`
/// trait whose `.context(..)`/`.with_context(|| ..)` say what the crate was doing when a call failed (on an
/// option, a refusal). The crate needs `thiserror`.
#[macro_export]
macro_rules! library_error {
    (
        $(#[$meta:meta])*
        pub enum $error:ident {
            $(
                $(#[$attr:meta])*
                $variant:ident($source:ty) in $field:ty,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, thiserror::Error)]
        pub enum $error {
            /// A refusal: what is wrong, naming where.
            #[error("{0}")]
            Invalid(String),
            $(
                $(#[$attr])*
                #[error("{}", $crate::joined(doing, source))]
                $variant {
                    doing: String,
                    #[source]
                    source: $field,
                },
            )*
            /// A step of the crate's own that failed, with what was being done around it.
            #[error("{}", $crate::joined(doing, source))]
            Within {
                doing: String,
                #[source]
                source: Box<$error>,
            },
        }

        impl $error {
            /// A refusal, naming what is wrong and where.
            pub fn invalid(text: impl std::fmt::Display) -> $error {
                $error::Invalid(text.to_string())
            }
        }

        /// An error this crate keeps as the source of its own, with what it was doing ([`Context`]).
        pub trait Cause {
            fn while_doing(self, doing: String) -> $error;
        }

        $(
            $(#[$attr])*
            impl Cause for $source {
                fn while_doing(self, doing: String) -> $error {
                    $error::$variant { doing, source: <$field>::from(self) }
                }
            }

            $(#[$attr])*
            impl From<$source> for $error {
                /// The error alone, as its own text says what failed.
                fn from(source: $source) -> $error {
                    $error::$variant { doing: String::new(), source: <$field>::from(source) }
                }
            }
        )*

        impl Cause for $error {
            fn while_doing(self, doing: String) -> $error {
                $error::Within { doing, source: Box::new(self) }
            }
        }

        /// What the crate was doing when a call failed: `.context("reading the record")` or
        /// `.with_context(|| ..)` on a result keeps its error as the source of one that says so; on an option, a
        /// refusal.
        pub trait Context<T> {
            fn context(self, doing: impl std::fmt::Display) -> Result<T, $error>;
            fn with_context<D: std::fmt::Display>(self, doing: impl FnOnce() -> D) -> Result<T, $error>;
        }

        impl<T, E: Cause> Context<T> for Result<T, E> {
            fn context(self, doing: impl std::fmt::Display) -> Result<T, $error> {
                self.map_err(|e| e.while_doing(doing.to_string()))
            }

            fn with_context<D: std::fmt::Display>(self, doing: impl FnOnce() -> D) -> Result<T, $error> {
                self.map_err(|e| e.while_doing(doing().to_string()))
            }
        }

        impl<T> Context<T> for Option<T> {
            fn context(self, doing: impl std::fmt::Display) -> Result<T, $error> {
                self.ok_or_else(|| $error::Invalid(doing.to_string()))
            }

            fn with_context<D: std::fmt::Display>(self, doing: impl FnOnce() -> D) -> Result<T, $error> {
                self.ok_or_else(|| $error::Invalid(doing().to_string()))
            }
        }
    };
}

/// An error and its causes on one line, each said once: a cause whose text its context already includes (a
/// library error that names its source in its message and also returns it as its source) is not repeated.
pub fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = String::new();
    for cause in std::iter::successors(Some(err), |e| e.source()) {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_chain;
    use anyhow::Context;

    #[test]
    fn an_error_chain_names_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let wrapped = format!("checkpoint /missing: {io}");
        let err = anyhow::Error::new(io)
            .context(wrapped)
            .context("player \"ckpt:/missing\"");
        assert_eq!(
            error_chain(err.as_ref()),
            "player \"ckpt:/missing\": checkpoint /missing: No such file or directory"
        );
        let err = anyhow::anyhow!("inner").context("outer");
        assert_eq!(error_chain(err.as_ref()), "outer: inner");
        let plain: anyhow::Result<()> = Err(anyhow::anyhow!("alone"));
        assert_eq!(
            error_chain(plain.context("at the edge").unwrap_err().as_ref()),
            "at the edge: alone"
        );
    }
}
