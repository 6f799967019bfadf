//! The network's input planes for Tours (`docs/encoding.md`, section "Tours").
//!
//! The planes speak of "own" and "opponent" stacks. The board is turned so that the side to move always starts
//! from the a1 corner: White's view is the board as it is, Black's is the board rotated by 180 degrees
//! (symmetry [`BLACK_VIEW`]).

use super::Tours;
use super::tables::{MAX_HEIGHT, NEXT, NONE, SQUARE_IMAGE, SQUARES};
use crate::Side;

/// Number of input planes.
pub(super) const PLANES: usize = 2 * MAX_HEIGHT + 3 + 6;
/// The symmetry that shows the board from Black's side: the rotation by 180 degrees (`grid::map_vector`).
pub(super) const BLACK_VIEW: usize = 2;
/// The most pawns a player has.
const PAWNS: f32 = super::PAWNS_PER_SIDE as f32;

const OWN: usize = 0;
const OPPONENT: usize = MAX_HEIGHT;
const EMPTY: usize = 2 * MAX_HEIGHT;
const PENDING_TOWER: usize = EMPTY + 1;
const PENDING_RAY: usize = EMPTY + 2;
/// First constant plane.
const SCALARS: usize = EMPTY + 3;

/// The symmetry under which the side to move sees the board.
pub(super) fn canonical_symmetry(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => BLACK_VIEW,
    }
}

/// `part / whole` clamped to `[0, 1]`; 0 when `whole` is 0 (a limit switched off).
fn ratio(part: u32, whole: u32) -> f32 {
    if whole == 0 {
        0.0
    } else {
        (part as f32 / whole as f32).min(1.0)
    }
}

impl Tours {
    /// Writes the network's input planes as seen after symmetry `sym`: exactly the planes that
    /// `self.transformed(sym)` would give if it were shown untransformed. [`crate::Encoding::encode`] is
    /// `encode_view(canonical_symmetry())`; other symmetries serve tests and data augmentation.
    pub fn encode_view(&self, sym: usize, planes: &mut [f32]) {
        assert_eq!(planes.len(), PLANES * SQUARES, "Tours planes are {PLANES} x 8 x 8");
        let image = &SQUARE_IMAGE[sym];
        let me = self.side.index();
        let (board, scalars) = planes.split_at_mut(SCALARS * SQUARES);
        board.fill(0.0);
        for (colour, first_plane) in [(me, OWN), (1 - me, OPPONENT)] {
            let mut set = self.occupied[colour];
            while set != 0 {
                let s = set.trailing_zeros() as usize;
                set &= set - 1;
                let plane = first_plane + self.height[s] as usize - 1;
                board[plane * SQUARES + image[s] as usize] = 1.0;
            }
        }
        let mut empty = !(self.occupied[0] | self.occupied[1]);
        while empty != 0 {
            let s = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            board[EMPTY * SQUARES + image[s] as usize] = 1.0;
        }
        if let Some((square, back)) = self.pending {
            board[PENDING_TOWER * SQUARES + image[square as usize] as usize] = 1.0;
            // The forbidden direction, drawn as the ray from the tower to the edge (at least one square: the
            // tower was formed from there).
            let mut at = NEXT[square as usize][back as usize];
            while at != NONE {
                board[PENDING_RAY * SQUARES + image[at as usize] as usize] = 1.0;
                at = NEXT[at as usize][back as usize];
            }
        }

        let rules = &self.rules;
        let values: [f32; PLANES - SCALARS] = [
            ratio(self.plies_without_capture, rules.no_capture_plies),
            ratio(self.ply, rules.max_plies),
            (self.pawns(self.side) as f32 / PAWNS).min(1.0),
            (self.pawns(self.side.other()) as f32 / PAWNS).min(1.0),
            if rules.compound { 1.0 } else { 0.0 },
            1.0,
        ];
        for (plane, value) in scalars.chunks_exact_mut(SQUARES).zip(values) {
            plane.fill(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_view_is_the_half_turn() {
        for (s, &image) in SQUARE_IMAGE[BLACK_VIEW].iter().enumerate() {
            assert_eq!(image as usize, SQUARES - 1 - s);
        }
    }
}
