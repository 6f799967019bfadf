//! A checkpoint as a player. With `sims=0` it plays the raw policy: the legal action with the highest prior,
//! action by action (a Bashni capture asks the network again at every jump, as the network was trained), until
//! the actions pin down one complete legal move. With `sims` > 0 it plays through the search crate's
//! [`Engine`], as the bot does: no root noise, temperature 0, the chosen child's subtree kept for the next
//! action of the same move.

use crate::player::{Player, PlayerRng};
use std::sync::{Arc, Mutex};
use zero_games::{Action, Encoding};
use zero_search::minimax::StaticJudge;
use zero_search::{Budget, Engine, EvalRequest, Evaluation, Evaluator, SearchConfig, choose_by_actions};

/// An evaluator shared by every game a checkpoint plays in a match: the network is loaded once, and games
/// running in parallel take turns (a `Tensor` may move between threads but not be shared).
pub type SharedEvaluator<G> = Arc<Mutex<Box<dyn Evaluator<G> + Send>>>;

/// Evaluates through the shared evaluator, holding its lock for one call only (so that searches of games
/// running in parallel interleave their leaves).
pub struct Locked<G: Encoding>(SharedEvaluator<G>);

impl<G: Encoding> Evaluator<G> for Locked<G> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        let mut evaluator = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        evaluator.evaluate(batch)
    }

    fn name(&self) -> String {
        let evaluator = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        evaluator.name()
    }
}

pub struct PolicyPlayer<G: Encoding> {
    name: String,
    evaluator: Locked<G>,
}

impl<G: Encoding> PolicyPlayer<G> {
    pub fn new(name: impl Into<String>, evaluator: SharedEvaluator<G>) -> Self {
        PolicyPlayer {
            name: name.into(),
            evaluator: Locked(evaluator),
        }
    }
}

/// The legal action with the highest prior (the first of equals).
fn best_action<G: Encoding>(evaluator: &mut Locked<G>, game: &G, legal: &[Action]) -> Action {
    let evaluation = evaluator.evaluate(&[EvalRequest { game, legal }]).remove(0);
    let mut best = 0;
    for (i, &p) in evaluation.priors.iter().enumerate() {
        if p > evaluation.priors[best] {
            best = i;
        }
    }
    legal[best]
}

impl<G: Encoding> Player<G> for PolicyPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        choose_by_actions(game, |state, legal| best_action(&mut self.evaluator, state, legal))
    }
}

/// A checkpoint playing through the network search within a budget per move: simulations at every action of
/// its move, or a time for the whole move.
pub struct SearchPlayer<G: Encoding> {
    name: String,
    engine: Engine<G, Locked<G>>,
    budget: Budget,
    simulations: u64,
}

impl<G: Encoding> SearchPlayer<G> {
    /// `config` as made by [`SearchConfig::for_play`]; `rng` drives Gumbel's sampling (PUCT needs none);
    /// `judge` is the game's static judge, for a config's `minimax_weight`.
    pub fn new(
        name: impl Into<String>,
        evaluator: SharedEvaluator<G>,
        config: SearchConfig,
        budget: Budget,
        rng: PlayerRng,
        temperature: f32,
        judge: StaticJudge<G>,
    ) -> Self {
        let mut engine = Engine::new(Locked(evaluator), config, rng);
        engine.set_temperature(temperature);
        engine.set_static_judge(judge);
        SearchPlayer {
            name: name.into(),
            engine,
            budget,
            simulations: 0,
        }
    }
}

impl<G: Encoding> Player<G> for SearchPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        let thought = self.engine.think(game, self.budget);
        self.simulations += u64::from(thought.simulations);
        thought.mv
    }

    fn simulations(&self) -> Option<u64> {
        Some(self.simulations)
    }
}
