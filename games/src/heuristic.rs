//! [`Heuristic`]: a game's static judgement of a position, for the arena's `greedy` and `alphabeta`
//! baselines. Each game writes its own in `src/<game>/eval.rs` (`docs/arena.md` lists them).

use crate::Game;

/// A quick static judgement, game knowledge only, no search.
pub trait Heuristic: Game {
    /// The position's score in [-1, 1] from the side to move's view (1 = surely winning). The default knows
    /// nothing: greedy then plays at random and alpha-beta sees only wins and losses.
    fn heuristic(&self) -> f32 {
        0.0
    }
}
