//! A checkpoint as a player. With `sims=0` it plays the raw policy: the legal action with the highest prior,
//! action by action (a Bashni capture asks the network again at every jump, as the network was trained), until
//! the actions pin down one complete legal move. With `sims` > 0 it runs the selfplay crate's search
//! ([`zero_selfplay::GameSearch`]) at every action of its move instead, as an evaluation player: no root noise,
//! temperature 0 (the most visited action; in Gumbel mode the final choice of sequential halving), and the
//! chosen child's subtree kept for the next action of the same move.

use crate::player::{Player, PlayerRng, legal_moves};
use std::sync::{Arc, Mutex};
use zero_games::{Action, ActionList, Game};
use zero_model::{EvalRequest, Evaluation, Evaluator};
use zero_selfplay::{GameSearch, RootSearch, SelfPlayConfig, search_blocking};

/// An evaluator shared by every game a checkpoint plays in a match: the network is loaded once, and games
/// running in parallel take turns (a `Tensor` may move between threads but not be shared).
pub type SharedEvaluator<G> = Arc<Mutex<Box<dyn Evaluator<G> + Send>>>;

/// Evaluates through the shared evaluator, holding its lock for one call only (so that searches of games
/// running in parallel interleave their leaves).
struct Locked<'a, G: Game>(&'a SharedEvaluator<G>);

impl<G: Game> Evaluator<G> for Locked<'_, G> {
    fn evaluate(&mut self, batch: &[EvalRequest<'_, G>]) -> Vec<Evaluation> {
        let mut evaluator = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        evaluator.evaluate(batch)
    }

    fn name(&self) -> String {
        let evaluator = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        evaluator.name()
    }
}

/// Picks a whole move action by action: `choose(position, legal actions)` is asked at every action until the
/// actions chosen so far start exactly one legal move (so a move with one action, or the only legal move, may
/// be found with fewer questions or none). Every checkpoint player goes through here.
pub fn choose_by_actions<G: Game>(game: &G, mut choose: impl FnMut(&G, &[Action]) -> Action) -> G::Move {
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
        let action = choose(&state, legal.as_slice());
        candidates.retain(|(_, actions)| actions.get(step) == Some(&action));
        assert!(!candidates.is_empty(), "a legal action that starts no legal move");
        state.apply_action(action);
        step += 1;
    }
    candidates.pop().expect("one move left").0
}

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
}

/// The legal action with the highest prior (the first of equals).
fn best_action<G: Game>(evaluator: &SharedEvaluator<G>, game: &G, legal: &[Action]) -> Action {
    let evaluation = Locked(evaluator).evaluate(&[EvalRequest { game, legal }]).remove(0);
    let mut best = 0;
    for (i, &p) in evaluation.priors.iter().enumerate() {
        if p > evaluation.priors[best] {
            best = i;
        }
    }
    legal[best]
}

impl<G: Game> Player<G> for PolicyPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        choose_by_actions(game, |state, legal| best_action(&self.evaluator, state, legal))
    }
}

/// The search settings of an evaluation player: `SelfPlayConfig`'s defaults (c_puct, FPU, Gumbel's m and
/// sigma constants, tree reuse), with `root`, `simulations` and no Dirichlet noise.
pub fn evaluation_config(root: RootSearch, simulations: u32) -> SelfPlayConfig {
    SelfPlayConfig {
        root,
        simulations,
        dirichlet_fraction: 0.0,
        temperature_start: 0.0,
        temperature_end: 0.0,
        ..SelfPlayConfig::default()
    }
}

/// A checkpoint playing through the network search: one search of `simulations` at every action of its move.
pub struct SearchPlayer<G: Game> {
    name: String,
    evaluator: SharedEvaluator<G>,
    config: SelfPlayConfig,
    rng: PlayerRng,
}

impl<G: Game> SearchPlayer<G> {
    /// `config` as made by [`evaluation_config`]; `rng` drives Gumbel's sampling (PUCT needs none).
    pub fn new(name: impl Into<String>, evaluator: SharedEvaluator<G>, config: SelfPlayConfig, rng: PlayerRng) -> Self {
        SearchPlayer {
            name: name.into(),
            evaluator,
            config,
            rng,
        }
    }
}

impl<G: Game> Player<G> for SearchPlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        let SearchPlayer {
            evaluator, config, rng, ..
        } = self;
        let mut search = GameSearch::new(game.clone(), config.root);
        let mut evaluator = Locked(evaluator);
        choose_by_actions(game, |state, _legal| {
            debug_assert_eq!(search.game().hash(), state.hash());
            search_blocking(&mut search, &mut evaluator, config, config.simulations, false, rng);
            let action = search.finish(0.0, rng).action;
            search.advance(action, config.tree_reuse);
            action
        })
    }
}
