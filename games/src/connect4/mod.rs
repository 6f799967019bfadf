//! Connect Four, as `/work/shared/RULES.md` decides it: the field's common benchmark, here so that zero can be
//! scored against perfect play and compared with other workbenches on the same game.
//!
//! # Rules as implemented
//! - 7 columns a..g, 6 rows 1..6, row 1 at the bottom; the first player (`x`, [`Side::First`]) moves first.
//! - A move drops a disc of the mover's colour into a column that is not full; it lands on the lowest empty row.
//! - The mover wins on making four of their discs in a row, horizontally, vertically or diagonally
//!   ([`EndReason::Line`]); with all 42 cells full and no four, the game is drawn ([`EndReason::BoardFull`]). A
//!   move that makes four and fills the board wins.
//! - No rule options and no draw rules: every game ends within 42 plies, so self-play needs no cap.
//!
//! Choices where RULES.md is silent:
//! - The players are named `x` and `o`, as the notation writes their discs.
//! - [`Game::ply`] of a parsed position is its number of discs (every disc is one ply), so that a position and
//!   the game that reached it agree.
//! - A position string with a four in it is accepted only when the four can have been made by the last move (the
//!   last mover owns it and one of their top discs is in every four they have); the game is then over.
//!
//! # Notation
//! A move is its column letter, `a`..`g` (`d` is the centre); the parser also takes the cell the disc lands on
//! (`d1`) and Pons' column number 1-7. Positions: the six rows from the top (row 6 first), `x`, `o` or `.` per
//! cell (a digit 1-7 stands for that many empty cells), rows separated by `/`, then the side to move (`x` or `o`):
//! the start is `......./......./......./......./......./....... x`. `start` names it, and a string of column
//! numbers 1-7 alone (`4453`, Pons' test-set form) is the position reached by playing those columns from the
//! start.
//!
//! # Actions (7)
//! Action `c` drops a disc into column `c` (0 = a). One move is one action.
//!
//! Symmetries: 2, the identity and the left-right mirror (a<->g); the mirror is the square's symmetry 4 (mirror
//! of files) in `grid`'s numbering, which the trainer's augmentation uses ([`Encoding::grid_symmetry`]).

mod encode;
mod eval;
mod notation;

use crate::{
    Action, ActionList, BenchPositions, BoardStyle, Encoding, EndReason, Game, Heuristic, NotationError, Outcome,
    RulesError, Side,
};

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Rows of the board.
pub const HEIGHT: usize = 6;
/// Bits a column takes in a bitboard: its six cells and one always-empty guard bit above them, which keeps the
/// shifts of the four-in-a-row test from wrapping into the next column.
const COLUMN_BITS: usize = HEIGHT + 1;
/// Cells on the board: the most plies a game can last.
pub const CELLS: u32 = (WIDTH * HEIGHT) as u32;

/// The bit of cell (`column`, `row`), row 0 at the bottom.
#[inline]
pub const fn cell_bit(column: usize, row: usize) -> u64 {
    1 << (column * COLUMN_BITS + row)
}

/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut mask = 0;
    let mut c = 0;
    while c < WIDTH {
        mask |= cell_bit(c, 0);
        c += 1;
    }
    mask
};
/// Every cell of the board (guard bits excluded).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// The top cell of every column: a column is full when its top cell is taken.
const TOP: u64 = BOTTOM << (HEIGHT - 1);

/// Zobrist keys: one per colour and bit (guard bits unused), then the second player to move.
const KEYS: [u64; 2 * WIDTH * COLUMN_BITS + 1] = crate::zobrist::keys(0xC4C4_0001);
const O_TO_MOVE_KEY: u64 = KEYS[2 * WIDTH * COLUMN_BITS];

#[inline]
fn disc_key(side: Side, bit: u32) -> u64 {
    KEYS[side.index() * WIDTH * COLUMN_BITS + bit as usize]
}

/// Connect Four has no rule options; the type exists so that every game has one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Connect4Rules;

/// A Connect Four move: the column (0 = a) a disc is dropped into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Connect4Move(pub u8);

