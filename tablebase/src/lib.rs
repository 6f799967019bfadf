//! Ground truth for Bagh Chal: the sliding phase (every goat placed, 0-4 captured) solved by retrograde analysis.
//!
//! - [`retro`]: the solver of one layer of a game graph, game-independent: value and plies to the end of every
//!   position, draws where neither side can force an end.
//! - [`index`]: the numbering of the sliding-phase positions, one layer per capture count.
//! - [`slide`]: Bagh Chal's moves and unmoves on that numbering, under the `threefold-draw` rules.
//! - [`classes`]: the positions counted once per symmetry class, by value.
//!
//! No torch: it depends on the rules core alone.

pub mod classes;
pub mod index;
pub mod retro;
pub mod slide;
