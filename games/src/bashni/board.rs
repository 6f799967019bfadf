//! The board: a tower per square, packed two bits per piece, with bitboards of the commanders.

use crate::Side;
use crate::zobrist;

/// One piece: its colour and whether it is a king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub colour: Side,
    pub king: bool,
}

impl Piece {
    /// Two-bit code: bit 0 = Black, bit 1 = king.
    #[inline]
    pub(crate) fn code(self) -> u64 {
        self.colour.index() as u64 | (self.king as u64) << 1
    }

    #[inline]
    pub(crate) fn from_code(code: u64) -> Piece {
        Piece {
            colour: Side::from_index((code & 1) as usize),
            king: code & 2 != 0,
        }
    }

    /// `w`, `b` for men and `W`, `B` for kings.
    pub fn letter(self) -> char {
        match (self.colour, self.king) {
            (Side::First, false) => 'w',
            (Side::Second, false) => 'b',
            (Side::First, true) => 'W',
            (Side::Second, true) => 'B',
        }
    }

    pub fn from_letter(letter: char) -> Option<Piece> {
        let colour = match letter.to_ascii_lowercase() {
            'w' => Side::First,
            'b' => Side::Second,
            _ => return None,
        };
        Some(Piece {
            colour,
            king: letter.is_ascii_uppercase(),
        })
    }
}

/// A tower as packed on the board: piece `i` from the top in bits `2i..2i+2`, the height in bits 56..64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tower(pub(crate) u64);

const PIECE_BITS: u64 = (1 << 48) - 1;
const ONE_HIGHER: u64 = 1 << 56;

impl Tower {
    pub(crate) const EMPTY: Tower = Tower(0);

    /// A one-piece tower.
    pub(crate) fn single(piece: Piece) -> Tower {
        Tower(piece.code() | ONE_HIGHER)
    }

    /// The tower of `pieces`, top first (at most 24).
    pub(crate) fn from_pieces(pieces: &[Piece]) -> Tower {
        let mut tower = Tower::EMPTY;
        for &piece in pieces {
            tower.put_under(piece.code());
        }
        tower
    }

    pub fn height(self) -> usize {
        (self.0 >> 56) as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The top piece, which decides who owns the tower and how it moves.
    pub fn commander(self) -> Option<Piece> {
        (!self.is_empty()).then(|| Piece::from_code(self.0 & 3))
    }

    /// The pieces from the top down.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        (0..self.height() as u32).map(move |i| Piece::from_code(self.0 >> (2 * i) & 3))
    }

    /// Adds a piece at the bottom (a capture).
    #[inline]
    pub(crate) fn put_under(&mut self, code: u64) {
        self.0 = (self.0 | code << (2 * self.height() as u32)) + ONE_HIGHER;
    }

    /// Removes the top piece and returns its code.
    #[inline]
    pub(crate) fn pop_top(&mut self) -> u64 {
        let code = self.0 & 3;
        self.0 = ((self.0 & PIECE_BITS) >> 2 | (self.0 & !PIECE_BITS)) - ONE_HIGHER;
        code
    }

    /// Puts a piece back on top (undoes [`Tower::pop_top`]).
    #[inline]
    pub(crate) fn push_top(&mut self, code: u64) {
        self.0 = ((self.0 & PIECE_BITS) << 2 | code | (self.0 & !PIECE_BITS)) + ONE_HIGHER;
    }

    /// Crowns the commander.
    #[inline]
    pub(crate) fn crown(&mut self) {
        self.0 |= 2;
    }

    /// The tower with every piece's colour swapped.
    pub(crate) fn colours_swapped(self) -> Tower {
        let height = self.height() as u32;
        let low_bits = if height == 0 {
            0
        } else {
            0x5555_5555_5555_5555u64 >> (64 - 2 * height)
        };
        Tower(self.0 ^ low_bits)
    }
}

