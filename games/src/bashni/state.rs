//! The game state: board, side to move, the capture in progress, draw counters; playing moves and jumps.

use super::board::{Board, Tower, square_hash};
use super::geometry::{CROWN_RANK, NEIGHBOUR, NONE, Square, direction_between, walk};
use super::movegen::{CaptureSearch, JumpLog, MAX_JUMPS, capturers, count_quiet, count_single_man_jumps, quiet_moves};
use super::rules::{CaptureTransfer, PromotionMidCapture, Rules};
use crate::{Action, ActionList, EndReason, Outcome, Side, zobrist};

/// A complete move: the starting square and every square the tower stops on (one for a quiet move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    capture: bool,
    len: u8,
    stops: [u8; MAX_JUMPS],
}

impl Move {
    pub(crate) fn quiet(from: usize, to: usize) -> Move {
        let mut stops = [0; MAX_JUMPS];
        stops[0] = to as u8;
        Move {
            from: from as u8,
            capture: false,
            len: 1,
            stops,
        }
    }

    pub(crate) fn capture(from: usize, path: &[u8]) -> Move {
        let mut stops = [0; MAX_JUMPS];
        stops[..path.len()].copy_from_slice(path);
        Move {
            from: from as u8,
            capture: true,
            len: path.len() as u8,
            stops,
        }
    }

    /// The square the moving tower starts from (mid-capture: where it stands now).
    pub fn from(&self) -> Square {
        Square::from_index(self.from as usize).expect("a board square")
    }

    /// The squares the tower stops on, in order; the last is where it ends.
    pub fn stops(&self) -> impl Iterator<Item = Square> + '_ {
        self.stops[..self.len as usize]
            .iter()
            .map(|&s| Square::from_index(s as usize).expect("a board square"))
    }

    pub fn to(&self) -> Square {
        Square::from_index(self.stops[self.len as usize - 1] as usize).expect("a board square")
    }

    pub fn is_capture(&self) -> bool {
        self.capture
    }

    pub(crate) fn raw_stops(&self) -> &[u8] {
        &self.stops[..self.len as usize]
    }
}

/// Number of actions: 32 from-squares x 4 directions x 7 distances.
pub const ACTION_SPACE: usize = 32 * 4 * 7;

/// The action that moves or jumps from `from` in direction `d` to the square `distance` away.
#[inline]
pub fn encode_action(from: usize, d: usize, distance: usize) -> Action {
    ((from * 4 + d) * 7 + distance - 1) as Action
}

/// (from-square, direction, distance) of an action.
#[inline]
pub fn decode_action(action: Action) -> (usize, usize, usize) {
    let a = action as usize;
    (a / 28, a / 7 % 4, a % 7 + 1)
}

fn action_between(from: usize, to: usize) -> Action {
    let (d, distance) = direction_between(from, to).expect("stops lie on a diagonal");
    encode_action(from, d, distance)
}

const SIDE_KEY: u64 = zobrist::keys::<1>(0xBA54_0002)[0];
const CAPTURING_KEYS: [u64; 32] = zobrist::keys(0xBA54_0003);
/// Key of the `i`-th jumped square of the move in progress: `JUMP_KEYS[i * 32 + square]`.
const JUMP_KEYS: [u64; MAX_JUMPS * 32] = zobrist::keys(0xBA54_0004);

/// A game of Bashni in progress under one rule set.
#[derive(Debug, Clone)]
pub struct Bashni {
    pub(crate) rules: Rules,
    pub(crate) board: Board,
    /// 0 = White, 1 = Black; stays with the capturer until its move is complete.
    pub(crate) side: usize,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    /// The square of the tower in the middle of a capture, or [`NONE`] between moves.
    pub(crate) capturing: u8,
    pub(crate) log: JumpLog,
    pub(crate) quiet_plies: u32,
    /// (hash, hash of the turned position) at every move boundary, only while the repetition rule is on: the
    /// perft and no-repetition cases never allocate.
    pub(crate) history: Vec<(u64, u64)>,
    pub(crate) draw: Option<EndReason>,
}

