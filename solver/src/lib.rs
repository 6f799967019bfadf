//! Connect Four solved by search: the exact game-theoretic value of any position and of each of its moves;
//! the perfect-play yardstick of zero's Connect Four bots (docs/benchmarks.md).
//!
//! The game is the standard one: 7 columns of 6 rows, four in a row (across, up or diagonal) wins, a full
//! board is a draw. The approach is Pascal Pons' (his "Solving Connect 4" tutorial), written anew:
//!
//! - [`Position`]: the board as two 64-bit bitboards, built from a move sequence ("4453", columns 1-7) or
//!   from bitboards, with every input checked; [`PositionError`] says what is wrong with a refused one.
//! - [`Value`]: win or loss in so many plies, or draw, for the side to move; and Pons' integer score, the
//!   same information in one number ([`Value::score`], [`Value::from_score`]).
//! - [`Outcome`]: win, draw or loss without the distance, what the faster weak solve
//!   ([`Solver::outcome`]) gives.
//! - [`Solver`]: negamax with alpha-beta pruning, probed with null windows until the score is exact; a
//!   transposition table of upper and lower bounds; moves that let the opponent win at once never searched;
//!   the others tried in order of the winning cells they create, centre first among equals.
//!
//! The exact score gives the exact distance: it counts the winner's stones at its win, so the plies to the
//! end under perfect play (the winner fastest, the loser slowest) follow from it.
//!
//! Measured on one core of the development machine (`cargo run -p zero-solver --release --example solve`):
//! positions of 10 or more stones met in play take milliseconds, rarely a second; the empty board, a win for
//! the first player with its last stone (41 plies) by playing the centre, takes minutes. See
//! `examples/solve.rs` for the figures.
//!
//! No torch, and no other zero crate: only the rules of Connect Four and the search.

mod position;
mod solver;
mod table;
mod value;

pub use position::{Position, PositionError};
pub use solver::{DEFAULT_TABLE_BITS, MAX_TABLE_BITS, Solver, TableBitsError};
pub use value::{Outcome, ScoreError, Value};

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Rows of the board.
pub const HEIGHT: usize = 6;
