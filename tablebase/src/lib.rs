//! Ground truth for Bagh Chal: the sliding phase (every goat placed, 0-4 captured) solved by retrograde analysis,
//! kept in a file, and probed, with an exact search back into the last placements.
//!
//! - [`retro`]: the solver of one layer of a game graph, game-independent: value and plies to the end of every
//!   position, draws where neither side can force an end.
//! - [`index`]: the numbering of the sliding-phase positions, one layer per capture count.
//! - [`slide`]: Bagh Chal's moves and unmoves on that numbering, under the `threefold-draw` rules.
//! - [`classes`]: the positions counted once per symmetry class, by value.
//! - [`table`]: the solved values as kept (one block per symmetry orbit of tiger sets), looked up and
//!   re-checked against their children.
//! - [`mod@file`]: the tablebase file (versioned header, checksum, atomic writing) and its errors.
//! - [`solve`]: solving into a file, restartable layer by layer.
//! - [`probe`]: a game's value and each move's, from the table or by exact search of the last placements.
//!
//! No torch: it depends on the rules core alone.

pub mod classes;
pub mod file;
pub mod index;
pub mod probe;
pub mod retro;
pub mod slide;
pub mod solve;
pub mod table;

pub use file::{Header, TablebaseError};
pub use probe::{NoAnswer, Probe};
pub use retro::Value;
pub use table::Table;

/// Where a tablebase is solved to and looked for when no file is named: `$ZERO_CACHE/tablebases/baghchal.tb`
/// (`~/.cache/zero/...` by default); none without a home directory.
pub fn default_path() -> Option<std::path::PathBuf> {
    zero_io::zero_cache_dir().map(|dir| dir.join("tablebases").join("baghchal.tb"))
}

/// Opens the finished tablebase `file`, or the default one ([`default_path`]) when none is named; a default
/// one not solved yet is [`TablebaseError::NotSolved`], which says how to solve it.
pub fn open(file: Option<&std::path::Path>) -> Result<Table, TablebaseError> {
    let path = match file {
        Some(path) => path.to_path_buf(),
        None => default_path().ok_or(TablebaseError::NoDefault)?,
    };
    if file.is_none() && !path.exists() {
        return Err(TablebaseError::NotSolved { path });
    }
    Ok(Table::open(&path)?.0)
}
