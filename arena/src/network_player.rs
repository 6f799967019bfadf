//! A checkpoint as a player. With `sims=0` it plays the raw policy: the legal action with the highest prior,
//! action by action (a Bashni capture asks the network again at every jump, as the network was trained), until
//! the actions pin down one complete legal move.

use crate::player::{Player, legal_moves};
use std::sync::{Arc, Mutex};
use zero_games::{ActionList, Game};
use zero_model::{EvalRequest, Evaluator};

/// An evaluator shared by every game a checkpoint plays in a match: the network is loaded once, and games
/// running in parallel take turns (a `Tensor` may move between threads but not be shared).
pub type SharedEvaluator<G> = Arc<Mutex<Box<dyn Evaluator<G> + Send>>>;

pub struct PolicyPlayer<G: Game> {
    name: String,
    evaluator: SharedEvaluator<G>,
}

impl<G: Game> PolicyPlayer<G> {
    pub fn new(name: impl Into<String>, evaluator: SharedEvaluator<G>) -> Self {
        PolicyPlayer {
            name: name.into(),
            evaluator,
        }
    }

    /// The legal action with the highest prior (the first of equals).
    fn best_action(&self, game: &G, legal: &[zero_games::Action]) -> zero_games::Action {
        let evaluation = {
            let mut evaluator = self.evaluator.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            evaluator.evaluate(&[EvalRequest { game, legal }]).remove(0)
        };
        let mut best = 0;
        for (i, &p) in evaluation.priors.iter().enumerate() {
            if p > evaluation.priors[best] {
                best = i;
            }
        }
        legal[best]
    }
}

impl<G: Game> Player<G> for PolicyPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        let mut candidates: Vec<(G::Move, ActionList)> = legal_moves(game)
            .into_iter()
            .map(|mv| {
                let mut actions = ActionList::new();
                game.move_actions(&mv, &mut actions);
                (mv, actions)
            })
            .collect();
        assert!(!candidates.is_empty(), "asked for a move in a finished game");
        let mut state = game.clone();
        let mut step = 0;
        let mut legal = ActionList::new();
        while candidates.len() > 1 {
            state.legal_actions(&mut legal);
            let action = self.best_action(&state, legal.as_slice());
            candidates.retain(|(_, actions)| actions.get(step) == Some(&action));
            assert!(!candidates.is_empty(), "a legal action that starts no legal move");
            state.apply_action(action);
            step += 1;
        }
        candidates.pop().expect("one move left").0
    }
}