impl Bashni {
    pub(crate) fn new(rules: Rules, board: Board, side: usize) -> Bashni {
        let mut game = Bashni {
            rules,
            board,
            side,
            ply: 0,
            hash: 0,
            capturing: NONE,
            log: JumpLog::default(),
            quiet_plies: 0,
            history: Vec::new(),
            draw: None,
        };
        game.hash = game.compute_hash();
        if rules.repetition > 0 {
            game.history.push((game.hash, game.turned_hash()));
        }
        game
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = self.board.hash() ^ if self.side == 1 { SIDE_KEY } else { 0 };
        if self.capturing != NONE {
            hash ^= CAPTURING_KEYS[self.capturing as usize];
            for (i, &s) in self.log.as_slice().iter().enumerate() {
                hash ^= JUMP_KEYS[i * 32 + s as usize];
            }
        }
        hash
    }

    /// The hash of this position (between moves) turned by 180 degrees with the colours swapped.
    fn turned_hash(&self) -> u64 {
        let board = (0..32).fold(0, |h, s| {
            h ^ square_hash(31 - s, self.board.towers[s].colours_swapped())
        });
        board ^ if self.side == 0 { SIDE_KEY } else { 0 }
    }

    // ---- read accessors for encoders and evaluation ----

    /// The tower on a square (empty towers have height 0).
    pub fn tower(&self, square: Square) -> Tower {
        self.board.towers[square.index()]
    }

    /// Squares (bit `i` = square index `i`) whose tower is commanded by `colour`.
    pub fn commanded_by(&self, colour: Side) -> u32 {
        self.board.by_colour[colour.index()]
    }

    /// Squares whose tower is commanded by a king.
    pub fn king_commanded(&self) -> u32 {
        self.board.kings
    }

    /// The square of the tower in the middle of a capture (`None` between moves).
    pub fn capturing_square(&self) -> Option<Square> {
        (self.capturing != NONE).then(|| Square::from_index(self.capturing as usize).expect("a board square"))
    }

