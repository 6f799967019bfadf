//! The weakest reference: a uniformly random legal move. Anchors the rating scale at 0.

use crate::player::{Player, PlayerRng, legal_moves};
use rand::RngExt;
use zero_games::Game;

pub struct RandomPlayer {
    name: String,
    rng: PlayerRng,
}

impl RandomPlayer {
    pub fn new(name: impl Into<String>, rng: PlayerRng) -> Self {
        RandomPlayer { name: name.into(), rng }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        let moves = legal_moves(game);
        assert!(!moves.is_empty(), "asked for a move in a finished game");
        moves[self.rng.random_range(0..moves.len())].clone()
    }
}
