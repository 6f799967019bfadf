//! Bagh Chal (tigers and goats), as `/work/shared/RULES.md` decides it.
//!
//! # Rules as implemented
//! - 25 points a1..e5; orthogonal lines everywhere, diagonal lines through the 13 points whose file + rank is
//!   even (56 lines). Start: tigers on a1, e1, a5, e5, 20 goats in hand, goats ([`Side::First`]) to move.
//! - While goats remain in hand a goat move places one on any empty point; goats step along lines only after
//!   the 20th placement, whatever was captured meanwhile (captured goats never come back).
//! - Tigers step along a line, or jump one adjacent goat along a straight line to the empty point beyond,
//!   capturing it; one jump per move, never compulsory. Tigers move in both phases.
//! - Tigers win at their 5th capture ([`EndReason::CaptureTarget`]); the side to move with no legal move loses
//!   ([`EndReason::NoLegalMove`]); goats can always place during the placement phase (at least one point is
//!   always empty).
//! - Repetition, once no goat is left in hand (`repetition=` option):
//!   - `ban` (default): a move that recreates an earlier position (same pieces on the same points, same side to
//!     move) is illegal for both sides. This is a legality rule, not a draw rule: `without_draw_rules` keeps it.
//!   - `goats-lose-on-repetition`: a goat move that recreates an earlier position is legal and loses at once
//!     ([`EndReason::RepetitionLoss`]); a tiger move that would do so stays illegal (the seed forbids every
//!     repeating move and names the goats' penalty only).
//!   - `threefold-draw`: repeating is legal; the third occurrence of a position is a draw
//!     ([`EndReason::Repetition`]). `without_draw_rules` turns this into `off`.
//!   - `off`: no repetition rule (games still end by the ply cap).
//! - Self-play draw: `max_plies=250` plies in all ([`EndReason::PlyLimit`]); 0 switches it off.
//! - Order when several rules apply after a move: the tigers' 5th capture or a goats' repetition loss, then the
//!   side to move losing for lack of a legal move, then the draws (third occurrence, ply cap).
//!
//! Choices where RULES.md is silent:
//! - The repetition history holds only positions with no goat in hand (the seed's rule starts "when all goats
//!   are on the board"); placement-phase positions never count. A capture empties the history, since a position
//!   with fewer goats can never equal an earlier one. A position string starts a fresh history holding only
//!   itself; a game record (start plus moves) rebuilds the real one.
//! - The hash covers board, side to move, goats in hand and goats captured, not the repetition history.
//!
//! # Notation
//! Points `a1`..`e5`. Moves: placement `c3`, step `a1-b2`, tiger capture `a1xc3` (`:` accepted for `x`).
//!
//! Positions: `<board> <side> <in hand> <captured>`, the board as five ranks from rank 5 down to rank 1,
//! separated by `/`, each five characters `T` (tiger), `G` (goat) or `.` (empty), digits 1-5 accepted for runs
//! of empty points; side `g` or `t`. The start is `T...T/...../...../...../T...T g 20 0`. A position must have
//! exactly 4 tigers, goats on board + in hand + captured exactly 20, at most 5 captured, and cannot have the
//! tigers to move with all 20 goats in hand.
//!
//! # Actions (425)
//! - `0..25`: place a goat on point `p` (index file + 5 * rank).
//! - `25 + (from * 8 + dir) * 2 + jump`: move the piece on `from` in direction `dir` (n, ne, e, se, s, sw, w, nw),
//!   a step (`jump` = 0) or a tiger's capturing jump (`jump` = 1). Goats and tigers share the step actions: the
//!   piece on `from` says who moves.
//!
//! Symmetries: all 8 of the square (see `grid::map_vector` for the numbering).

mod encode;
mod eval;
mod notation;
mod symmetry;
mod tables;

use crate::grid::{DIR_NAMES, SQUARE_SYMMETRIES};
use crate::{
    Action, ActionList, BenchPositions, BoardStyle, Encoding, EndReason, Game, Heuristic, NotationError, Outcome,
    RulesError, Side,
};
use tables::{JUMP, NONE, POINTS, STEP};

pub use notation::point_name;

/// The board as bitboards, for programs that walk positions without a [`BaghChal`] (the tablebase's solver):
/// points (file + 5 * rank), the lines (`STEP[point][dir]`, `JUMP[point][dir]`, [`board::NONE`] where there is
/// none) and the eight symmetries (`map_points`).
pub mod board {
    pub use super::tables::{ALL_POINTS, JUMP, NONE, POINTS, STEP, map_points};
    /// The symmetries of the square, numbered 0..8 (0 is the identity).
    pub const SYMMETRIES: usize = crate::grid::SQUARE_SYMMETRIES;
}

