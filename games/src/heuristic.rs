//! [`Heuristic`]: a game's static judgement of a position, for the arena's `greedy` and `alphabeta`
//! baselines. Each game writes its own in `src/<game>/eval.rs` (`docs/arena.md` lists them).

use crate::{ActionList, Game, Side};

/// A quick static judgement, game knowledge only, no search.
pub trait Heuristic: Game {
    /// How many plies deep the judge of an opening book (`zero_search::balance`) searches with this heuristic
    /// before it calls an opening balanced. Four sees a capture and a fork; a game whose threats take longer to
    /// land looks deeper, at the cost of its book's generation (a search of eight plies on Tours did not finish
    /// a 64-opening book in ten minutes of a core).
    const BOOK_BALANCE_DEPTH: u32 = 4;

    /// The position's score in [-1, 1] from the side to move's view (1 = surely winning). The default knows
    /// nothing: greedy then plays at random and alpha-beta sees only wins and losses.
    fn heuristic(&self) -> f32 {
        0.0
    }

    /// Appends to `out` the actions of the side to move that take material at once, for the search's quiescence
    /// judge (`zero_search::minimax`), which plays them out before it trusts [`Heuristic::heuristic`]. The
    /// default, none, leaves that judge the one-ply heuristic. The `greedy` and `alphabeta` baselines do not
    /// read it.
    fn captures(&self, out: &mut ActionList) {
        let _ = out;
    }
}

/// The value of the position `child` reached by a move of `mover`, from the mover's view: the result if the game
/// is over (a win, at 2, beats every heuristic value), else the heuristic of the side to move then, negated when
/// that is the opponent. The one-ply judgement of the `greedy` baseline and alpha-beta's move ordering.
pub fn value_after<G: Heuristic>(child: &G, mover: Side) -> f32 {
    match child.outcome() {
        Some(outcome) => 2.0 * outcome.value_for(mover),
        None if child.to_move() == mover => child.heuristic(),
        None => -child.heuristic(),
    }
}
