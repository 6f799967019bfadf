//! The 32 dark squares, the four diagonal directions and the one-step shifts of 32-bit square sets.
//!
//! Square index `s = rank * 4 + file / 2` (rank and file from 0): a1 = 0, c1 = 1, e1 = 2, g1 = 3, b2 = 4, ...,
//! h8 = 31. Bit `s` of a `u32` stands for square `s`. Turning the board by 180 degrees maps `s` to `31 - s`.

use std::fmt;

/// A dark square of the board, `0..32` (see the module docs for the numbering).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// All 32 squares in index order (a1, c1, e1, g1, b2, ...).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }

    /// The square with index `index` (`0..32`), if any.
    pub fn from_index(index: usize) -> Option<Square> {
        (index < 32).then_some(Square(index as u8))
    }

    /// The dark square on `file` and `rank` (both `0..8`), if it is one.
    pub fn from_file_rank(file: usize, rank: usize) -> Option<Square> {
        (file < 8 && rank < 8 && (file + rank).is_multiple_of(2)).then_some(Square((rank * 4 + file / 2) as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File `0..8` (a = 0).
    pub fn file(self) -> usize {
        file_of(self.0 as usize)
    }

    /// Rank `0..8` (rank 1 = 0).
    pub fn rank(self) -> usize {
        self.0 as usize / 4
    }

    /// Parses `a1`..`h8` or a PDN square number; light squares and anything else are refused with the reason.
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return Square::from_number(text);
        }
        let bytes = text.as_bytes();
        if bytes.len() != 2 || !(b'a'..=b'h').contains(&bytes[0]) || !(b'1'..=b'8').contains(&bytes[1]) {
            return Err(SquareError::NotASquare);
        }
        let (file, rank) = ((bytes[0] - b'a') as usize, (bytes[1] - b'1') as usize);
        Square::from_file_rank(file, rank).ok_or(SquareError::Light)
    }
}

/// Why a square's name was refused (the text itself is named by the caller).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("not a square (expected a1..h8)")]
    NotASquare,
    #[error("a light square: play is on the dark squares")]
    Light,
    #[error("not a square number (expected 1..32)")]
    NotANumber,
    #[error("{0:?} is not a square number (a range is of numbers 1..32)")]
    RangeEnd(String),
    #[error("the range {0}-{1} is backwards")]
    Backwards(usize, usize),
}

impl Square {
    /// A square by its PDN number on an 8x8 board with a1 dark (as the Russian and Brazilian games number it):
    /// 1 to 4 are b8, d8, f8, h8, and 29 to 32 are a1, c1, e1, g1.
    fn from_number(text: &str) -> Result<Square, SquareError> {
        let number: usize = text.parse().map_err(|_| SquareError::NotANumber)?;
        if !(1..=32).contains(&number) {
            return Err(SquareError::NotANumber);
        }
        let rank = 7 - (number - 1) / 4;
        let file = 2 * ((number - 1) % 4) + rank % 2;
        Ok(Square::from_file_rank(file, rank).expect("a dark square by construction"))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Directions: 0 = north-east (towards h8), 1 = north-west, 2 = south-east, 3 = south-west. `3 - d` is the
/// opposite direction. North is White's forward.
pub const DIRECTION_NAMES: [&str; 4] = ["ne", "nw", "se", "sw"];
const DIRECTION_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Marks "off the board" in [`NEIGHBOUR`].
pub const NONE: u8 = 255;

#[inline]
pub const fn file_of(s: usize) -> usize {
    2 * (s % 4) + (s / 4) % 2
}

const fn neighbours() -> [[u8; 4]; 32] {
    let mut table = [[NONE; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let (file, rank) = (file_of(s) as i32, (s / 4) as i32);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + DIRECTION_STEPS[d].0, rank + DIRECTION_STEPS[d].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[s][d] = (r * 4 + f / 2) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    table
}

/// The diagonal neighbour of each square in each direction, or [`NONE`].
pub static NEIGHBOUR: [[u8; 4]; 32] = neighbours();

/// The direction and distance from `from` to `to` when both lie on one diagonal (and differ).
pub fn direction_between(from: usize, to: usize) -> Option<(usize, usize)> {
    let (df, dr) = (
        file_of(to) as i32 - file_of(from) as i32,
        (to / 4) as i32 - (from / 4) as i32,
    );
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let d = DIRECTION_STEPS
        .iter()
        .position(|&(sf, sr)| sf == df.signum() && sr == dr.signum())?;
    Some((d, df.unsigned_abs() as usize))
}

/// The square `distance` steps from `from` in direction `d`, or [`NONE`] off the board.
pub fn walk(from: usize, d: usize, distance: usize) -> u8 {
    let mut s = from as u8;
    for _ in 0..distance {
        if s == NONE {
            break;
        }
        s = NEIGHBOUR[s as usize][d];
    }
    s
}

const EVEN_RANKS: u32 = 0x0F0F_0F0F;
const ODD_RANKS: u32 = 0xF0F0_F0F0;
/// Even-rank squares not on file a.
const EVEN_NOT_A: u32 = 0x0E0E_0E0E;
/// Odd-rank squares not on file h.
const ODD_NOT_H: u32 = 0x7070_7070;

/// Every square of `set` moved one step in direction `d`; steps off the board vanish. On an even rank the
/// squares towards the north are `+3` (north-west) and `+4` (north-east); on an odd rank `+4` and `+5`.
#[inline(always)]
pub fn step(set: u32, d: usize) -> u32 {
    match d {
        0 => ((set & EVEN_RANKS) << 4) | ((set & ODD_NOT_H) << 5),
        1 => ((set & EVEN_NOT_A) << 3) | ((set & ODD_RANKS) << 4),
        2 => ((set & EVEN_RANKS) >> 4) | ((set & ODD_NOT_H) >> 3),
        _ => ((set & EVEN_NOT_A) >> 5) | ((set & ODD_RANKS) >> 4),
    }
}

/// The far rank of each colour, where its men are crowned (White: rank 8, Black: rank 1).
pub const CROWN_RANK: [u32; 2] = [0xF000_0000, 0x0000_000F];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_agrees_with_the_neighbour_table() {
        for (s, row) in NEIGHBOUR.iter().enumerate() {
            for (d, &neighbour) in row.iter().enumerate() {
                let expected = match neighbour {
                    NONE => 0,
                    n => 1u32 << n,
                };
                assert_eq!(step(1 << s, d), expected, "square {s} direction {d}");
            }
        }
    }

    #[test]
    fn squares_parse_and_print() {
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h8").unwrap().index(), 31);
        assert_eq!(Square::parse("b2").unwrap().to_string(), "b2");
        assert_eq!(Square::parse("a2"), Err(SquareError::Light));
        assert!(Square::parse("i1").is_err());
        for s in Square::all() {
            assert_eq!(Square::parse(&s.to_string()), Ok(s));
            let turned = Square::from_file_rank(7 - s.file(), 7 - s.rank()).unwrap();
            assert_eq!(turned.index(), 31 - s.index());
        }
    }
}