/// Which repetition rule applies once the goats are all placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RepetitionRule {
    /// Recreating an earlier position is illegal (the default).
    Ban,
    /// Goats recreating an earlier position lose; tigers may not recreate one.
    GoatsLose,
    /// The third occurrence of a position is a draw.
    ThreefoldDraw,
    /// No repetition rule.
    Off,
}

impl RepetitionRule {
    pub fn as_str(self) -> &'static str {
        match self {
            RepetitionRule::Ban => "ban",
            RepetitionRule::GoatsLose => "goats-lose-on-repetition",
            RepetitionRule::ThreefoldDraw => "threefold-draw",
            RepetitionRule::Off => "off",
        }
    }
}

/// A Bagh Chal rule set.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BaghChalRules {
    pub repetition: RepetitionRule,
    /// Total plies after which the game is drawn; 0 = no cap.
    pub max_plies: u32,
}

impl Default for BaghChalRules {
    fn default() -> Self {
        BaghChalRules {
            repetition: RepetitionRule::Ban,
            max_plies: 250,
        }
    }
}

/// A Bagh Chal move. Points are indices file + 5 * rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BaghChalMove {
    /// A goat from the hand onto an empty point.
    Place(u8),
    /// A goat or tiger one step along a line.
    Step { from: u8, to: u8 },
    /// A tiger jumping the goat between `from` and `to`.
    Jump { from: u8, to: u8 },
}

/// The game phase of the goats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Goats remain in hand: goat moves are placements.
    Placement,
    /// All 20 goats were placed: goats step.
    Movement,
}

/// What is on a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    Goat,
    Tiger,
}

/// A Bagh Chal game in progress.
#[derive(Debug, Clone)]
pub struct BaghChal {
    rules: BaghChalRules,
    tigers: u32,
    goats: u32,
    in_hand: u8,
    captured: u8,
    side: Side,
    ply: u32,
    hash: u64,
    /// A result decided by a move that takes precedence over the lack of legal moves.
    decisive: Option<Outcome>,
    /// A draw decided by a move; the side to move losing for lack of moves comes first.
    draw: Option<Outcome>,
    /// Packed boards ([`BaghChal::board_key`]) since the placement phase ended and the last capture, the current
    /// one included. Empty (no allocation) during placement and when the rule set has no repetition rule.
    history: Vec<u64>,
}

pub(crate) const GOATS: u8 = 20;
const CAPTURE_TARGET: u8 = 5;
const MOVE_BASE: usize = POINTS;

impl BaghChal {
    /// What is on `point` (0..25, file + 5 * rank).
    pub fn piece_at(&self, point: usize) -> Option<Piece> {
        if self.tigers >> point & 1 != 0 {
            Some(Piece::Tiger)
        } else if self.goats >> point & 1 != 0 {
            Some(Piece::Goat)
        } else {
            None
        }
    }
    /// The points holding tigers, as a bitboard (bit = file + 5 * rank).
    pub fn tiger_points(&self) -> u32 {
        self.tigers
    }
    /// The points holding goats, as a bitboard.
    pub fn goat_points(&self) -> u32 {
        self.goats
    }
    /// Goats still to be placed.
    pub fn goats_in_hand(&self) -> u32 {
        self.in_hand as u32
    }
    /// Goats the tigers have captured.
    pub fn goats_captured(&self) -> u32 {
        self.captured as u32
    }
    pub fn phase(&self) -> Phase {
        if self.in_hand > 0 {
            Phase::Placement
        } else {
            Phase::Movement
        }
    }
    /// How many times the current position has occurred in the history the repetition rule sees (1 = first
    /// time; 0 while the rule does not look, in the placement phase or with `repetition=off`).
    pub fn repetitions(&self) -> u32 {
        let key = self.board_key();
        self.history.iter().filter(|&&k| k == key).count() as u32
    }
    /// Whether `mv` (legal or not) would recreate a position of the repetition history.
    pub fn would_repeat(&self, mv: &BaghChalMove) -> bool {
        match *mv {
            BaghChalMove::Step { from, to } if self.in_hand == 0 => {
                self.history.contains(&self.key_after_step(from, to))
            }
            _ => false,
        }
    }

    /// Board and side to move packed into one integer: a repetition key that symmetries can map.
    fn board_key(&self) -> u64 {
        pack(self.tigers, self.goats, self.side)
    }

