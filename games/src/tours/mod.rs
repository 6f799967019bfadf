//! Tours (Michael Baldwin's "Tower of Power"), as `/work/shared/RULES.md` decides it.
//!
//! # Rules as implemented
//! - 8x8 board; a square is empty or holds a one-colour stack of 1..8 pawns (1 = pawn, 2 = muret, >= 2 = tower).
//!   Start: 15 pawns each, White (`Side::First`, moves first) on the squares with file + rank <= 4 (a1..e1,
//!   a2..d2, a3..c3, a4, b4, a5), Black on those with file + rank >= 10 (d8..h8, e7..h7, f6..h6, g5, h5, h4).
//! - FORM: k >= 2 own lone pawns on contiguous squares of one line (orthogonal or diagonal) are stacked on one
//!   end, the base (either end; any sub-segment of a longer run).
//! - COLLAPSE: an own stack of height h >= 2 leaves its base pawn and puts one pawn on each of the next h-1
//!   squares in one of 8 directions; each must be on the board and empty or an own lone pawn (which becomes a
//!   muret). If the square at distance h holds an enemy stack, its top pawn is removed (at most one capture).
//! - The side to move with no legal move loses ([`EndReason::NoLegalMove`]).
//! - Self-play draws: `no_capture_plies=100` consecutive plies without a capture ([`EndReason::NoProgress`]) and
//!   `max_plies=300` plies in all ([`EndReason::PlyLimit`]); 0 switches either off. A side to move with no legal
//!   move loses even when a draw limit is reached by the same move.
//! - Variant `compound` (also the option `compound=true`): every turn is a FORM followed by a COLLAPSE of the
//!   tower just formed, in any direction but back along the line it was formed on (the direction from the base
//!   towards the far end of the formed segment; the opposite direction is allowed). One ply, two actions of the
//!   same player; between them the position records the pending tower and the forbidden direction.
//!
//! Choices where RULES.md is silent:
//! - `compound`: a FORM whose tower could not then collapse in any allowed direction is not legal. Turns are
//!   always FORM + COLLAPSE: stacks standing at the start of a turn (murets made by a collapse onto own pawns)
//!   never move again; they block, and they can be captured from the top.
//! - A stack higher than 8 is impossible (a line has 8 squares) and refused; so are more than 15 pawns of a colour.
//! - The no-capture counter and the ply count are game history, not position: a position string starts them at 0.
//!   The hash covers stacks, side to move and the pending compound collapse, not those counters.
//!
//! # Notation
//! Squares `a1`..`h8`; directions n, ne, e, se, s, sw, w, nw (north = towards rank 8).
//! - FORM `Fa1-a4`: the base, then the far end (pawns a1..a4 stacked on a1).
//! - COLLAPSE `Cb4:ne`.
//! - Compound turn `Fa1-a4,Ca1:ne` (the collapse square is the base). Mid-turn, the collapse alone (`Ca1:ne`).
//! - Positions: the side to move (`w` or `b`), then every occupied square as `square:stack`, the stack one letter
//!   per pawn (`w` or `b`; `a1:www` is a white tower of 3), squares in index order (a1, b1, .., h1, a2, ..). A
//!   compound turn in progress adds `>square:dir`: the tower that must collapse and the forbidden direction, for
//!   example `w a1:ww c3:w >a1:n`. `start` names the initial position.
//!
//! # Actions (4096)
//! - FORM: `(base * 8 + dir) * 7 + (length - 2)`, length 2..=8, `dir` from the base towards the far end
//!   (0..3584).
//! - COLLAPSE: `3584 + square * 8 + dir`.
//!
//! A compound turn is its FORM action then its COLLAPSE action. Symmetries: all 8 of the square. For a
//! convolutional policy head the same actions are 64 planes at their base square: FORM's 56 (`dir * 7 + length -
//! 2`), then COLLAPSE's 8.

mod encode;
mod eval;
mod notation;
mod symmetry;
mod tables;

