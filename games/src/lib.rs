//! Rules cores for the games zero learns to play.
//!
//! Every game implements one trait, [`Game`]: a small, total API in the spirit of shakmaty: parse and format
//! positions and moves, generate legal moves, play them, read the outcome and its reason, hash positions, and
//! map the board symmetries that preserve the rules. Nothing here depends on torch or on any heavy crate: the
//! search, the encoders and the trainer build on this crate, never the other way round.
//!
//! Two levels of decisions exist side by side:
//! - a **move** is what a player writes down: `c3:e5:c7` in Bashni, `a1xc3` in Bagh Chal. Perft counts moves.
//! - an **action** is one decision of the network, an index in `0..G::ACTION_SPACE`. In most games one move is
//!   one action; a Bashni capture sequence is one action per jump, and the same side keeps the turn until the
//!   capture is complete. [`Game::move_actions`] decomposes a move, and playing its actions one by one gives
//!   the same state as [`Game::play`].
//!
//! A game's rules are [`Game`]; what other parts of the workbench ask of a game sits in traits of its own, each
//! next to the concern it serves: [`Encoding`] (the network's input planes and canonical view, for the model
//! and the trainer), [`Heuristic`] (the static judgement of the arena's greedy and alpha-beta baselines) and
//! [`BenchPositions`] (what `zero bench perft` measures). [`Registered`] bundles them: what the registry asks of
//! every game it lists.
//!
//! Adding a game: implement those traits in a module of its own and add one line to [`registry`]; see
//! `docs/adding-a-game.md`.

mod action_list;
pub mod baghchal;
pub mod bashni;
pub mod bench;
pub mod checks;
mod common;
pub mod connect4;
pub mod encoding;
pub mod grid;
pub mod heuristic;
pub mod registry;
pub mod tours;
pub mod zobrist;

pub use action_list::ActionList;
pub use bench::BenchPositions;
pub use common::{EndReason, Outcome, RulesError, Side, parse_bool, parse_count, parse_options};
pub use encoding::{Encoding, STANDARD_LEVELS, encode_batch, input_len, policy_index};
pub use heuristic::Heuristic;
pub use registry::{GameKind, Registered, UnknownGame};

use std::fmt::Debug;
use std::hash::Hash;

/// One decision of the network: an index into the game's fixed action space `0..G::ACTION_SPACE`.
pub type Action = u16;

/// How people see the board (the browser page draws it so): checkered squares (the draughts-like games), the
/// points where lines cross (Bagh Chal), or columns that discs drop into (Connect Four: any cell of a column
/// plays into it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardStyle {
    Squares,
    Points,
    Columns,
}

impl BoardStyle {
    /// The style's name as the page reads it: `squares`, `points` or `columns`.
    pub fn as_str(self) -> &'static str {
        match self {
            BoardStyle::Squares => "squares",
            BoardStyle::Points => "points",
            BoardStyle::Columns => "columns",
        }
    }
}

/// Why a position or move string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A position string is malformed or describes an impossible position.
    #[error("bad position {token:?}: {reason}")]
    Position { token: String, reason: String },
    /// A move string is malformed, or well formed but not legal in the position.
    #[error("bad move {token:?}: {reason}")]
    Move { token: String, reason: String },
}

impl NotationError {
    pub fn position(token: impl Into<String>, reason: impl Into<String>) -> Self {
        NotationError::Position {
            token: token.into(),
            reason: reason.into(),
        }
    }
    pub fn bad_move(token: impl Into<String>, reason: impl Into<String>) -> Self {
        NotationError::Move {
            token: token.into(),
            reason: reason.into(),
        }
    }
}

