//! Bashni (Russian "towers"): Russian draughts where captured pieces go under the capturer.
//!
//! # Rules as implemented
//!
//! The default rule set `russian` is exactly the one of `shared/RULES.md`: White moves first from ranks 1-3;
//! men move one square diagonally forward and capture forward and backward; kings fly; capturing and
//! continuing a capture are compulsory, with no majority rule; at each jump only the top piece of the jumped
//! tower goes to the bottom of the capturer; a tower may be jumped again, not in two consecutive jumps; a king
//! must land where it can go on capturing if it can; a man crowned during a capture goes on as a king; the side
//! without a move loses. Variants are parameters of the one generator ([`Rules`]): `men_capture_backward`,
//! `promotion_mid_capture` (`continue`/`stop`), `king_landing` (`continue`/`free`), `rejump`
//! (`not_consecutive`/`once`/`free`), `capture_transfer` (`immediate`/`end_of_move`), `mandatory_capture`,
//! and the draw rules `repetition` (3), `no_progress_plies` (30), `max_plies` (300), 0 = off. Presets:
//! `russian`, `ludii`, `dagaz`, `optional-capture` (`_` and `-` interchangeable in names and values).
//!
//! # Choices where RULES.md is silent
//!
//! - The capturer's starting square is empty during its capture: it may pass over it or land on it (as in
//!   Russian draughts; RULES.md's first worked example lands on it).
//! - A man crowned during a quiet move or at the end of a capture is simply crowned; a man that lands on its
//!   far rank only in passing during a capture is crowned there (the seeds: "crowned at once").
//! - `king_landing=free` frees the landing square only: a capture that can go on from where the king landed
//!   must go on (continuing is compulsory in every preset).
//! - `capture_transfer=end_of_move` sets `rejump=once`; asking for another `rejump` with it is an error. The
//!   jumped towers keep their commander until the move ends, so they block the capturer's path.
//! - A no-legal-move loss takes precedence over a draw rule reached on the same ply. Repetition compares the
//!   whole position (every stack and the side to move) at move boundaries, over the whole game, counting the
//!   current occurrence: `repetition=3` draws on the third. No-progress counts consecutive plies whose move is
//!   neither a capture nor a move of a man-commanded tower; the draw comes when the count reaches the limit.
//! - The hash covers the board, the side to move and the capture in progress (capturing square, jumped
//!   squares in order); the draw counters change no legal move, so they are not hashed.
//! - A position string may hold fewer than 12 pieces of a colour (composed problems), never more; a man may not
//!   command a tower on the rank where it would have been crowned; prisoners may be anything.
//!
//! # Actions
//!
//! `ACTION_SPACE = 896`: action `(from * 4 + direction) * 7 + (distance - 1)`, with squares numbered
//! `rank * 4 + file / 2` (a1 = 0, c1 = 1, ..., b2 = 4, ..., h8 = 31), directions 0 = north-east (towards
//! h8), 1 = north-west, 2 = south-east, 3 = south-west, and the distance 1..7 from the from-square to the
//! landing square. A quiet move is one action; a capture is one action per jump, and the side to move keeps
//! the turn until the capture is complete (the move ends by itself when no further jump is legal).
//! Mid-capture, [`Game::legal_moves`] returns the completions of the capture in progress (moves from the
//! capturing square) and [`Game::play`] accepts them; [`Game::position`] then shows the board as it stands
//! (the capture state is not written, so it round-trips only between moves). [`Game::ply`] counts complete
//! moves.
//!
//! # Symmetries
//!
//! `SYMMETRIES = 2`: 0 = identity, 1 = turn the board 180 degrees and swap the colours and the side to move
//! (square `s` to `31 - s`, direction `d` to `3 - d`, same distance), which presents a position from the other
//! side's view. No other symmetry preserves the rules: the mirror images left-right and top-bottom send a1 to
//! a light square, and the two diagonal reflections keep the dark squares but turn ranks into files, so men
//! would move sideways and be crowned on a file.
//!
//! # Network encoding
//!
//! 44 planes of 8 x 8 from the side to move's view ([`encode`](crate::Encoding::encode), layout in `docs/encoding.md`):
//! `canonical_symmetry()` is 1 (the symmetry above) when Black is to move, so "own" pieces are the mover's and
//! own men move up. Each tower shows its top 8 pieces one by one (own/opponent man/king per depth), then counts
//! of own and opponent pieces below, and its height; then the capture in progress (capturing square, last
//! jumped square, jumped squares and their order) and constant planes for the mid-capture flag, the draw
//! counters (no progress, repetitions, plies, each over its limit) and ones. About 0.3 µs per encode.
//!
//! # Perft and speed
//!
//! From the start (moves, no draw rules): 7, 49, 302, 1469, 7482, 37908, 189912, 925945, 4533893 for depths
//! 1-9 (depths 1-5 as in RULES.md; depth 6 and beyond differ from Russian draughts' 37986 because towers form).
//! Depths 1-7 agree with the naive second implementation in `tests/bashni_reference.rs`. The mid-game bench
//! position gives 67627049 at depth 10. Move generation never allocates; `count_moves` counts quiet moves of men
//! with bitboard shifts, and single jumps of men without the capture search. Measure with
//! `zero bench perft --game bashni` (and `--instructions` for callgrind counts).
//!
//! # Notation
//!
//! Squares a1..h8 (dark only). Position: the side to move (`w`/`b`), then each occupied square as
//! `square:stack`, stack top first, `w`/`b` men, `W`/`B` kings, e.g. `w c1:Bwww e5:wbbbb h8:b`; `start` is the
//! initial position. Quiet move `c3-d4`; capture `c3:e5:c7` listing every stop (`x` accepted for `:`).
//! Squares may also be PDN numbers (1 = b8 ... 32 = g1, as Russian draughts numbers them). A draughts FEN as PDN
//! files and pydraughts write it (`W:Wa1,c1,Ke3:B21,22`, `K` a king, `5-8` a range of numbers) is read as a
//! position of single pieces, so that records of Russian draughts openings replay as Bashni.