    fn key_after_step(&self, from: u8, to: u8) -> u64 {
        let flip = 1u32 << from | 1u32 << to;
        let (tigers, goats) = if self.tigers >> from & 1 != 0 {
            (self.tigers ^ flip, self.goats)
        } else {
            (self.tigers, self.goats ^ flip)
        };
        pack(tigers, goats, self.side.other())
    }

    fn tracks_history(&self) -> bool {
        self.rules.repetition != RepetitionRule::Off
    }

    fn compute_hash(&self) -> u64 {
        let mut h = tables::in_hand_key(self.in_hand) ^ tables::captured_key(self.captured);
        for p in 0..POINTS {
            if self.tigers >> p & 1 != 0 {
                h ^= tables::tiger_key(p);
            }
            if self.goats >> p & 1 != 0 {
                h ^= tables::goat_key(p);
            }
        }
        if self.side == Side::Second {
            h ^= tables::TIGERS_TO_MOVE_KEY;
        }
        h
    }

    /// Calls `emit` with every legal move, ignoring results already decided (callers check those).
    #[inline]
    fn for_each_move(&self, mut emit: impl FnMut(BaghChalMove)) {
        let empty = !(self.tigers | self.goats) & tables::ALL_POINTS;
        // Repetitions matter only for steps after the placement phase; a rule that makes them illegal filters.
        let banned = |mover_is_goat: bool| match self.rules.repetition {
            RepetitionRule::Ban => self.in_hand == 0,
            RepetitionRule::GoatsLose => self.in_hand == 0 && !mover_is_goat,
            _ => false,
        };
        match self.side {
            Side::First if self.in_hand > 0 => each_bit(empty, |p| emit(BaghChalMove::Place(p))),
            Side::First => {
                let ban = banned(true);
                each_bit(self.goats, |from| {
                    for &to in &STEP[from as usize] {
                        if to != NONE
                            && empty >> to & 1 != 0
                            && !(ban && self.history.contains(&self.key_after_step(from, to)))
                        {
                            emit(BaghChalMove::Step { from, to });
                        }
                    }
                })
            }
            Side::Second => {
                let ban = banned(false);
                each_bit(self.tigers, |from| {
                    for d in 0..8 {
                        let to = STEP[from as usize][d];
                        if to == NONE {
                            continue;
                        }
                        if empty >> to & 1 != 0 {
                            if !(ban && self.history.contains(&self.key_after_step(from, to))) {
                                emit(BaghChalMove::Step { from, to });
                            }
                        } else if self.goats >> to & 1 != 0 {
                            let landing = JUMP[from as usize][d];
                            if landing != NONE && empty >> landing & 1 != 0 {
                                emit(BaghChalMove::Jump { from, to: landing });
                            }
                        }
                    }
                })
            }
        }
    }

    fn game_over_by_move(&self) -> bool {
        self.decisive.is_some() || self.draw.is_some()
    }

    fn has_any_move(&self) -> bool {
        let mut any = false;
        self.for_each_move(|_| any = true);
        any
    }

    fn action_of(mv: &BaghChalMove) -> Action {
        match *mv {
            BaghChalMove::Place(p) => p as Action,
            BaghChalMove::Step { from, to } => (MOVE_BASE + (from as usize * 8 + direction(from, to, 1)) * 2) as Action,
            BaghChalMove::Jump { from, to } => {
                (MOVE_BASE + (from as usize * 8 + direction(from, to, 2)) * 2 + 1) as Action
            }
        }
    }

    fn move_of(&self, action: Action) -> BaghChalMove {
        let a = action as usize;
        if a < MOVE_BASE {
            return BaghChalMove::Place(a as u8);
        }
        let m = (a - MOVE_BASE) / 2;
        let (from, dir) = (m / 8, m % 8);
        if (a - MOVE_BASE) % 2 == 1 {
            BaghChalMove::Jump {
                from: from as u8,
                to: JUMP[from][dir],
            }
        } else {
            BaghChalMove::Step {
                from: from as u8,
                to: STEP[from][dir],
            }
        }
    }

    /// A position from its parts, with a fresh history (used by the parser and by symmetries).
    fn assemble(rules: &BaghChalRules, tigers: u32, goats: u32, in_hand: u8, captured: u8, side: Side) -> Self {
        let mut game = BaghChal {
            rules: rules.clone(),
            tigers,
            goats,
            in_hand,
            captured,
            side,
            ply: 0,
            hash: 0,
            decisive: None,
            draw: None,
            history: Vec::new(),
        };
        game.hash = game.compute_hash();
        if captured >= CAPTURE_TARGET {
            game.decisive = Some(Outcome::win(Side::Second, EndReason::CaptureTarget));
        }
        if in_hand == 0 && game.tracks_history() {
            game.history.push(game.board_key());
        }
        game
    }
}

