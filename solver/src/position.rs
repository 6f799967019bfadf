//! A Connect Four position as two bitboards, its construction from untrusted input, and the bit tricks the
//! search uses (the cells that would complete a four, the moves that do not lose at once).
//!
//! Layout: bit `column * 7 + row` is the cell of `column` (0 = leftmost) and `row` (0 = bottom). Each column
//! has one bit more than the board is high, the guard row, which never holds a stone: it stops the shifts
//! that look for fours from running from the top of one column into the bottom of the next.

use crate::{HEIGHT, WIDTH};

/// Bits per column: the board's rows and the guard row above them.
const COLUMN_BITS: usize = HEIGHT + 1;
/// Cells on the board.
const CELLS: usize = WIDTH * HEIGHT;
/// The bottom cell of every column.
const BOTTOM: u64 = repeat_per_column(1);
/// Every cell of the board, the guard rows left out.
const BOARD: u64 = repeat_per_column((1 << HEIGHT) - 1);
/// The shifts from a cell to its neighbour along a line: up, right, up-right, down-right.
const DIRECTIONS: [usize; 4] = [1, COLUMN_BITS, COLUMN_BITS + 1, COLUMN_BITS - 1];

/// `column_bits` placed in every column.
const fn repeat_per_column(column_bits: u64) -> u64 {
    let mut bits = 0;
    let mut column = 0;
    while column < WIDTH {
        bits |= column_bits << (column * COLUMN_BITS);
        column += 1;
    }
    bits
}

/// The cells of `column`.
pub(crate) const fn column_cells(column: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (column * COLUMN_BITS)
}

/// The top cell of `column`.
const fn top_cell(column: usize) -> u64 {
    1 << (HEIGHT - 1 + column * COLUMN_BITS)
}

/// Why a sequence of moves or a pair of bitboards is not a position to solve. Columns in the messages are
/// counted 1 to 7, as in the move notation; the `column` fields count from 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A character of a move sequence is not one of the digits `1` to `7`.
    #[error("move {number}: {character:?} is not a column (the digits 1 to 7)")]
    NotAColumn { number: usize, character: char },
    /// A 0-based column index is 7 or more.
    #[error("move {number}: column index {column} is off the board (indices 0 to 6)")]
    ColumnOffBoard { number: usize, column: usize },
    /// A move into a column that is already full.
    #[error("move {number}: column {} is full", .column + 1)]
    ColumnFull { number: usize, column: usize },
    /// A move that completes a four: the game would be over, with nothing left to solve.
    #[error("move {number}: column {} wins the game, and a finished game has no position to solve", .column + 1)]
    MoveWins { number: usize, column: usize },
    /// Bits of a bitboard outside the 7x6 board (in a guard row or above bit 48).
    #[error("bits {bits:#x} lie outside the 7x6 board")]
    OffBoard { bits: u64 },
    /// Stones of the side to move where the mask of all stones has none.
    #[error("`current` has stones at bits {bits:#x}, which `mask` lacks")]
    CurrentOutsideMask { bits: u64 },
    /// A stone above an empty cell.
    #[error("column {} has a stone in row {} (from 1 at the bottom) above an empty cell", .column + 1, .row + 1)]
    FloatingStone { column: usize, row: usize },
    /// Stone counts that do not fit the side to move: with an even number played, both sides have as many
    /// stones; with an odd number, the side that moved first has one more.
    #[error("the side to move has {to_move} stones and the other side {other}: impossible with it to move")]
    StoneCounts { to_move: u32, other: u32 },
    /// A four on the board already.
    #[error("the {} already has four in a row: the game is over", side_name(.side_to_move))]
    AlreadyWon { side_to_move: bool },
}

/// How [`PositionError::AlreadyWon`] names the side.
fn side_name(side_to_move: &bool) -> &'static str {
    if *side_to_move {
        "side to move"
    } else {
        "side that just moved"
    }
}