/// A Connect Four game in progress.
#[derive(Debug, Clone)]
pub struct Connect4 {
    /// Each player's discs (index [`Side::index`]), bit `column * 7 + row`.
    discs: [u64; 2],
    side: Side,
    ply: u32,
    hash: u64,
    /// Set by the move that made four in a row.
    winner: Option<Side>,
}

impl Connect4 {
    /// The discs of `player` as a bitboard (bit `column * 7 + row`, row 0 at the bottom; see [`cell_bit`]).
    pub fn discs(&self, player: Side) -> u64 {
        self.discs[player.index()]
    }

    /// Every disc on the board.
    pub fn occupied(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }

    /// Who has a disc on (`column`, `row`), row 0 at the bottom.
    pub fn disc_at(&self, column: usize, row: usize) -> Option<Side> {
        let bit = cell_bit(column, row);
        [Side::First, Side::Second]
            .into_iter()
            .find(|s| self.discs[s.index()] & bit != 0)
    }

    /// Discs in `column`.
    pub fn column_height(&self, column: usize) -> usize {
        let column_mask = ((1u64 << HEIGHT) - 1) << (column * COLUMN_BITS);
        (self.occupied() & column_mask).count_ones() as usize
    }

    /// The cell each column's next disc would land on, for the columns that are not full.
    fn landing_cells(&self) -> u64 {
        (self.occupied() + BOTTOM) & BOARD
    }

    fn open_columns(&self) -> impl Iterator<Item = u8> + '_ {
        let occupied = self.occupied();
        (0..WIDTH as u8).filter(move |&c| occupied & cell_bit(c as usize, HEIGHT - 1) == 0)
    }

    fn is_over_by_move(&self) -> bool {
        self.winner.is_some() || self.ply >= CELLS
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Side::Second { O_TO_MOVE_KEY } else { 0 };
        for side in [Side::First, Side::Second] {
            let mut set = self.discs[side.index()];
            while set != 0 {
                hash ^= disc_key(side, set.trailing_zeros());
                set &= set - 1;
            }
        }
        hash
    }

    /// A position from both players' discs, with the side to move and the result checked by the parser.
    fn assemble(discs: [u64; 2], side: Side, winner: Option<Side>) -> Self {
        let mut game = Connect4 {
            discs,
            side,
            ply: (discs[0] | discs[1]).count_ones(),
            hash: 0,
            winner,
        };
        game.hash = game.compute_hash();
        game
    }
}

