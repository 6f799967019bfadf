//! The network's input planes for Connect Four (`docs/encoding.md`, section "Connect Four").
//!
//! The board is never turned (the canonical symmetry is 0); the planes speak of the side to move's discs and the
//! opponent's, so both players see the same kind of board.

use super::{CELLS, Connect4, HEIGHT, WIDTH, cell_bit};
use crate::{Game, Side};

/// Number of input planes: own discs, opponent discs, the cells the next disc of each column lands on, and a
/// constant plane (1 when the side to move is the first player).
pub(super) const PLANES: usize = 4;
const AREA: usize = WIDTH * HEIGHT;

/// Writes the planes of `game`, cell `(row, column)` at `row * 7 + column`, row 0 the bottom row.
pub(super) fn encode(game: &Connect4, planes: &mut [f32]) {
    assert_eq!(planes.len(), PLANES * AREA, "Connect Four planes are {PLANES} x 6 x 7");
    let side = game.to_move();
    let own = game.discs(side);
    let theirs = game.discs(side.other());
    let landing = if game.ply() < CELLS { game.landing_cells() } else { 0 };
    let first = if side == Side::First { 1.0 } else { 0.0 };
    for row in 0..HEIGHT {
        for column in 0..WIDTH {
            let bit = cell_bit(column, row);
            let cell = row * WIDTH + column;
            planes[cell] = f32::from(own & bit != 0);
            planes[AREA + cell] = f32::from(theirs & bit != 0);
            planes[2 * AREA + cell] = f32::from(landing & bit != 0);
            planes[3 * AREA + cell] = first;
        }
    }
}