/// A Connect Four position before the game is over: no four on the board (a full board, a draw, is allowed).
///
/// `current` holds the stones of the side to move, `mask` every stone; the side to move is the first player
/// when an even number of stones have been played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Position {
    current: u64,
    mask: u64,
    stones: u32,
}

impl Position {
    /// The empty board, the first player to move.
    pub fn new() -> Position {
        Position::default()
    }

    /// The position after `text`, a sequence of columns numbered 1 (leftmost) to 7, as in Pascal Pons'
    /// notation: "44" is both players in the centre column. Refuses a character that is not a column, a move
    /// into a full column, and a move that wins, since the game would then be over.
    pub fn from_moves(text: &str) -> Result<Position, PositionError> {
        let mut position = Position::new();
        for (index, character) in text.chars().enumerate() {
            let number = index + 1;
            let column = match character {
                '1'..='7' => character as usize - '1' as usize,
                _ => return Err(PositionError::NotAColumn { number, character }),
            };
            position.play(column)?;
        }
        Ok(position)
    }

    /// The position after the moves `columns`, numbered from 0 (leftmost) to 6; refuses what
    /// [`Position::from_moves`] does.
    pub fn from_columns(columns: &[u8]) -> Result<Position, PositionError> {
        let mut position = Position::new();
        for &column in columns {
            position.play(usize::from(column))?;
        }
        Ok(position)
    }

    /// The position with the stones `current` of the side to move and all stones `mask`, in the layout of
    /// the module documentation. Refuses bits outside the board, floating stones, stone counts that do not
    /// fit the side to move (see [`PositionError::StoneCounts`]), and a four of either side.
    pub fn from_bitboards(current: u64, mask: u64) -> Result<Position, PositionError> {
        let off_board = (current | mask) & !BOARD;
        if off_board != 0 {
            return Err(PositionError::OffBoard { bits: off_board });
        }
        if current & !mask != 0 {
            return Err(PositionError::CurrentOutsideMask { bits: current & !mask });
        }
        check_gravity(mask)?;
        let to_move = current.count_ones();
        let other = mask.count_ones() - to_move;
        let first_player_to_move = mask.count_ones().is_multiple_of(2);
        if (first_player_to_move && to_move != other) || (!first_player_to_move && other != to_move + 1) {
            return Err(PositionError::StoneCounts { to_move, other });
        }
        for (stones, side_to_move) in [(current, true), (current ^ mask, false)] {
            if has_four(stones) {
                return Err(PositionError::AlreadyWon { side_to_move });
            }
        }
        Ok(Position {
            current,
            mask,
            stones: mask.count_ones(),
        })
    }

    /// The stones of the side to move.
    pub fn current(&self) -> u64 {
        self.current
    }

    /// All stones.
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// The number of stones on the board.
    pub fn moves_played(&self) -> usize {
        self.stones as usize
    }

    /// Whether `column` (0-based) is on the board and not full.
    pub fn can_play(&self, column: usize) -> bool {
        column < WIDTH && self.mask & top_cell(column) == 0
    }

    /// Whether playing `column` (0-based) is legal and completes a four for the side to move.
    pub fn is_winning_move(&self, column: usize) -> bool {
        self.can_play(column) && self.winning_cells() & self.drop_cell(column) != 0
    }

    /// Plays `column` (0-based) for the side to move. Refuses a column off the board, a full column, and a
    /// winning move, which would end the game (check [`Position::is_winning_move`] first).
    pub fn play(&mut self, column: usize) -> Result<(), PositionError> {
        let number = self.moves_played() + 1;
        if column >= WIDTH {
            return Err(PositionError::ColumnOffBoard { number, column });
        }
        if !self.can_play(column) {
            return Err(PositionError::ColumnFull { number, column });
        }
        if self.is_winning_move(column) {
            return Err(PositionError::MoveWins { number, column });
        }
        self.play_cell(self.drop_cell(column));
        Ok(())
    }