const SQUARE_KEYS: [u64; 32] = zobrist::keys(0xBA54_0001);

/// The hash of one square's tower: zero when empty, otherwise a mix of the whole stack, so that the board hash
/// is the xor of the squares and updates square by square.
#[inline]
pub(crate) fn square_hash(square: usize, tower: Tower) -> u64 {
    if tower.is_empty() {
        return 0;
    }
    let mut z = tower.0 ^ SQUARE_KEYS[square];
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every tower, plus the squares commanded by each colour and by kings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Board {
    pub towers: [Tower; 32],
    /// Squares whose commander is White (index 0) / Black (index 1).
    pub by_colour: [u32; 2],
    /// Squares whose commander is a king.
    pub kings: u32,
}

impl Board {
    pub fn empty() -> Board {
        Board {
            towers: [Tower::EMPTY; 32],
            by_colour: [0; 2],
            kings: 0,
        }
    }

    /// The initial position: White men on ranks 1-3, Black men on ranks 6-8.
    pub fn initial() -> Board {
        let mut board = Board::empty();
        for s in 0..12 {
            board.place(
                s,
                Tower::single(Piece {
                    colour: Side::First,
                    king: false,
                }),
            );
            board.place(
                31 - s,
                Tower::single(Piece {
                    colour: Side::Second,
                    king: false,
                }),
            );
        }
        board
    }

    #[inline]
    pub fn occupied(&self) -> u32 {
        self.by_colour[0] | self.by_colour[1]
    }

    /// Re-derives the bitboards of one square from its tower.
    #[inline]
    fn refresh(&mut self, s: usize) {
        let bit = 1u32 << s;
        self.by_colour[0] &= !bit;
        self.by_colour[1] &= !bit;
        self.kings &= !bit;
        let tower = self.towers[s];
        if !tower.is_empty() {
            self.by_colour[(tower.0 & 1) as usize] |= bit;
            if tower.0 & 2 != 0 {
                self.kings |= bit;
            }
        }
    }

    /// Puts a tower on an empty square.
    #[inline]
    pub fn place(&mut self, s: usize, tower: Tower) {
        self.towers[s] = tower;
        self.refresh(s);
    }

    /// Takes the whole tower off a square.
    #[inline]
    pub fn lift(&mut self, s: usize) -> Tower {
        let tower = self.towers[s];
        self.towers[s] = Tower::EMPTY;
        let bit = !(1u32 << s);
        self.by_colour[0] &= bit;
        self.by_colour[1] &= bit;
        self.kings &= bit;
        tower
    }

    /// Removes the top piece of a tower (its code), exposing the next one.
    #[inline]
    pub fn pop_top(&mut self, s: usize) -> u64 {
        let code = self.towers[s].pop_top();
        self.refresh(s);
        code
    }

    /// Puts a piece back on top of a tower (undoes [`Board::pop_top`]).
    #[inline]
    pub fn push_top(&mut self, s: usize, code: u64) {
        self.towers[s].push_top(code);
        self.refresh(s);
    }

    /// Adds a piece at the bottom of the tower on `s` (its commander does not change).
    #[inline]
    pub fn put_under(&mut self, s: usize, code: u64) {
        self.towers[s].put_under(code);
    }

    pub fn hash(&self) -> u64 {
        (0..32).fold(0, |h, s| h ^ square_hash(s, self.towers[s]))
    }

    /// The board turned by 180 degrees with every piece's colour swapped.
    pub fn turned_and_swapped(&self) -> Board {
        let mut board = Board::empty();
        for s in 0..32 {
            board.place(31 - s, self.towers[s].colours_swapped());
        }
        board
    }

    /// Pieces of each colour on the board (commanders and prisoners).
    pub fn piece_counts(&self) -> [usize; 2] {
        let mut counts = [0; 2];
        for tower in &self.towers {
            for piece in tower.pieces() {
                counts[piece.colour.index()] += 1;
            }
        }
        counts
    }
}