mod board;
mod encode;
mod eval;
mod geometry;
mod movegen;
mod notation;
mod rules;
mod state;

pub use board::{Piece, Tower};
pub use encode::{INPUT_PLANES, TOWER_DEPTH, planes};
pub use geometry::{DIRECTION_NAMES, Square, SquareError};
pub use rules::{CaptureTransfer, KingLanding, PromotionMidCapture, Rejump, Rules, VARIANTS};
pub use state::{ACTION_SPACE, Bashni, Move, decode_action, encode_action};

use crate::{Action, ActionList, BenchPositions, Encoding, Game, Heuristic, NotationError, Outcome, RulesError, Side};
use board::Board;
use geometry::{NONE, walk};

impl Game for Bashni {
    type Rules = Rules;
    type Move = Move;

    const NAME: &'static str = "bashni";
    /// PDN, as draughts players write results.
    const RECORD_RESULTS: [&'static str; 3] = ["2-0", "0-2", "1-1"];
    /// Russian draughts' (white first, 8 x 8, algebraic squares): Bashni's board and notation.
    const PDN_GAME_TYPE: Option<&'static str> = Some("25,W,8,8,A0,0");
    const ACTION_SPACE: usize = ACTION_SPACE;
    const SYMMETRIES: usize = 2;
    fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<Rules, RulesError> {
        Rules::parse(variant, options)
    }

    fn describe_rules(rules: &Rules) -> Vec<String> {
        rules.describe()
    }

    fn without_draw_rules(rules: &Rules) -> Rules {
        rules.without_draw_rules()
    }

    /// A move is one action per jump, at most [`movegen::MAX_JUMPS`].
    fn max_actions(rules: &Rules) -> Option<u32> {
        (rules.max_plies > 0).then(|| rules.max_plies * movegen::MAX_JUMPS as u32)
    }

    fn start(rules: &Rules) -> Self {
        Bashni::new(*rules, Board::initial(), 0)
    }

    fn from_position(rules: &Rules, position: &str) -> Result<Self, NotationError> {
        let (board, side) = notation::parse_position(position)?;
        Ok(Bashni::new(*rules, board, side))
    }

    fn position(&self) -> String {
        notation::format_position(self)
    }

    fn render(&self) -> String {
        notation::render(self)
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn to_move(&self) -> Side {
        Side::from_index(self.side)
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
        Bashni::outcome(self)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn recompute_hash(&self) -> u64 {
        self.compute_hash()
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal_moves_into(out);
    }

    fn play(&mut self, mv: &Move) {
        self.play_move(mv);
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: &Move) -> String {
        notation::format_move(mv)
    }

    fn count_moves(&self) -> u64 {
        self.count_legal_moves()
    }

    fn legal_actions(&self, out: &mut ActionList) {
        self.legal_actions_into(out);
    }

    fn apply_action(&mut self, action: Action) {
        self.play_action(action);
    }

    fn move_actions(&self, mv: &Move, out: &mut ActionList) {
        self.move_actions_into(mv, out);
    }

    fn describe_action(action: Action) -> String {
        let (from, d, distance) = decode_action(action);
        let Some(square) = Square::from_index(from) else {
            return format!("action {action} (out of range)");
        };
        match walk(from, d, distance) {
            NONE => format!("{square} {} {distance} (off the board)", DIRECTION_NAMES[d]),
            to => format!(
                "{square} {} {distance} to {}",
                DIRECTION_NAMES[d],
                Square::from_index(to as usize).expect("on board")
            ),
        }
    }

    fn transformed(&self, sym: usize) -> Self {
        if sym == 0 { self.clone() } else { self.turned() }
    }

    fn transform_action(action: Action, sym: usize) -> Action {
        if sym == 0 {
            return action;
        }
        let (from, d, distance) = decode_action(action);
        encode_action(31 - from, 3 - d, distance)
    }
}

impl Encoding for Bashni {
    const INPUT_PLANES: usize = INPUT_PLANES;
    const BOARD_HEIGHT: usize = 8;
    const BOARD_WIDTH: usize = 8;
    const ENCODING_VERSION: u32 = 1;

    fn canonical_symmetry(&self) -> usize {
        Bashni::canonical_symmetry(self)
    }

    fn encode(&self, planes: &mut [f32]) {
        self.encode_planes(planes);
    }
}

impl Heuristic for Bashni {
    fn heuristic(&self) -> f32 {
        eval::heuristic(self)
    }
}

impl BenchPositions for Bashni {
    const BENCH_POSITIONS: &'static [(&'static str, u32)] = &[
        ("start", 9),
        (
            "w a1:w c1:w e1:w g1:Bww b2:w h2:w g3:w b4:w e5:bw d6:b h6:wbbb a7:wbb c7:b b8:b f8:b h8:b",
            10,
        ),
    ];
}
