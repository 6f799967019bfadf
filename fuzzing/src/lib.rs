//! What each fuzz target checks: one function per parser of untrusted input, taking the fuzzer's bytes and
//! panicking only when an invariant breaks (bad input must come back as an error, never a panic, a hang or an
//! unbounded allocation). The cargo-fuzz targets in `fuzz/fuzz_targets/` are one-line calls of these, and
//! `tests/corpora.rs` replays every seed and every finding kept under `fuzz/` through them in the normal suite.
//! `scripts/fuzz.py` runs the targets; `docs/reliability.md` has the latest campaign.
//!
//! The first byte of an input picks the game where the parser is per game ([`game_of`]).

mod bot;
mod cli;
mod files;
mod notation;
mod opening;
mod records;

pub use bot::{http, protocol};
pub use cli::cli;
pub use files::{bundle, checkpoint, config, onnx, shard};
pub use notation::{moves, position, rules};
pub use opening::files;
pub use records::records;

use zero_games::GameKind;

/// A target's check of one input.
pub type Check = fn(&[u8]);

/// Every target: its name (the cargo-fuzz target's and its corpus folder's) and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("position", position),
    ("moves", moves),
    ("rules", rules),
    ("records", records),
    ("config", config),
    ("protocol", protocol),
    ("http", http),
    ("shard", shard),
    ("checkpoint", checkpoint),
    ("bundle", bundle),
    ("onnx", onnx),
    ("cli", cli),
    ("files", files),
];

/// The game an input's first byte picks.
pub fn game_of(byte: u8) -> GameKind {
    GameKind::ALL[byte as usize % GameKind::ALL.len()]
}

/// Panics with `what` when a check that must hold does not.
fn holds(check: Result<(), impl std::fmt::Display>, what: &str) {
    if let Err(broken) = check {
        panic!("{what}: {broken}");
    }
}
