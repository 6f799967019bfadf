//! Bagh Chal's perfect player: wherever the tablebase answers (the sliding phase and the last placements, which
//! it searches exactly) it plays a move that keeps the position's value at its best, the fastest win or the
//! slowest loss, chosen at random among equals; before that it plays the arena's alpha-beta.

use crate::baselines::AlphaBetaPlayer;
use crate::player::{Player, PlayerRng};
use rand::RngExt;
use std::sync::Arc;
use zero_games::Game;
use zero_games::baghchal::{BaghChal, BaghChalMove};
use zero_search::alphabeta::SearchLimit;
use zero_tablebase::Table;

pub struct TablebasePlayer {
    name: String,
    table: Arc<Table>,
    placement: AlphaBetaPlayer<BaghChal>,
    rng: PlayerRng,
}

impl TablebasePlayer {
    pub fn new(name: String, table: Arc<Table>, placement: SearchLimit, mut rng: PlayerRng) -> Self {
        let engine_rng = crate::player::player_rng(rng.random(), 0);
        TablebasePlayer {
            placement: AlphaBetaPlayer::new(name.clone(), placement, engine_rng),
            name,
            table,
            rng,
        }
    }
}

impl Player<BaghChal> for TablebasePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &BaghChal) -> BaghChalMove {
        match self.table.probe(game) {
            Ok(probe) => {
                let best = probe.best_moves();
                best[self.rng.random_range(0..best.len())]
            }
            Err(_) => self.placement.choose_move(game),
        }
    }
}

/// Whether `G` is Bagh Chal, the one game with a tablebase.
pub(crate) fn is_baghchal<G: Game>() -> bool {
    std::any::TypeId::of::<G>() == std::any::TypeId::of::<BaghChal>()
}

/// A Bagh Chal player as a player of `G`, which must be Bagh Chal ([`is_baghchal`]): the arena is generic over
/// its game, and this one player exists for one game only.
pub(crate) fn as_player_of<G: Game>(player: Box<dyn Player<BaghChal>>) -> Box<dyn Player<G>> {
    let any: Box<dyn std::any::Any> = Box::new(player);
    *any.downcast::<Box<dyn Player<G>>>()
        .unwrap_or_else(|_| panic!("a tablebase player is made for Bagh Chal only"))
}