use crate::grid::{DIR_NAMES, SQUARE_SYMMETRIES};
use crate::{
    Action, ActionList, BenchPositions, Encoding, EndReason, Game, Heuristic, NotationError, Outcome, RulesError, Side,
};
use tables::{NEXT, NONE, SQUARES};

pub use notation::square_name;

/// The pawns each side starts with, and the most it can ever have.
const PAWNS_PER_SIDE: u32 = 15;

/// A Tours rule set.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ToursRules {
    /// Baldwin's turn: FORM then COLLAPSE of the same tower.
    pub compound: bool,
    /// Consecutive plies without capture after which the game is drawn; 0 = off.
    pub no_capture_plies: u32,
    /// Total plies after which the game is drawn; 0 = off.
    pub max_plies: u32,
}

impl Default for ToursRules {
    fn default() -> Self {
        ToursRules {
            compound: false,
            no_capture_plies: 100,
            max_plies: 300,
        }
    }
}

/// A Tours move; squares are indices file + 8 * rank, directions index n, ne, e, se, s, sw, w, nw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToursMove {
    /// Stack `len` lone pawns from `base` along `dir` onto `base`.
    Form { base: u8, dir: u8, len: u8 },
    /// Spread the stack on `square` along `dir`.
    Collapse { square: u8, dir: u8 },
    /// The compound variant's turn: the FORM, then the collapse of the new tower along `collapse_dir`.
    Compound {
        base: u8,
        dir: u8,
        len: u8,
        collapse_dir: u8,
    },
}

/// A Tours game in progress.
#[derive(Debug, Clone)]
pub struct Tours {
    rules: ToursRules,
    /// Squares holding a stack of each colour (index 0 White, 1 Black).
    occupied: [u64; 2],
    /// Squares holding a lone pawn of each colour.
    lone: [u64; 2],
    height: [u8; SQUARES],
    side: Side,
    ply: u32,
    plies_without_capture: u32,
    /// Compound variant mid-turn: the tower that must collapse and the direction it was formed along.
    pending: Option<(u8, u8)>,
    hash: u64,
    /// A draw reached by the last move (a side with no legal move still loses).
    draw: Option<Outcome>,
}

const FORM_ACTIONS: usize = SQUARES * FORM_PLANES;
/// The FORM actions of one base: a direction and a length of 2..=8.
const FORM_PLANES: usize = 8 * 7;

impl Tours {
    /// Who owns the stack on `square` (0..64, file + 8 * rank), if any.
    pub fn owner(&self, square: usize) -> Option<Side> {
        if self.occupied[0] >> square & 1 != 0 {
            Some(Side::First)
        } else if self.occupied[1] >> square & 1 != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }
    /// Height of the stack on `square` (0 when empty).
    pub fn height(&self, square: usize) -> u32 {
        self.height[square] as u32
    }
    /// The squares a player occupies, as a bitboard (bit = file + 8 * rank).
    pub fn occupied(&self, player: Side) -> u64 {
        self.occupied[player.index()]
    }
    /// Pawns a player has left on the board.
    pub fn pawns(&self, player: Side) -> u32 {
        let mut set = self.occupied[player.index()];
        let mut n = 0;
        while set != 0 {
            n += self.height[set.trailing_zeros() as usize] as u32;
            set &= set - 1;
        }
        n
    }
    /// Consecutive plies without a capture.
    pub fn plies_without_capture(&self) -> u32 {
        self.plies_without_capture
    }
    /// In the compound variant mid-turn: the square of the tower that must collapse and the forbidden
    /// direction (0..8, n first, clockwise).
    pub fn pending_collapse(&self) -> Option<(usize, usize)> {
        self.pending.map(|(s, d)| (s as usize, d as usize))
    }

