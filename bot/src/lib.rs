//! Playing a trained zero network, from the tools people use: a verified bot bundle ([`zero_bundle`]: weights,
//! TorchScript, manifest with SHA-256s), and three front ends over one [`Bot`] that thinks through the search
//! crate's engine: the UCI-like line protocol for programs ([`protocol`], `zero bot`), the terminal game for
//! people ([`play`], `zero play`) and the web page with its JSON API ([`serve`], `zero serve`, over [`http`]).
//! The terminal game and the page save and load games as records ([`record`]). The formats are documented in
//! `docs/bundle.md` and `docs/protocol.md`.

pub mod bot;
pub mod cli;
pub mod error;
#[cfg(feature = "torch")]
pub mod export;
pub mod http;
mod http_errors;
pub mod lines;
pub mod perfect;
pub mod play;
pub mod protocol;
pub mod record;
pub mod serve;

pub use bot::{Bot, Decision, MoveStats, NO_ONNX_RUNTIME, Runtime, describe_outcome};
pub use error::BotError;
#[cfg(feature = "torch")]
pub use export::{ExportOptions, export};
pub use zero_bundle::{Bundle, LevelRating, Manifest};