/// Whether `discs` holds four in a row in any direction: a pair at distance `d` overlapping a pair `2d` further.
pub fn has_four(discs: u64) -> bool {
    // Vertical (1), horizontal (7) and the two diagonals (6 and 8): the guard bit stops every wrap.
    [1, COLUMN_BITS, COLUMN_BITS - 1, COLUMN_BITS + 1].into_iter().any(|d| {
        let pairs = discs & (discs >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

/// The mirror image (a<->g) of a bitboard.
fn mirror(bits: u64) -> u64 {
    let column_mask = (1u64 << COLUMN_BITS) - 1;
    (0..WIDTH).fold(0, |image, c| {
        let column = bits >> (c * COLUMN_BITS) & column_mask;
        image | column << ((WIDTH - 1 - c) * COLUMN_BITS)
    })
}

impl Game for Connect4 {
    type Rules = Connect4Rules;
    type Move = Connect4Move;

    const NAME: &'static str = "connect4";
    const ACTION_SPACE: usize = WIDTH;
    const SYMMETRIES: usize = 2;
    const BOARD_STYLE: BoardStyle = BoardStyle::Columns;

    fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<Connect4Rules, RulesError> {
        notation::parse_rules(variant, options)
    }

    fn describe_rules(_: &Connect4Rules) -> Vec<String> {
        Vec::new()
    }

    /// One disc a move, and the board holds 42.
    fn max_actions(_: &Connect4Rules) -> Option<u32> {
        Some(CELLS)
    }

    fn without_draw_rules(rules: &Connect4Rules) -> Connect4Rules {
        rules.clone()
    }

    fn start(_: &Connect4Rules) -> Self {
        Connect4::assemble([0, 0], Side::First, None)
    }

    fn from_position(rules: &Connect4Rules, position: &str) -> Result<Self, NotationError> {
        notation::parse_position(rules, position)
    }

    fn position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn rules(&self) -> &Connect4Rules {
        &Connect4Rules
    }

    fn to_move(&self) -> Side {
        self.side
    }

    fn player_name(player: Side) -> &'static str {
        match player {
            Side::First => "x",
            Side::Second => "o",
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(winner) => Some(Outcome::win(winner, EndReason::Line)),
            None if self.ply >= CELLS => Some(Outcome::draw(EndReason::BoardFull)),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn legal_moves(&self, out: &mut Vec<Connect4Move>) {
        out.clear();
        if !self.is_over_by_move() {
            out.extend(self.open_columns().map(Connect4Move));
        }
    }

    fn count_moves(&self) -> u64 {
        if self.is_over_by_move() {
            0
        } else {
            (!self.occupied() & TOP).count_ones() as u64
        }
    }

    fn play(&mut self, mv: &Connect4Move) {
        let column_cells = ((1u64 << HEIGHT) - 1) << (mv.0 as usize * COLUMN_BITS);
        let bit = self.landing_cells() & column_cells;
        debug_assert!(bit != 0, "column {} is full", mv.0);
        let mover = self.side;
        self.discs[mover.index()] |= bit;
        self.hash ^= disc_key(mover, bit.trailing_zeros()) ^ O_TO_MOVE_KEY;
        self.side = mover.other();
        self.ply += 1;
        if has_four(self.discs[mover.index()]) {
            self.winner = Some(mover);
        }
    }

    fn parse_move(&self, text: &str) -> Result<Connect4Move, NotationError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: &Connect4Move) -> String {
        notation::column_name(mv.0 as usize).to_string()
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        if !self.is_over_by_move() {
            for column in self.open_columns() {
                out.push(Action::from(column));
            }
        }
    }

    fn apply_action(&mut self, action: Action) {
        self.play(&Connect4Move(action as u8));
    }

    fn move_actions(&self, mv: &Connect4Move, out: &mut ActionList) {
        out.clear();
        out.push(Action::from(mv.0));
    }

    fn describe_action(action: Action) -> String {
        format!("drop in column {}", notation::column_name(action as usize))
    }

    fn transformed(&self, sym: usize) -> Self {
        match sym {
            0 => self.clone(),
            _ => Connect4::assemble([mirror(self.discs[0]), mirror(self.discs[1])], self.side, self.winner),
        }
    }

    fn transform_action(action: Action, sym: usize) -> Action {
        match sym {
            0 => action,
            _ => (WIDTH as Action - 1).saturating_sub(action),
        }
    }
}

impl Encoding for Connect4 {
    const AUGMENTATIONS: usize = 2;
    const INPUT_PLANES: usize = encode::PLANES;
    const BOARD_HEIGHT: usize = HEIGHT;
    const BOARD_WIDTH: usize = WIDTH;
    const ENCODING_VERSION: u32 = 1;

    fn grid_symmetry(sym: usize) -> usize {
        // The mirror is the square's mirror of files.
        if sym == 0 { 0 } else { 4 }
    }

    fn encode(&self, planes: &mut [f32]) {
        encode::encode(self, planes)
    }
}

impl Heuristic for Connect4 {
    /// Six: a threat made in two moves is met or lost within six plies, and a 64-opening book still takes
    /// seconds.
    const BOOK_BALANCE_DEPTH: u32 = 6;

    fn heuristic(&self) -> f32 {
        eval::heuristic(self)
    }
}

impl BenchPositions for Connect4 {
    const BENCH_POSITIONS: &'static [(&'static str, u32)] = &[
        ("start", 11),
        // A middle game: 13 discs, every column open.
        ("......./......./...o.../..xx.o./..oxox./.xxoxo. o", 11),
    ];
}