    /// Replaces whatever is on `square` by `height` pawns of `colour` (nothing when `height` is 0).
    fn set_square(&mut self, square: usize, colour: usize, height: u8) {
        let bit = 1u64 << square;
        for c in 0..2 {
            if self.occupied[c] & bit != 0 {
                self.hash ^= tables::stack_key(c, square, self.height[square] as usize);
            }
            self.occupied[c] &= !bit;
            self.lone[c] &= !bit;
        }
        self.height[square] = height;
        if height > 0 {
            self.occupied[colour] |= bit;
            if height == 1 {
                self.lone[colour] |= bit;
            }
            self.hash ^= tables::stack_key(colour, square, height as usize);
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Second {
            tables::BLACK_TO_MOVE_KEY
        } else {
            0
        };
        for c in 0..2 {
            let mut set = self.occupied[c];
            while set != 0 {
                let s = set.trailing_zeros() as usize;
                set &= set - 1;
                h ^= tables::stack_key(c, s, self.height[s] as usize);
            }
        }
        if let Some((s, d)) = self.pending {
            h ^= tables::pending_key(s as usize, d as usize);
        }
        h
    }

    /// Whether a stack of `height` on `square` of the side to move may collapse along `dir`.
    #[inline]
    fn collapse_ok(&self, square: u8, dir: usize, height: u8) -> bool {
        let me = self.side.index();
        let blocked = self.occupied[1 - me] | (self.occupied[me] & !self.lone[me]);
        let mut at = square;
        for _ in 1..height {
            at = NEXT[at as usize][dir];
            if at == NONE || blocked >> at & 1 != 0 {
                return false;
            }
        }
        true
    }

    /// The square a collapse of the stack on `square` along `dir` would capture on, if it is on the board: the
    /// one just past the stack's last pawn.
    fn collapse_target(&self, square: u8, dir: u8) -> Option<u8> {
        let mut at = square;
        for _ in 0..self.height[square as usize] {
            at = NEXT[at as usize][dir as usize];
            if at == NONE {
                return None;
            }
        }
        Some(at)
    }

    /// Calls `emit(base, dir, len)` for every FORM of the side to move.
    #[inline]
    fn for_each_form(&self, mut emit: impl FnMut(u8, usize, u8)) {
        let lone = self.lone[self.side.index()];
        let mut bases = lone;
        while bases != 0 {
            let base = bases.trailing_zeros() as u8;
            bases &= bases - 1;
            (0..8).for_each(|dir| {
                let (mut at, mut len) = (base, 1);
                loop {
                    at = NEXT[at as usize][dir];
                    if at == NONE || lone >> at & 1 == 0 {
                        break;
                    }
                    len += 1;
                    emit(base, dir, len);
                }
            });
        }
    }

    /// Calls `emit` with every legal move, ignoring a draw already reached (callers check it).
    #[inline]
    fn for_each_move(&self, mut emit: impl FnMut(ToursMove)) {
        if self.pending.is_some() {
            self.for_each_pending_collapse(|square, dir| emit(ToursMove::Collapse { square, dir }));
            return;
        }
        if self.rules.compound {
            self.for_each_form(|base, dir, len| {
                for collapse_dir in 0..8 {
                    if collapse_dir != dir && self.collapse_ok(base, collapse_dir, len) {
                        emit(ToursMove::Compound {
                            base,
                            dir: dir as u8,
                            len,
                            collapse_dir: collapse_dir as u8,
                        });
                    }
                }
            });
            return;
        }
        self.for_each_form(|base, dir, len| {
            emit(ToursMove::Form {
                base,
                dir: dir as u8,
                len,
            })
        });
        self.for_each_collapse(|square, dir| emit(ToursMove::Collapse { square, dir }));
    }

    /// Calls `emit(square, dir)` for every COLLAPSE that completes the pending compound turn (none without one):
    /// the tower just formed, along any direction but the one it was formed along.
    #[inline]
    fn for_each_pending_collapse(&self, mut emit: impl FnMut(u8, u8)) {
        if let Some((square, back)) = self.pending {
            for dir in 0..8 {
                if dir != back as usize && self.collapse_ok(square, dir, self.height[square as usize]) {
                    emit(square, dir as u8);
                }
            }
        }
    }

    /// Calls `emit(square, dir)` for every COLLAPSE of a standing stack of the side to move.
    #[inline]
    fn for_each_collapse(&self, mut emit: impl FnMut(u8, u8)) {
        let me = self.side.index();
        let mut stacks = self.occupied[me] & !self.lone[me];
        while stacks != 0 {
            let square = stacks.trailing_zeros() as u8;
            stacks &= stacks - 1;
            for dir in 0..8 {
                if self.collapse_ok(square, dir, self.height[square as usize]) {
                    emit(square, dir as u8);
                }
            }
        }
    }

    fn has_any_move(&self) -> bool {
        let mut any = false;
        self.for_each_move(|_| any = true);
        any
    }

    fn form_action(base: u8, dir: u8, len: u8) -> Action {
        ((base as usize * 8 + dir as usize) * 7 + (len as usize - 2)) as Action
    }

    fn collapse_action(square: u8, dir: u8) -> Action {
        (FORM_ACTIONS + square as usize * 8 + dir as usize) as Action
    }

    fn play_form(&mut self, base: u8, dir: u8, len: u8) {
        let colour = self.side.index();
        let mut at = base;
        for _ in 1..len {
            at = NEXT[at as usize][dir as usize];
            self.set_square(at as usize, colour, 0);
        }
        self.set_square(base as usize, colour, len);
        if self.rules.compound {
            self.pending = Some((base, dir));
            self.hash ^= tables::pending_key(base as usize, dir as usize);
        } else {
            self.end_turn(false);
        }
    }

    fn play_collapse(&mut self, square: u8, dir: u8) {
        if let Some((s, d)) = self.pending.take() {
            self.hash ^= tables::pending_key(s as usize, d as usize);
        }
        let me = self.side.index();
        let height = self.height[square as usize];
        self.set_square(square as usize, me, 1);
        let mut at = square;
        for _ in 1..height {
            at = NEXT[at as usize][dir as usize];
            let h = self.height[at as usize];
            self.set_square(at as usize, me, h + 1);
        }
        let target = NEXT[at as usize][dir as usize];
        let enemy = 1 - me;
        let captured = target != NONE && self.occupied[enemy] >> target & 1 != 0;
        if captured {
            let h = self.height[target as usize];
            self.set_square(target as usize, enemy, h - 1);
        }
        self.end_turn(captured);
    }

    fn end_turn(&mut self, captured: bool) {
        self.side = self.side.other();
        self.hash ^= tables::BLACK_TO_MOVE_KEY;
        self.ply += 1;
        self.plies_without_capture = if captured { 0 } else { self.plies_without_capture + 1 };
        let rules = &self.rules;
        if rules.no_capture_plies > 0 && self.plies_without_capture >= rules.no_capture_plies {
            self.draw = Some(Outcome::draw(EndReason::NoProgress));
        } else if rules.max_plies > 0 && self.ply >= rules.max_plies {
            self.draw = Some(Outcome::draw(EndReason::PlyLimit));
        }
    }

    /// An empty board under `rules` (the parser fills it).
    fn empty(rules: &ToursRules, side: Side) -> Self {
        Tours {
            rules: rules.clone(),
            occupied: [0; 2],
            lone: [0; 2],
            height: [0; SQUARES],
            side,
            ply: 0,
            plies_without_capture: 0,
            pending: None,
            hash: if side == Side::Second {
                tables::BLACK_TO_MOVE_KEY
            } else {
                0
            },
            draw: None,
        }
    }
}

impl Game for Tours {
    type Rules = ToursRules;
    type Move = ToursMove;

