//! One-ply look-ahead: play each legal move, judge the position it leads to with the game's
//! [`Heuristic::heuristic`], and take the best; a move that ends the game is judged by its result. Ties (common: many
//! quiet moves change nothing the heuristic sees) are broken at random so that games vary.

use crate::player::{Player, PlayerRng, legal_moves};
use rand::RngExt;
use zero_games::Heuristic;
use zero_games::heuristic::value_after;

pub struct GreedyPlayer {
    name: String,
    rng: PlayerRng,
}

impl GreedyPlayer {
    pub fn new(name: impl Into<String>, rng: PlayerRng) -> Self {
        GreedyPlayer { name: name.into(), rng }
    }
}

impl<G: Heuristic> Player<G> for GreedyPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        let moves = legal_moves(game);
        assert!(!moves.is_empty(), "asked for a move in a finished game");
        let mover = game.to_move();
        let values: Vec<f32> = moves
            .iter()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv);
                value_after(&child, mover)
            })
            .collect();
        let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // Values within a hair of the best count as ties.
        let tied: Vec<usize> = (0..moves.len()).filter(|&i| values[i] >= best - 1e-6).collect();
        moves[tied[self.rng.random_range(0..tied.len())]].clone()
    }
}
