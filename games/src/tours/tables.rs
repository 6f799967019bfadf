//! Precomputed tables of the Tours board: neighbours, line shifts, symmetries and Zobrist keys.
//!
//! Square index = file + 8 * rank (a1 = 0, h1 = 7, a8 = 56); a set of squares is a `u64` bitboard.

pub(crate) use crate::grid::DIR_IMAGE;
use crate::grid::{DIR_VECTORS, SQUARE_SYMMETRIES, cell_images, opposite};
use crate::zobrist;

pub(crate) const SQUARES: usize = 64;
/// Off the board.
pub(crate) const NONE: u8 = u8::MAX;
/// The tallest stack: a FORM stacks at most a whole line of 8 pawns; a COLLAPSE makes murets only.
pub(crate) const MAX_HEIGHT: usize = 8;

/// `NEXT[square][dir]`: the adjacent square in direction `dir`, or [`NONE`] at the edge.
pub(crate) const NEXT: [[u8; 8]; SQUARES] = {
    let mut table = [[NONE; 8]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 8 {
            let f = (s % 8) as i32 + DIR_VECTORS[d].0;
            let r = (s / 8) as i32 + DIR_VECTORS[d].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[s][d] = (f + 8 * r) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    table
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Moves every square of `set` one step in direction `dir`, dropping what leaves the board.
#[inline]
pub(crate) fn shift(set: u64, dir: usize) -> u64 {
    let (df, dr) = DIR_VECTORS[dir];
    let amount = df + 8 * dr;
    let moved = if amount >= 0 { set << amount } else { set >> -amount };
    match df {
        1 => moved & !FILE_A,
        -1 => moved & !FILE_H,
        _ => moved,
    }
}

/// Number of FORMs open to the lone pawns `lone` of one colour: every run of k >= 2 of them along a line counts
/// twice (either end may be the base).
pub(crate) fn count_forms(lone: u64) -> u64 {
    let mut total = 0;
    // n, ne, e, se: each line once.
    for dir in 0..4 {
        let back = opposite(dir);
        let mut starts = lone;
        loop {
            // Squares starting a run one longer: lone, and the next square starts the shorter run.
            starts = lone & shift(starts, back);
            if starts == 0 {
                break;
            }
            total += starts.count_ones() as u64;
        }
    }
    2 * total
}

/// `SQUARE_IMAGE[sym][cell]`: where symmetry `sym` maps a cell.
pub(crate) const SQUARE_IMAGE: [[u8; SQUARES]; SQUARE_SYMMETRIES] = cell_images::<SQUARES>(8);

/// A set of squares under symmetry `sym`.
pub(crate) fn map_squares(sym: usize, set: u64) -> u64 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let q = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << SQUARE_IMAGE[sym][q];
    }
    out
}

const STACK_KEYS: usize = 2 * SQUARES * (MAX_HEIGHT + 1);
const KEYS: [u64; STACK_KEYS + 1 + SQUARES * 8] = zobrist::keys(0x7045_5253_0000_0003);

/// Key of a stack of `height` (1..=8) pawns of colour `colour` (0 white, 1 black) on `square`.
#[inline]
pub(crate) const fn stack_key(colour: usize, square: usize, height: usize) -> u64 {
    KEYS[(colour * SQUARES + square) * (MAX_HEIGHT + 1) + height]
}
/// Key xored in when Black is to move.
pub(crate) const BLACK_TO_MOVE_KEY: u64 = KEYS[STACK_KEYS];
/// Key of the compound variant's pending collapse: the tower on `square`, formed along `dir`.
#[inline]
pub(crate) const fn pending_key(square: usize, dir: usize) -> u64 {
    KEYS[STACK_KEYS + 1 + square * 8 + dir]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_matches_next() {
        for (s, neighbours) in NEXT.iter().enumerate() {
            for (d, &next) in neighbours.iter().enumerate() {
                let expected = if next == NONE { 0 } else { 1u64 << next };
                assert_eq!(shift(1 << s, d), expected, "square {s} dir {d}");
            }
        }
    }
}
