//! The `alphabeta` baseline: the search crate's classic engine ([`zero_search::alphabeta`]) as an arena player.

use crate::player::{Player, PlayerRng};
use zero_games::Heuristic;
use zero_search::alphabeta::{AlphaBeta, SearchLimit};

/// Alpha-beta under a name; keeps its engine (table, killers, history) between the moves of one game.
pub struct AlphaBetaPlayer<G: Heuristic> {
    name: String,
    engine: AlphaBeta<G>,
}

impl<G: Heuristic> AlphaBetaPlayer<G> {
    pub fn new(name: impl Into<String>, limit: SearchLimit, rng: PlayerRng) -> Self {
        AlphaBetaPlayer {
            name: name.into(),
            engine: AlphaBeta::new(limit, rng),
        }
    }
}

impl<G: Heuristic> Player<G> for AlphaBetaPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        self.engine.search(game).0
    }
}