    const NAME: &'static str = "tours";
    const ACTION_SPACE: usize = FORM_ACTIONS + SQUARES * 8;
    const SYMMETRIES: usize = SQUARE_SYMMETRIES;
    fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<ToursRules, RulesError> {
        notation::parse_rules(variant, options)
    }

    fn describe_rules(rules: &ToursRules) -> Vec<String> {
        vec![
            format!("compound={}", rules.compound),
            format!("no_capture_plies={}", rules.no_capture_plies),
            format!("max_plies={}", rules.max_plies),
        ]
    }

    /// A compound turn is two actions, any other move one.
    fn max_actions(rules: &ToursRules) -> Option<u32> {
        let per_move = if rules.compound { 2 } else { 1 };
        (rules.max_plies > 0).then(|| rules.max_plies * per_move)
    }

    fn without_draw_rules(rules: &ToursRules) -> ToursRules {
        ToursRules {
            no_capture_plies: 0,
            max_plies: 0,
            ..rules.clone()
        }
    }

    fn start(rules: &ToursRules) -> Self {
        let mut game = Tours::empty(rules, Side::First);
        for s in 0..SQUARES {
            let sum = s % 8 + s / 8;
            if sum <= 4 {
                game.set_square(s, 0, 1);
            } else if sum >= 10 {
                game.set_square(s, 1, 1);
            }
        }
        game
    }