    /// The squares jumped so far in the capture in progress, in order (for `capture_transfer=end_of_move`,
    /// the pieces still to go under the capturer). Empty between moves.
    pub fn jumped_squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.log
            .as_slice()
            .iter()
            .map(|&s| Square::from_index(s as usize).expect("a board square"))
    }

    /// The square jumped last in the capture in progress.
    pub fn last_jumped(&self) -> Option<Square> {
        self.log.last().and_then(Square::from_index)
    }

    /// Pieces of each colour on the board, commanders and prisoners (12 each in a game from the start).
    pub fn piece_counts(&self) -> [usize; 2] {
        self.board.piece_counts()
    }

    /// Consecutive plies without a capture or a move of a man-commanded tower.
    pub fn plies_since_progress(&self) -> u32 {
        self.quiet_plies
    }

    /// How often the current position has occurred (counting now); 1 when the repetition rule is off, since
    /// no history is kept then.
    pub fn repetition_count(&self) -> usize {
        self.history.iter().filter(|&&(h, _)| h == self.hash).count().max(1)
    }

    // ---- move generation ----

    /// The towers that capture now and the jumps behind them: the tower in the middle of a capture alone, with its
    /// jumps so far, or else every tower able to start one, with none.
    fn capture_starts(&self) -> (u32, JumpLog) {
        if self.capturing != NONE {
            (1 << self.capturing, self.log)
        } else {
            (capturers(&self.board, &self.rules, self.side), JumpLog::default())
        }
    }

    /// Whether quiet moves are legal too: never in the middle of a capture, and beside captures only when
    /// capturing is optional.
    fn quiet_moves_allowed(&self, captures: bool) -> bool {
        self.capturing == NONE && (!captures || !self.rules.mandatory_capture)
    }

    pub(crate) fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.draw.is_some() {
            return;
        }
        let (mut towers, log) = self.capture_starts();
        let captures = towers != 0;
        if captures {
            let mut search = CaptureSearch::new(&self.board, &self.rules, self.side);
            while towers != 0 {
                let from = towers.trailing_zeros() as usize;
                towers &= towers - 1;
                search.captures_from(from, log, &mut |stops: &[u8]| out.push(Move::capture(from, stops)));
            }
        }
        if self.quiet_moves_allowed(captures) {
            quiet_moves(&self.board, self.side, |from, to| out.push(Move::quiet(from, to)));
        }
    }

    pub(crate) fn count_legal_moves(&self) -> u64 {
        if self.draw.is_some() {
            return 0;
        }
        let mut towers = if self.capturing != NONE {
            0
        } else {
            capturers(&self.board, &self.rules, self.side)
        };
        if self.capturing == NONE && towers == 0 {
            return count_quiet(&self.board, self.side);
        }
        let mut count = 0u64;
        if self.capturing != NONE {
            let mut search = CaptureSearch::new(&self.board, &self.rules, self.side);
            search.captures_from(self.capturing as usize, self.log, &mut |_: &[u8]| count += 1);
            return count;
        }
        // Single jumps of men are counted without the search, the rest searched.
        let men = towers & !self.board.kings;
        let (single, complex) = count_single_man_jumps(&self.board, &self.rules, self.side, men);
        count += single;
        towers = complex | towers & self.board.kings;
        if towers == 0 {
            return count
                + if self.rules.mandatory_capture {
                    0
                } else {
                    count_quiet(&self.board, self.side)
                };
        }
        let mut search = CaptureSearch::new(&self.board, &self.rules, self.side);
        while towers != 0 {
            let from = towers.trailing_zeros() as usize;
            towers &= towers - 1;
            search.captures_from(from, JumpLog::default(), &mut |_: &[u8]| count += 1);
        }
        if !self.rules.mandatory_capture {
            count += count_quiet(&self.board, self.side);
        }
        count
    }

    pub(crate) fn legal_actions_into(&self, out: &mut ActionList) {
        out.clear();
        if self.draw.is_some() {
            return;
        }
        let (mut towers, log) = self.capture_starts();
        let captures = towers != 0;
        if captures {
            let mut search = CaptureSearch::new(&self.board, &self.rules, self.side);
            while towers != 0 {
                let from = towers.trailing_zeros() as usize;
                towers &= towers - 1;
                search.jumps_from(from, log, &mut |land: &[u8]| {
                    out.push(action_between(from, land[0] as usize))
                });
            }
        }
        if self.quiet_moves_allowed(captures) {
            quiet_moves(&self.board, self.side, |from, to| out.push(action_between(from, to)));
        }
    }

    /// Whether the side to move has a move, whatever the draw rules say.
    fn has_move(&self) -> bool {
        self.capturing != NONE
            || capturers(&self.board, &self.rules, self.side) != 0
            || count_quiet(&self.board, self.side) > 0
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        if self.capturing != NONE {
            return None;
        }
        // A side left without a move loses even if a draw rule was reached by the same move.
        if !self.has_move() {
            return Some(Outcome::win(Side::from_index(self.side ^ 1), EndReason::NoLegalMove));
        }
        self.draw.map(Outcome::draw)
    }

    // ---- playing ----

    /// Plays a legal move (mid-capture: a legal completion of the capture in progress).
    pub(crate) fn play_move(&mut self, mv: &Move) {
        let from = mv.from as usize;
        if !mv.capture {
            self.quiet(from, mv.stops[0] as usize);
            return;
        }
        let mut at = from;
        for &stop in mv.raw_stops() {
            let (d, _) = direction_between(at, stop as usize).expect("stops lie on a diagonal");
            let mut mid = NEIGHBOUR[at][d] as usize;
            while self.board.occupied() & (1 << mid) == 0 {
                mid = NEIGHBOUR[mid][d] as usize;
            }
            self.jump(at, mid, stop as usize);
            at = stop as usize;
        }
        self.finish_capture();
    }

    /// Plays a legal action: a quiet move, or one jump (then the move ends when no further jump is legal).
    pub(crate) fn play_action(&mut self, action: Action) {
        let (from, d, distance) = decode_action(action);
        let land = walk(from, d, distance) as usize;
        let occupied = self.board.occupied();
        let mut s = NEIGHBOUR[from][d] as usize;
        while s != land && occupied & (1 << s) == 0 {
            s = NEIGHBOUR[s][d] as usize;
        }
        if s == land {
            self.quiet(from, land);
            return;
        }
        let crowned = self.jump(from, s, land);
        let stops = crowned && self.rules.promotion_mid_capture == PromotionMidCapture::Stop;
        if stops || !CaptureSearch::new(&self.board, &self.rules, self.side).can_jump_from(land, self.log) {
            self.finish_capture();
        }
    }

    fn quiet(&mut self, from: usize, to: usize) {
        let man = self.board.kings & (1 << from) == 0;
        self.hash ^= square_hash(from, self.board.towers[from]);
        let mut tower = self.board.lift(from);
        if man && CROWN_RANK[self.side] & (1 << to) != 0 {
            tower.crown();
        }
        self.board.place(to, tower);
        self.hash ^= square_hash(to, tower);
        self.end_move(man);
    }

    /// One jump from `from` over the tower on `mid` to `land`; returns whether a man was crowned.
    fn jump(&mut self, from: usize, mid: usize, land: usize) -> bool {
        let towers = &self.board.towers;
        self.hash ^= square_hash(from, towers[from]) ^ square_hash(mid, towers[mid]);
        let mut capturer = self.board.lift(from);
        if self.rules.capture_transfer == CaptureTransfer::Immediate {
            let code = self.board.pop_top(mid);
            capturer.put_under(code);
        }
        let crowned = capturer.0 & 2 == 0 && CROWN_RANK[self.side] & (1 << land) != 0;
        if crowned {
            capturer.crown();
        }
        self.board.place(land, capturer);
        self.hash ^= square_hash(mid, self.board.towers[mid]) ^ square_hash(land, capturer);
        if self.capturing != NONE {
            self.hash ^= CAPTURING_KEYS[self.capturing as usize];
        }
        self.capturing = land as u8;
        self.hash ^= CAPTURING_KEYS[land] ^ JUMP_KEYS[self.log.len as usize * 32 + mid];
        self.log.push(mid);
        crowned
    }

    fn finish_capture(&mut self) {
        let at = self.capturing as usize;
        if self.rules.capture_transfer == CaptureTransfer::EndOfMove {
            for i in 0..self.log.len as usize {
                let mid = self.log.squares[i] as usize;
                self.hash ^= square_hash(mid, self.board.towers[mid]) ^ square_hash(at, self.board.towers[at]);
                let code = self.board.pop_top(mid);
                self.board.put_under(at, code);
                self.hash ^= square_hash(mid, self.board.towers[mid]) ^ square_hash(at, self.board.towers[at]);
            }
        }
        self.hash ^= CAPTURING_KEYS[at];
        for (i, &s) in self.log.as_slice().iter().enumerate() {
            self.hash ^= JUMP_KEYS[i * 32 + s as usize];
        }
        self.capturing = NONE;
        self.log = JumpLog::default();
        self.end_move(true);
    }

    /// Hands the move to the other side and applies the draw rules.
    fn end_move(&mut self, progress: bool) {
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
        self.ply += 1;
        self.quiet_plies = if progress { 0 } else { self.quiet_plies + 1 };
        let rules = &self.rules;
        if rules.repetition > 0 {
            self.history.push((self.hash, self.turned_hash()));
            if self.history.iter().filter(|&&(h, _)| h == self.hash).count() >= rules.repetition as usize {
                self.draw = Some(EndReason::Repetition);
            }
        }
        if self.draw.is_none() && rules.no_progress_plies > 0 && self.quiet_plies >= rules.no_progress_plies {
            self.draw = Some(EndReason::NoProgress);
        }
        if self.draw.is_none() && rules.max_plies > 0 && self.ply >= rules.max_plies {
            self.draw = Some(EndReason::PlyLimit);
        }
    }

    /// The actions of a move, in order.
    pub(crate) fn move_actions_into(&self, mv: &Move, out: &mut ActionList) {
        out.clear();
        let mut at = mv.from as usize;
        for &stop in mv.raw_stops() {
            out.push(action_between(at, stop as usize));
            at = stop as usize;
        }
    }

    /// This game turned by 180 degrees with the colours (and the side to move) swapped, history included.
    pub(crate) fn turned(&self) -> Bashni {
        let mut log = JumpLog::default();
        for &s in self.log.as_slice() {
            log.push(31 - s as usize);
        }
        let mut game = Bashni {
            board: self.board.turned_and_swapped(),
            side: self.side ^ 1,
            capturing: if self.capturing == NONE {
                NONE
            } else {
                31 - self.capturing
            },
            log,
            history: self.history.iter().map(|&(h, turned)| (turned, h)).collect(),
            ..self.clone()
        };
        game.hash = game.compute_hash();
        game
    }
}
