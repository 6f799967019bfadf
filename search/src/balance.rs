//! Balanced random openings: a few uniformly random legal moves from the start, kept only where a shallow
//! alpha-beta over the game's heuristic judges the position about as even as the start. The arena's opening
//! books (`zero_arena::OpeningBook`) are made of them, and self-play can begin a share of its games with one
//! (`selfplay.opening_share`), so that the network trains on the kind of position its matches start from.
//!
//! The judge compares with the start rather than with 0 because a heuristic need not call the start even (Bagh
//! Chal's counts the tigers' free steps). How deep it looks is the caller's choice. Two plies saw only a capture
//! at once, and let through Bagh Chal openings that lose a goat to a fork. A book, judged once, looks as deep as
//! its game asks (`Heuristic::BOOK_BALANCE_DEPTH`: four, eight for Bagh Chal, whose slower threats four plies
//! miss). Self-play, which judges an opening for every share of its games, looks [`SELFPLAY_BALANCE_DEPTH`]
//! plies: a depth-8 judgement costs about 0.1 s of a core on Bagh Chal, fifty times a depth-4 one.

use crate::alphabeta::{AlphaBeta, SearchLimit};
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;
use zero_games::{Heuristic, Side};

/// Largest difference (on the heuristic's [-1, 1] scale) between an opening's judged score and the start's.
pub const BALANCE_LIMIT: f32 = 0.12;
/// The depth of the judge of self-play's openings (`selfplay.opening_share`).
pub const SELFPLAY_BALANCE_DEPTH: u32 = 4;

/// Judges positions against the start of one rule set.
pub struct BalanceJudge<G: Heuristic> {
    judge: AlphaBeta<G>,
    /// The start's score from the first player's view.
    reference: f32,
}

impl<G: Heuristic> BalanceJudge<G> {
    /// A judge for games under `rules` that searches `depth` plies; `rng` only breaks ties between equal moves,
    /// which scores do not see.
    pub fn new(rules: &G::Rules, depth: u32, rng: ChaCha8Rng) -> Self {
        let mut judge = BalanceJudge {
            judge: AlphaBeta::new(SearchLimit::depth(depth), rng),
            reference: 0.0,
        };
        judge.reference = judge.first_view(&G::start(rules));
        judge
    }

    /// A judge with the start's score already known ([`BalanceJudge::reference`] of an earlier judge of the same
    /// rules, searching as deep as this one will). Its scores depend on nothing judged before it: the alpha-beta's
    /// table starts empty.
    pub fn with_reference(reference: f32, depth: u32, rng: ChaCha8Rng) -> Self {
        BalanceJudge {
            judge: AlphaBeta::new(SearchLimit::depth(depth), rng),
            reference,
        }
    }

    /// The start's score from the first player's view.
    pub fn reference(&self) -> f32 {
        self.reference
    }

    /// The judge's score of `game` (not over) from the first player's view.
    fn first_view(&mut self, game: &G) -> f32 {
        let (_, info) = self.judge.search(game);
        match game.to_move() {
            Side::First => info.value(),
            Side::Second => -info.value(),
        }
    }

    /// The judge's score of `game` (not over) less the start's, from the first player's view: below 0 where the
    /// first player stands worse than at the start.
    pub fn offset(&mut self, game: &G) -> f32 {
        self.first_view(game) - self.reference
    }

    /// Whether `game` is not over and judged within [`BALANCE_LIMIT`] of the start.
    pub fn is_balanced(&mut self, game: &G) -> bool {
        game.outcome().is_none() && self.offset(game).abs() <= BALANCE_LIMIT
    }
}

/// Plays up to `plies` uniformly random legal moves on `game` (fewer where none is left), pushing each onto
/// `line`. A line that ends the game is for the caller to reject ([`BalanceJudge::is_balanced`] does).
pub fn play_random_moves<G: Heuristic, R: Rng>(game: &mut G, plies: u32, rng: &mut R, line: &mut Vec<G::Move>) {
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        let mv = moves.swap_remove(rng.random_range(0..moves.len()));
        game.play(&mv);
        line.push(mv);
    }
}
