//! The evaluator of generation 0: uniform priors, and the result of one uniformly random playout as the value.
//! It needs no network, so the same search can bootstrap the first training data and serve as a baseline.

use crate::evaluator::{EvalRequest, Evaluation, Evaluator};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zero_games::{ActionList, Game};

/// The actions a playout runs before it is cut off unless a caller says otherwise (self-play's
/// `rollout_max_actions`, the arena's `uniform:` players): past any game's usual length.
pub const DEFAULT_PLAYOUT_ACTIONS: u32 = 400;

/// Uniform priors; value = result of a random playout to the end from the side to move's view (0 when the
/// playout is cut off after `max_actions` actions). Seeded, so a run is reproducible.
#[derive(Debug, Clone)]
pub struct RolloutEvaluator {
    rng: ChaCha8Rng,
    max_actions: u32,
    playouts: u64,
    actions: u64,
}

impl RolloutEvaluator {
    pub fn new(seed: u64, max_actions: u32) -> Self {
        RolloutEvaluator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            max_actions,
            playouts: 0,
            actions: 0,
        }
    }

    /// Playouts run and actions played in them so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.playouts, self.actions)
    }

    /// The result of one random playout from `game`, from the view of `game`'s side to move.
    pub fn playout<G: Game>(&mut self, game: &G) -> f32 {
        let me = game.to_move();
        let mut game = game.clone();
        let mut legal = ActionList::new();
        self.playouts += 1;
        for _ in 0..self.max_actions {
            if let Some(outcome) = game.outcome() {
                return outcome.value_for(me);
            }
            game.legal_actions(&mut legal);
            let action = legal[self.rng.random_range(0..legal.len())];
            game.apply_action(action);
            self.actions += 1;
        }
        game.outcome().map_or(0.0, |o| o.value_for(me))
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        batch
            .iter()
            .map(|r| {
                let value = self.playout(r.game);
                Evaluation::uniform(r.legal.len(), value, true)
            })
            .collect()
    }

    fn name(&self) -> String {
        "rollout".to_string()
    }
}
