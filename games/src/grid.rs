//! Square boards shared by Bagh Chal (5x5 points) and Tours (8x8 squares): the eight compass directions and
//! the eight symmetries of the square, as index maps that the games turn into tables (and the trainer, on any
//! rectangular board, to augment samples).
//!
//! Coordinates are `(file, rank)` from `(0, 0)` = a1; north is towards higher ranks.

/// Direction names, in action-layout order: n, ne, e, se, s, sw, w, nw.
pub(crate) const DIR_NAMES: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

/// `(file step, rank step)` of each direction, in the order of [`DIR_NAMES`].
pub(crate) const DIR_VECTORS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The direction opposite `dir`.
pub(crate) const fn opposite(dir: usize) -> usize {
    (dir + 4) % 8
}

/// The direction index of a unit vector, if it is one of the eight.
pub(crate) const fn dir_of(df: i32, dr: i32) -> Option<usize> {
    let mut d = 0;
    while d < 8 {
        if DIR_VECTORS[d].0 == df && DIR_VECTORS[d].1 == dr {
            return Some(d);
        }
        d += 1;
    }
    None
}

/// Parses a direction name (`n`, `ne`, ...).
pub(crate) fn parse_dir(text: &str) -> Option<usize> {
    DIR_NAMES.iter().position(|&name| name == text)
}

/// Symmetry `sym` (0..8) applied to a vector: 0 identity, 1-3 rotations by 90/180/270 degrees
/// anticlockwise, 4 mirror of files (a<->e), 5 mirror of ranks, 6 reflection in the a1-h8 diagonal,
/// 7 reflection in the other diagonal.
pub(crate) const fn map_vector(sym: usize, x: i32, y: i32) -> (i32, i32) {
    match sym {
        0 => (x, y),
        1 => (-y, x),
        2 => (-x, -y),
        3 => (y, -x),
        4 => (-x, y),
        5 => (x, -y),
        6 => (y, x),
        _ => (-y, -x),
    }
}

/// Symmetry `sym` applied to the cell `(file, rank)` of an `n` x `n` board.
pub const fn map_cell(sym: usize, file: i32, rank: i32, n: i32) -> (i32, i32) {
    map_cell_in(sym, file, rank, n, n)
}

/// Symmetry `sym` applied to the cell `(file, rank)` of a `width` x `height` board (public: the trainer maps
/// stored input planes with it). On a board that is not square only the symmetries that keep its shape (0, 2, 4
/// and 5) map cells onto cells; [`keeps_shape`] says which.
pub const fn map_cell_in(sym: usize, file: i32, rank: i32, width: i32, height: i32) -> (i32, i32) {
    // Centre the board at the origin (doubled coordinates stay integral), map, shift back.
    let (x, y) = map_vector(sym, 2 * file - (width - 1), 2 * rank - (height - 1));
    ((x + width - 1) / 2, (y + height - 1) / 2)
}

/// Whether symmetry `sym` maps a `width` x `height` board onto itself: every symmetry of a square, and of a
/// rectangle those that keep the axes (the identity, the turn by 180 degrees and the two mirrors).
pub const fn keeps_shape(sym: usize, width: i32, height: i32) -> bool {
    width == height || matches!(sym, 0 | 2 | 4 | 5)
}

/// Symmetry `sym` applied to a direction.
pub(crate) const fn map_dir(sym: usize, dir: usize) -> usize {
    let (x, y) = map_vector(sym, DIR_VECTORS[dir].0, DIR_VECTORS[dir].1);
    match dir_of(x, y) {
        Some(d) => d,
        None => panic!("symmetries map directions to directions"),
    }
}

/// Number of symmetries of the square.
pub(crate) const SQUARE_SYMMETRIES: usize = 8;

/// `cell_images::<C>(n)[sym][cell]`: where symmetry `sym` maps cell `cell` (`file + n * rank`) of an `n` x `n`
/// board with `C = n * n` cells.
pub(crate) const fn cell_images<const C: usize>(n: usize) -> [[u8; C]; SQUARE_SYMMETRIES] {
    let mut table = [[0; C]; SQUARE_SYMMETRIES];
    let mut s = 0;
    while s < SQUARE_SYMMETRIES {
        let mut c = 0;
        while c < C {
            let (f, r) = map_cell(s, (c % n) as i32, (c / n) as i32, n as i32);
            table[s][c] = (f + n as i32 * r) as u8;
            c += 1;
        }
        s += 1;
    }
    table
}

/// `DIR_IMAGE[sym][dir]`: where symmetry `sym` maps direction `dir`.
pub(crate) const DIR_IMAGE: [[u8; 8]; SQUARE_SYMMETRIES] = {
    let mut table = [[0; 8]; SQUARE_SYMMETRIES];
    let mut s = 0;
    while s < SQUARE_SYMMETRIES {
        let mut d = 0;
        while d < 8 {
            table[s][d] = map_dir(s, d) as u8;
            d += 1;
        }
        s += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_bijections_and_compose_with_directions() {
        for sym in 0..SQUARE_SYMMETRIES {
            for n in [5, 8] {
                let mut seen = vec![false; (n * n) as usize];
                for f in 0..n {
                    for r in 0..n {
                        let (g, s) = map_cell(sym, f, r, n);
                        assert!((0..n).contains(&g) && (0..n).contains(&s));
                        seen[(g + s * n) as usize] = true;
                        for d in 0..8 {
                            let (df, dr) = DIR_VECTORS[d];
                            let (g2, s2) = map_cell(sym, f + df, r + dr, n);
                            let (mf, mr) = DIR_VECTORS[map_dir(sym, d)];
                            assert_eq!((g2 - g, s2 - s), (mf, mr));
                        }
                    }
                }
                assert!(seen.iter().all(|&x| x));
            }
        }
    }
}