/// The direction from `from` to `to`, `distance` steps apart on one line.
fn direction(from: u8, to: u8, distance: u8) -> usize {
    let table = if distance == 1 { &STEP } else { &JUMP };
    table[from as usize]
        .iter()
        .position(|&p| p == to)
        .expect("moves follow lines")
}

fn pack(tigers: u32, goats: u32, side: Side) -> u64 {
    tigers as u64 | (goats as u64) << 25 | (side.index() as u64) << 50
}

#[inline]
fn each_bit(mut set: u32, mut f: impl FnMut(u8)) {
    while set != 0 {
        let p = set.trailing_zeros() as u8;
        set &= set - 1;
        f(p);
    }
}

impl Game for BaghChal {
    type Rules = BaghChalRules;
    type Move = BaghChalMove;

    const NAME: &'static str = "baghchal";
    const ACTION_SPACE: usize = MOVE_BASE + POINTS * 8 * 2;
    const SYMMETRIES: usize = SQUARE_SYMMETRIES;
    const BOARD_STYLE: BoardStyle = BoardStyle::Points;

    fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<BaghChalRules, RulesError> {
        notation::parse_rules(variant, options)
    }

    fn describe_rules(rules: &BaghChalRules) -> Vec<String> {
        vec![
            format!("repetition={}", rules.repetition.as_str()),
            format!("max_plies={}", rules.max_plies),
        ]
    }

    fn without_draw_rules(rules: &BaghChalRules) -> BaghChalRules {
        let repetition = match rules.repetition {
            RepetitionRule::ThreefoldDraw => RepetitionRule::Off,
            other => other,
        };
        BaghChalRules {
            repetition,
            max_plies: 0,
        }
    }

    /// One action a move.
    fn max_actions(rules: &BaghChalRules) -> Option<u32> {
        (rules.max_plies > 0).then_some(rules.max_plies)
    }

    fn start(rules: &BaghChalRules) -> Self {
        BaghChal::assemble(rules, 1 | 1 << 4 | 1 << 20 | 1 << 24, 0, GOATS, 0, Side::First)
    }

    fn from_position(rules: &BaghChalRules, position: &str) -> Result<Self, NotationError> {
        notation::parse_position(rules, position)
    }

    fn position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn rules(&self) -> &BaghChalRules {
        &self.rules
    }

    fn to_move(&self) -> Side {
        self.side
    }

    fn player_name(player: Side) -> &'static str {
        match player {
            Side::First => "goats",
            Side::Second => "tigers",
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.decisive.is_some() {
            return self.decisive;
        }
        if !self.has_any_move() {
            return Some(Outcome::win(self.side.other(), EndReason::NoLegalMove));
        }
        self.draw
    }