/// A game's rules core: the state of one game in progress, with the history its rules depend on (repetitions,
/// no-progress counters), under one fixed rule set.
///
/// A position string alone starts a fresh history; a game's record (start position plus moves) rebuilds it.
/// Methods that take a move or an action expect one that is legal in the current state (as returned by
/// [`Game::legal_moves`] / [`Game::legal_actions`]); parse untrusted input with [`Game::parse_move`].
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The rule set: the default, a named variant or preset, and `key=value` options, including draw rules.
    type Rules: Clone + Debug + PartialEq + Send + Sync + 'static;
    /// A complete move of one player, as written in notation.
    type Move: Clone + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;

    /// The game's name on the command line and in files (`bashni`, `baghchal`, ...).
    const NAME: &'static str;
    /// Size of the fixed action space: every action is `< ACTION_SPACE`, whatever the rules.
    const ACTION_SPACE: usize;
    /// Number of board symmetries that preserve the rules, identity (index 0) included.
    const SYMMETRIES: usize;
    /// How a game record writes its result (the first player won, the second won, a draw): chess's PGN tokens
    /// unless the game's players use others (draughts' PDN: `2-0 0-2 1-1`). Records read either for any game.
    const RECORD_RESULTS: [&'static str; 3] = ["1-0", "0-1", "1/2-1/2"];
    /// The numeric `GameType` of PDN (the draughts standard) whose board and notation a record of this game
    /// shares, if any (Bashni: 25, Russian draughts, with `A0`: algebraic squares): such records carry it, and
    /// the game's name in a `Variant` tag, so that draughts tools read them. `None`: the game's name is the
    /// record's `GameType`.
    const PDN_GAME_TYPE: Option<&'static str> = None;
    /// How the board is drawn for people ([`BoardStyle`]).
    const BOARD_STYLE: BoardStyle = BoardStyle::Squares;

    /// Parses a rule set: `variant` names the default (`None`), a variant or a preset; each option is
    /// `key=value` and is applied after the variant.
    fn parse_rules(variant: Option<&str>, options: &[String]) -> Result<Self::Rules, RulesError>;
    /// The rule set written back as `key=value` options, complete, so that files record exactly what was played.
    fn describe_rules(rules: &Self::Rules) -> Vec<String>;
    /// The same rule set with every draw rule (repetition, no-progress, ply cap) switched off, as perft counts.
    fn without_draw_rules(rules: &Self::Rules) -> Self::Rules;
    /// The most actions a game from the initial position can take under `rules` (its ply cap times the most
    /// actions a move is made of), or `None` when the rules set no bound: the length OpenSpiel's users know as
    /// `max_game_length`.
    fn max_actions(rules: &Self::Rules) -> Option<u32>;

    /// The initial position.
    fn start(rules: &Self::Rules) -> Self;
    /// Parses a position in the game's notation; `start` names the initial position.
    fn from_position(rules: &Self::Rules, position: &str) -> Result<Self, NotationError>;
    /// The current position in notation; `from_position(position())` gives back an equal position (with a fresh
    /// history).
    fn position(&self) -> String;
    /// The board drawn as text for people.
    fn render(&self) -> String;
    /// The rule set this game is played under.
    fn rules(&self) -> &Self::Rules;

    /// The player to move (to act, in the middle of a multi-action move).
    fn to_move(&self) -> Side;
    /// A player's name in this game (`white`, `goats`, ...).
    fn player_name(player: Side) -> &'static str;
    /// Plies (complete moves) played since the game started.
    fn ply(&self) -> u32;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// How well the side to move stands on the game's own material count, in [-1, 1], for games whose results
    /// hide a margin a player can still play for (Bagh Chal's goats captured: a win with one goat lost and with
    /// four are both a win). Self-play records it at a game's end as an auxiliary target, and a search may add
    /// it to the value (`score_utility`). 0 for games without one.
    fn score(&self) -> f32 {
        0.0
    }
    /// Zobrist hash of everything the rules depend on in this position (board, side to move, counters that
    /// change legality, mid-move state), maintained incrementally.
    fn hash(&self) -> u64;
    /// The hash computed from scratch; equals [`Game::hash`] (a check for tests).
    fn recompute_hash(&self) -> u64;

    /// Appends every legal move to `out` (cleared first). Empty when the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a legal move.
    fn play(&mut self, mv: &Self::Move);
    /// Parses a move in notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;
    /// The move in notation.
    fn format_move(&self, mv: &Self::Move) -> String;
    /// Number of legal moves; may be faster than generating them (perft's bulk counting at the last ply).
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// Appends the legal actions to `out` (cleared first). Empty when the game is over.
    fn legal_actions(&self, out: &mut ActionList);
    /// Plays a legal action. The same player may have to act again (mid-capture).
    fn apply_action(&mut self, action: Action);
    /// The actions that together make up `mv`, in order.
    fn move_actions(&self, mv: &Self::Move, out: &mut ActionList);
    /// A short readable name of an action, for logs and debugging (not a notation to parse).
    fn describe_action(action: Action) -> String;

    /// The position transformed by symmetry `sym` (`0..SYMMETRIES`, 0 = identity), history included.
    fn transformed(&self, sym: usize) -> Self;
    /// The action that corresponds to `action` under symmetry `sym`.
    fn transform_action(action: Action, sym: usize) -> Action;
}

/// Counts the leaves of the legal-move tree to `depth` (moves, not actions), with bulk counting at the last ply.
/// Move buffers are reused across the whole walk, one per level, so the count itself does not allocate per node.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut buffers = (0..depth).map(|_| Vec::new()).collect::<Vec<_>>();
    perft_with(game, depth, &mut buffers)
}

fn perft_with<G: Game>(game: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => {
            let (moves, deeper) = buffers.split_first_mut().expect("one buffer per level");
            game.legal_moves(moves);
            let mut total = 0;
            for mv in moves.iter() {
                let mut child = game.clone();
                child.play(mv);
                total += perft_with(&child, depth - 1, deeper);
            }
            total
        }
    }
}

/// Perft split by root move: each legal move in notation with its count, in the order generated.
pub fn perft_divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv);
            (game.format_move(mv), perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