    fn from_position(rules: &ToursRules, position: &str) -> Result<Self, NotationError> {
        notation::parse_position(rules, position)
    }

    fn position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn rules(&self) -> &ToursRules {
        &self.rules
    }

    fn to_move(&self) -> Side {
        self.side
    }

    fn player_name(player: Side) -> &'static str {
        match player {
            Side::First => "white",
            Side::Second => "black",
        }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_any_move() {
            return Some(Outcome::win(self.side.other(), EndReason::NoLegalMove));
        }
        self.draw
    }

    /// Pawns on the board, the side to move's minus the other's, over the 15 each side starts with: the material
    /// a draw by the no-progress or ply limit hides (a game drawn five pawns down is still lost material).
    fn score(&self) -> f32 {
        let mine = self.pawns(self.side) as f32;
        let theirs = self.pawns(self.side.other()) as f32;
        (mine - theirs) / PAWNS_PER_SIDE as f32
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn legal_moves(&self, out: &mut Vec<ToursMove>) {
        out.clear();
        if self.draw.is_none() {
            self.for_each_move(|mv| out.push(mv));
        }
    }

    fn count_moves(&self) -> u64 {
        if self.draw.is_some() {
            return 0;
        }
        if self.rules.compound || self.pending.is_some() {
            let mut n = 0;
            self.for_each_move(|_| n += 1);
            return n;
        }
        let mut n = tables::count_forms(self.lone[self.side.index()]);
        self.for_each_collapse(|_, _| n += 1);
        n
    }

    fn play(&mut self, mv: &ToursMove) {
        match *mv {
            ToursMove::Form { base, dir, len } => self.play_form(base, dir, len),
            ToursMove::Collapse { square, dir } => self.play_collapse(square, dir),
            ToursMove::Compound {
                base,
                dir,
                len,
                collapse_dir,
            } => {
                self.play_form(base, dir, len);
                self.play_collapse(base, collapse_dir);
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<ToursMove, NotationError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: &ToursMove) -> String {
        notation::format_move(mv)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        if self.draw.is_some() {
            return;
        }
        if self.rules.compound && self.pending.is_none() {
            // One action per FORM that can be completed; its collapses are the next decision.
            self.for_each_form(|base, dir, len| {
                if (0..8).any(|c| c != dir && self.collapse_ok(base, c, len)) {
                    out.push(Self::form_action(base, dir as u8, len));
                }
            });
            return;
        }
        self.for_each_move(|mv| {
            out.push(match mv {
                ToursMove::Form { base, dir, len } => Self::form_action(base, dir, len),
                ToursMove::Collapse { square, dir } => Self::collapse_action(square, dir),
                ToursMove::Compound { .. } => unreachable!("compound turns are split above"),
            })
        });
    }

    fn apply_action(&mut self, action: Action) {
        let a = action as usize;
        if a < FORM_ACTIONS {
            let (base, dir, len) = (a / 56, a / 7 % 8, a % 7 + 2);
            self.play_form(base as u8, dir as u8, len as u8);
        } else {
            let c = a - FORM_ACTIONS;
            self.play_collapse((c / 8) as u8, (c % 8) as u8);
        }
    }

    fn move_actions(&self, mv: &ToursMove, out: &mut ActionList) {
        out.clear();
        match *mv {
            ToursMove::Form { base, dir, len } => out.push(Self::form_action(base, dir, len)),
            ToursMove::Collapse { square, dir } => out.push(Self::collapse_action(square, dir)),
            ToursMove::Compound {
                base,
                dir,
                len,
                collapse_dir,
            } => {
                out.push(Self::form_action(base, dir, len));
                out.push(Self::collapse_action(base, collapse_dir));
            }
        }
    }

    fn describe_action(action: Action) -> String {
        let a = action as usize;
        if a < FORM_ACTIONS {
            let (base, dir, len) = (a / 56, a / 7 % 8, a % 7 + 2);
            format!("form {} {} x{len}", square_name(base), DIR_NAMES[dir])
        } else {
            let c = a - FORM_ACTIONS;
            format!("collapse {} {}", square_name(c / 8), DIR_NAMES[c % 8])
        }
    }

    fn transformed(&self, sym: usize) -> Self {
        symmetry::transformed(self, sym)
    }

    fn transform_action(action: Action, sym: usize) -> Action {
        symmetry::transform_action(action, sym)
    }
}

impl Encoding for Tours {
    // Tours networks of an hour's run play about as well as chance on their policy alone (one simulation: -21
    // and -14 Elo against random's 0), so every level searches; measured in docs/protocol.md.
    const LEVELS: [(u32, f32); 5] = [(16, 1.0), (32, 0.5), (64, 0.2), (128, 0.0), (512, 0.0)];
    // Every symmetry of the square commutes with the canonical view (identity, or Tours' central 180-degree
    // turn), so all eight augment training samples (checked by the trainer's tests).
    const AUGMENTATIONS: usize = SQUARE_SYMMETRIES;
    const INPUT_PLANES: usize = encode::PLANES;
    const BOARD_HEIGHT: usize = 8;
    const BOARD_WIDTH: usize = 8;
    const ENCODING_VERSION: u32 = 1;
    // Every action starts from one square: a FORM from its base (one plane per direction and length), a
    // COLLAPSE from its stack (one plane per direction).
    const POLICY_PLANES: usize = FORM_PLANES + 8;

    fn canonical_symmetry(&self) -> usize {
        encode::canonical_symmetry(self.side)
    }

    fn policy_cell(action: Action) -> usize {
        let a = action as usize;
        let (plane, square) = if a < FORM_ACTIONS {
            (a % FORM_PLANES, a / FORM_PLANES)
        } else {
            let c = a - FORM_ACTIONS;
            (FORM_PLANES + c % 8, c / 8)
        };
        plane * SQUARES + square
    }

    fn encode(&self, planes: &mut [f32]) {
        self.encode_view(self.canonical_symmetry(), planes)
    }
}

impl Heuristic for Tours {
    fn heuristic(&self) -> f32 {
        eval::heuristic(self)
    }

    /// The COLLAPSEs whose last pawn would land on an enemy stack (a FORM never captures). Mid-turn in the
    /// compound variant, the pending tower's; at the start of a compound turn, none (a turn's capture is its
    /// second action).
    fn captures(&self, out: &mut ActionList) {
        if self.draw.is_some() {
            return;
        }
        let enemy = self.occupied[1 - self.side.index()];
        let emit = |square: u8, dir: u8| {
            if self.collapse_target(square, dir).is_some_and(|t| enemy >> t & 1 != 0) {
                out.push(Self::collapse_action(square, dir));
            }
        };
        if self.pending.is_some() {
            self.for_each_pending_collapse(emit);
        } else if !self.rules.compound {
            self.for_each_collapse(emit);
        }
    }
}

impl BenchPositions for Tours {
    const BENCH_POSITIONS: &'static [(&'static str, u32)] = &[
        ("start", 5),
        // After 20 random plies: stacks of both colours, no contact yet.
        (
            "w a1:w b1:ww e1:w a2:w b2:ww d2:w a3:ww b3:w a4:w c4:w h4:b a5:w d5:w g5:b h5:b f6:bb g6:b h6:b e7:b \
          g7:b h7:b e8:b f8:b g8:b h8:b",
            5,
        ),
    ];
}
