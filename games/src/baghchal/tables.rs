//! Precomputed tables of the Bagh Chal board: points, lines, jumps, symmetries and Zobrist keys.
//!
//! Point index = file + 5 * rank (a1 = 0, e1 = 4, a5 = 20, e5 = 24); a set of points is a `u32` bitboard.

pub(crate) use crate::grid::DIR_IMAGE;
use crate::grid::{DIR_VECTORS, SQUARE_SYMMETRIES, cell_images};
use crate::zobrist;

pub const POINTS: usize = 25;
/// No point (off the board, or no line in that direction).
pub const NONE: u8 = u8::MAX;
pub const ALL_POINTS: u32 = (1 << POINTS) - 1;

/// Whether diagonal lines pass through a point: file + rank even.
pub(crate) const fn has_diagonals(point: usize) -> bool {
    (point % 5 + point / 5) & 1 == 0
}

const fn neighbour(point: usize, dir: usize) -> u8 {
    let (df, dr) = DIR_VECTORS[dir];
    let f = (point % 5) as i32 + df;
    let r = (point / 5) as i32 + dr;
    let diagonal = df != 0 && dr != 0;
    if f < 0 || f >= 5 || r < 0 || r >= 5 || (diagonal && !has_diagonals(point)) {
        NONE
    } else {
        (f + 5 * r) as u8
    }
}

/// `STEP[point][dir]`: the point joined to `point` by a line in direction `dir`, or [`NONE`].
pub const STEP: [[u8; 8]; POINTS] = {
    let mut table = [[NONE; 8]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 8 {
            table[p][d] = neighbour(p, d);
            d += 1;
        }
        p += 1;
    }
    table
};

/// `JUMP[point][dir]`: the landing point two steps along one straight line, or [`NONE`]. The jumped point is
/// `STEP[point][dir]`.
pub const JUMP: [[u8; 8]; POINTS] = {
    let mut table = [[NONE; 8]; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 8 {
            let over = STEP[p][d];
            if over != NONE {
                table[p][d] = STEP[over as usize][d];
            }
            d += 1;
        }
        p += 1;
    }
    table
};

/// `POINT_IMAGE[sym][cell]`: where symmetry `sym` maps a cell.
pub(crate) const POINT_IMAGE: [[u8; POINTS]; SQUARE_SYMMETRIES] = cell_images::<POINTS>(5);

/// A set of points under symmetry `sym`.
pub fn map_points(sym: usize, set: u32) -> u32 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1 << POINT_IMAGE[sym][p];
    }
    out
}

const KEYS: [u64; 2 * POINTS + 1 + 21 + 21] = zobrist::keys(0x0BA6_C4A1_0000_0001);
/// Key of a tiger on a point.
pub(crate) const fn tiger_key(point: usize) -> u64 {
    KEYS[point]
}
/// Key of a goat on a point.
pub(crate) const fn goat_key(point: usize) -> u64 {
    KEYS[POINTS + point]
}
/// Key xored in when the tigers are to move.
pub(crate) const TIGERS_TO_MOVE_KEY: u64 = KEYS[2 * POINTS];
/// Key of the number of goats in hand (0..=20).
pub(crate) const fn in_hand_key(count: u8) -> u64 {
    KEYS[2 * POINTS + 1 + count as usize]
}
/// Key of the number of goats captured (0..=20).
pub(crate) const fn captured_key(count: u8) -> u64 {
    KEYS[2 * POINTS + 1 + 21 + count as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_56_lines_and_13_diagonal_points() {
        let directed: usize = STEP.iter().map(|row| row.iter().filter(|&&p| p != NONE).count()).sum();
        assert_eq!(directed / 2, 56);
        assert_eq!((0..POINTS).filter(|&p| has_diagonals(p)).count(), 13);
        // A corner tiger can jump along three lines: two edges and the long diagonal.
        assert_eq!(JUMP[0].iter().filter(|&&p| p != NONE).count(), 3);
        // b1 has no diagonal: it jumps only along the edge and up the b file.
        assert_eq!(JUMP[1].iter().filter(|&&p| p != NONE).count(), 2);
    }

    #[test]
    fn symmetries_preserve_lines() {
        for s in 0..SQUARE_SYMMETRIES {
            for p in 0..POINTS {
                for d in 0..8 {
                    let q = STEP[p][d];
                    let image = STEP[POINT_IMAGE[s][p] as usize][DIR_IMAGE[s][d] as usize];
                    let expected = if q == NONE { NONE } else { POINT_IMAGE[s][q as usize] };
                    assert_eq!(image, expected);
                }
            }
        }
    }
}