    /// The columns (0-based) that are not full, left to right.
    pub fn legal_columns(&self) -> impl Iterator<Item = usize> + use<> {
        let position = *self;
        (0..WIDTH).filter(move |&column| position.can_play(column))
    }

    /// Whether every cell holds a stone: the game is drawn.
    pub fn is_full(&self) -> bool {
        self.stones as usize == CELLS
    }

    /// Places a stone of the side to move on `cell`, a playable cell, and passes the move.
    pub(crate) fn play_cell(&mut self, cell: u64) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.stones += 1;
    }

    /// The cell a stone dropped into `column` lands on (none if the column is full).
    pub(crate) fn drop_cell(&self, column: usize) -> u64 {
        self.playable_cells() & column_cells(column)
    }

    /// The lowest empty cell of every column that is not full.
    pub(crate) fn playable_cells(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    /// A number that tells positions apart: each column's stones of the side to move below a marker bit just
    /// above the column's top stone. Never 0.
    pub(crate) fn key(&self) -> u64 {
        self.current + self.mask + BOTTOM
    }

    /// The empty cells that would complete a four for the side to move.
    pub(crate) fn winning_cells(&self) -> u64 {
        completing_cells(self.current, self.mask)
    }

    /// The empty cells that would complete a four for the side that just moved.
    pub(crate) fn opponent_winning_cells(&self) -> u64 {
        completing_cells(self.current ^ self.mask, self.mask)
    }

    /// Whether the side to move has a winning move.
    pub(crate) fn can_win_now(&self) -> bool {
        self.winning_cells() & self.playable_cells() != 0
    }

    /// The playable cells after which the opponent cannot win at once; for a side to move that cannot win
    /// now. None when the opponent threatens two cells at once or every move opens a cell under its threat.
    pub(crate) fn non_losing_cells(&self) -> u64 {
        let threats = self.opponent_winning_cells();
        let mut candidates = self.playable_cells();
        let must_block = candidates & threats;
        if must_block != 0 {
            if must_block & (must_block - 1) != 0 {
                return 0;
            }
            candidates = must_block;
        }
        // A stone just below an opponent's threat would let it play there.
        candidates & !(threats >> 1)
    }

    /// How many cells would complete a four for the side to move after it plays `cell`: the more, the more
    /// promising the move, which is why the search tries it earlier.
    pub(crate) fn threats_after(&self, cell: u64) -> u32 {
        completing_cells(self.current | cell, self.mask).count_ones()
    }
}

/// The empty cells of the board (given all stones `mask`) that would complete a four with `stones`: three of
/// them in line with the cell, in any of the arrangements around it.
fn completing_cells(stones: u64, mask: u64) -> u64 {
    // Up a column, only the three stones below an empty cell can make its four.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for shift in [COLUMN_BITS, COLUMN_BITS + 1, COLUMN_BITS - 1] {
        let (before, after) = (stones << shift, stones >> shift);
        let two_before = before & (stones << (2 * shift));
        let two_after = after & (stones >> (2 * shift));
        cells |= two_before & (after | (stones << (3 * shift)));
        cells |= two_after & (before | (stones >> (3 * shift)));
    }
    cells & BOARD & !mask
}

/// Whether `stones` hold four in a row.
fn has_four(stones: u64) -> bool {
    DIRECTIONS.iter().any(|&shift| {
        let pairs = stones & (stones >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

/// Refuses a stone above an empty cell.
fn check_gravity(mask: u64) -> Result<(), PositionError> {
    for column in 0..WIDTH {
        let cells = (mask & column_cells(column)) >> (column * COLUMN_BITS);
        // Stones without a gap from the bottom are a run of low bits: adding one leaves a single bit.
        if cells & (cells + 1) != 0 {
            let gap = (cells + 1).trailing_zeros();
            let row = (gap + (cells >> gap).trailing_zeros()) as usize;
            return Err(PositionError::FloatingStone { column, row });
        }
    }
    Ok(())
}