    /// Goats captured over the five that win, positive for the tigers.
    fn score(&self) -> f32 {
        let captured = f32::from(self.captured) / f32::from(CAPTURE_TARGET);
        match self.side {
            Side::First => -captured,
            Side::Second => captured,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn legal_moves(&self, out: &mut Vec<BaghChalMove>) {
        out.clear();
        if !self.game_over_by_move() {
            self.for_each_move(|mv| out.push(mv));
        }
    }

    fn count_moves(&self) -> u64 {
        if self.game_over_by_move() {
            return 0;
        }
        let empty = !(self.tigers | self.goats) & tables::ALL_POINTS;
        if self.side == Side::First && self.in_hand > 0 {
            return empty.count_ones() as u64;
        }
        let mut n = 0;
        self.for_each_move(|_| n += 1);
        n
    }

    fn play(&mut self, mv: &BaghChalMove) {
        let mover = self.side;
        match *mv {
            BaghChalMove::Place(p) => {
                self.goats |= 1 << p;
                self.hash ^= tables::goat_key(p as usize) ^ tables::in_hand_key(self.in_hand);
                self.in_hand -= 1;
                self.hash ^= tables::in_hand_key(self.in_hand);
            }
            BaghChalMove::Step { from, to } => {
                let flip = 1u32 << from | 1u32 << to;
                if self.tigers >> from & 1 != 0 {
                    self.tigers ^= flip;
                    self.hash ^= tables::tiger_key(from as usize) ^ tables::tiger_key(to as usize);
                } else {
                    self.goats ^= flip;
                    self.hash ^= tables::goat_key(from as usize) ^ tables::goat_key(to as usize);
                }
            }
            BaghChalMove::Jump { from, to } => {
                let over = STEP[from as usize][direction(from, to, 2)];
                self.tigers ^= 1 << from | 1 << to;
                self.goats &= !(1 << over);
                self.hash ^= tables::tiger_key(from as usize)
                    ^ tables::tiger_key(to as usize)
                    ^ tables::goat_key(over as usize)
                    ^ tables::captured_key(self.captured);
                self.captured += 1;
                self.hash ^= tables::captured_key(self.captured);
                // No later position can equal one with more goats on the board.
                self.history.clear();
            }
        }
        self.side = mover.other();
        self.hash ^= tables::TIGERS_TO_MOVE_KEY;
        self.ply += 1;

        if self.in_hand == 0 && self.tracks_history() {
            let key = self.board_key();
            let earlier = self.history.iter().filter(|&&k| k == key).count();
            if earlier > 0 && mover == Side::First && self.rules.repetition == RepetitionRule::GoatsLose {
                self.decisive = Some(Outcome::win(Side::Second, EndReason::RepetitionLoss));
            }
            if earlier >= 2 && self.rules.repetition == RepetitionRule::ThreefoldDraw {
                self.draw = Some(Outcome::draw(EndReason::Repetition));
            }
            self.history.push(key);
        }
        if self.captured >= CAPTURE_TARGET {
            self.decisive = Some(Outcome::win(Side::Second, EndReason::CaptureTarget));
        }
        if self.draw.is_none() && self.rules.max_plies > 0 && self.ply >= self.rules.max_plies {
            self.draw = Some(Outcome::draw(EndReason::PlyLimit));
        }
    }

    fn parse_move(&self, text: &str) -> Result<BaghChalMove, NotationError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: &BaghChalMove) -> String {
        notation::format_move(mv)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        if !self.game_over_by_move() {
            self.for_each_move(|mv| out.push(Self::action_of(&mv)));
        }
    }

    fn apply_action(&mut self, action: Action) {
        let mv = self.move_of(action);
        self.play(&mv);
    }

    fn move_actions(&self, mv: &BaghChalMove, out: &mut ActionList) {
        out.clear();
        out.push(Self::action_of(mv));
    }

    fn describe_action(action: Action) -> String {
        let a = action as usize;
        if a < MOVE_BASE {
            return format!("place {}", point_name(a));
        }
        let m = (a - MOVE_BASE) / 2;
        let kind = if (a - MOVE_BASE) % 2 == 1 { "jump" } else { "step" };
        format!("{kind} {} {}", point_name(m / 8), DIR_NAMES[m % 8])
    }

    fn transformed(&self, sym: usize) -> Self {
        symmetry::transformed(self, sym)
    }

    fn transform_action(action: Action, sym: usize) -> Action {
        symmetry::transform_action(action, sym)
    }
}

impl Encoding for BaghChal {
    // Every symmetry of the square commutes with the canonical view (identity, or Tours' central 180-degree
    // turn), so all eight augment training samples (checked by the trainer's tests).
    const AUGMENTATIONS: usize = SQUARE_SYMMETRIES;
    const INPUT_PLANES: usize = encode::PLANES;
    const BOARD_HEIGHT: usize = 5;
    const BOARD_WIDTH: usize = 5;
    const ENCODING_VERSION: u32 = 1;

    fn encode(&self, planes: &mut [f32]) {
        encode::encode(self, planes)
    }
}

impl Heuristic for BaghChal {
    /// Eight: the tigers' threats of the placement phase can land more than four plies after an opening. Four
    /// plies let through openings that a search of eight or ten scores about a goat down for the goats, and those
    /// were the ones networks lost as goats match after match (`docs/experiments/yardsticks.md`). A 64-opening book takes
    /// about 25 s.
    const BOOK_BALANCE_DEPTH: u32 = 8;

    fn heuristic(&self) -> f32 {
        eval::heuristic(self)
    }
}

impl BenchPositions for BaghChal {
    const BENCH_POSITIONS: &'static [(&'static str, u32)] = &[
        ("start", 7),
        // Placement phase, 13 goats in hand, one captured.
        ("T.G.T/.T.../G...G/.G..T/.G.G. g 13 1", 8),
        // Movement phase: the repetition ban consults the history.
        ("GGGGT/..T.G/.GGTG/TGGGG/GG.GG g 0 4", 9),
    ];
}
