//! The bot's thinking: selfplay's search driven directly with the bundle's network, no noise, the most visited
//! action. A move of several actions (a Bashni capture sequence) is chosen action by action, with a search at
//! each step, until the actions pin down one complete legal move: the network was trained that way.

use crate::bundle::Bundle;
use anyhow::Result;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use zero_arena::network_player::choose_by_actions;
use zero_games::{Action, ActionList, Game, Outcome};
use zero_model::NetworkEvaluator;
use zero_selfplay::config::SelfPlayConfig;
use zero_selfplay::search::{GameSearch, search_blocking};
use zero_selfplay::tree::{NodeState, ROOT, Tree};

/// How long to think about one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    Simulations(u32),
    /// Searches in small chunks until the time is spent (at least one chunk).
    MoveTime(Duration),
}

/// Simulations per chunk of a timed search: small enough to stop close to the deadline.
const TIMED_CHUNK: u32 = 16;

/// What the bot decided.
#[derive(Debug, Clone)]
pub struct Thought<G: Game> {
    pub mv: G::Move,
    /// The move in notation.
    pub text: String,
    /// The root value of the first search, in [-1, 1], from the moving side's view.
    pub value: f32,
    /// The expected line, in notation, starting with the move.
    pub line: Vec<String>,
    /// Simulations run over all the steps of the move.
    pub simulations: u32,
}

pub struct Engine<G: Game> {
    evaluator: NetworkEvaluator<G>,
    config: SelfPlayConfig,
    rng: ChaCha8Rng,
    pub default_budget: Budget,
    pub rules: G::Rules,
}

impl<G: Game> Engine<G> {
    /// The bundle's network on the CPU, with the bundle's root search; `sims` overrides the bundle's default.
    pub fn from_bundle(bundle: &Bundle, sims: Option<u32>) -> Result<Self> {
        let evaluator = bundle
            .evaluator::<G>(tch::Device::Cpu, zero_model::Precision::Auto)?
            .with_cache(50_000);
        let config = SelfPlayConfig {
            root: bundle.manifest.search.root,
            dirichlet_fraction: 0.0,
            ..SelfPlayConfig::default()
        };
        Ok(Engine {
            evaluator,
            config,
            // Fixed seed: the same position and budget give the same move (Gumbel sampling included).
            rng: ChaCha8Rng::seed_from_u64(0),
            default_budget: Budget::Simulations(sims.unwrap_or(bundle.manifest.search.sims).max(1)),
            rules: bundle.rules::<G>()?,
        })
    }

    /// Chooses a move in `game`, which must not be over.
    pub fn think(&mut self, game: &G, budget: Budget) -> Thought<G> {
        let mut simulations = 0;
        let mut first: Option<(f32, Vec<Action>)> = None;
        let mv = choose_by_actions(game, |state, _| {
            let (action, evaluation, sims) = self.search(state, budget);
            simulations += sims;
            first.get_or_insert(evaluation);
            action
        });
        let (value, line_actions) = match first {
            Some(evaluation) => evaluation,
            None => {
                // A forced move is chosen without a search; it is still searched once, for its evaluation.
                let (_, evaluation, sims) = self.search(game, budget);
                simulations += sims;
                evaluation
            }
        };
        let text = game.format_move(&mv);
        let mut line = actions_to_moves(game, &line_actions);
        if line.first() != Some(&text) {
            // The first search's favourite line may start elsewhere than the later steps chose.
            line = vec![text.clone()];
        }
        Thought {
            mv,
            text,
            value,
            line,
            simulations,
        }
    }

    /// One search of `state`: the chosen action, the root value with the principal line of actions, and the
    /// simulations it ran.
    fn search(&mut self, state: &G, budget: Budget) -> (Action, (f32, Vec<Action>), u32) {
        let mut search = GameSearch::new(state.clone(), self.config.root);
        let simulations = self.run(&mut search, budget);
        let result = search.finish(0.0, &mut self.rng);
        let line = principal_line(search.tree(), result.action);
        (result.action, (result.root_value, line), simulations)
    }

    fn run(&mut self, search: &mut GameSearch<G>, budget: Budget) -> u32 {
        match budget {
            Budget::Simulations(n) => {
                search_blocking(search, &mut self.evaluator, &self.config, n, false, &mut self.rng);
                search.completed()
            }
            Budget::MoveTime(limit) => {
                let start = Instant::now();
                let mut total = 0;
                loop {
                    search_blocking(
                        search,
                        &mut self.evaluator,
                        &self.config,
                        TIMED_CHUNK,
                        false,
                        &mut self.rng,
                    );
                    total += search.completed();
                    if start.elapsed() >= limit {
                        return total;
                    }
                }
            }
        }
    }
}

/// `action` then, below it, the most visited child at each level while there is one.
fn principal_line(tree: &Tree, action: Action) -> Vec<Action> {
    let mut line = vec![action];
    let mut node = tree.child_by_action(ROOT, action);
    while let Some(id) = node {
        let n = tree.node(id);
        if n.state != NodeState::Expanded {
            break;
        }
        let best = n
            .children()
            .filter(|&c| tree.node(c).visits > 0)
            .max_by_key(|&c| tree.node(c).visits);
        node = best;
        if let Some(c) = best {
            line.push(tree.node(c).action);
        }
    }
    line
}

/// Turns a line of actions into the complete moves it makes, in notation (a trailing partial move is dropped).
pub fn actions_to_moves<G: Game>(game: &G, actions: &[Action]) -> Vec<String> {
    let mut out = Vec::new();
    let mut position = game.clone();
    let mut rest = actions;
    while !rest.is_empty() && position.outcome().is_none() {
        let mut moves = Vec::new();
        position.legal_moves(&mut moves);
        let found = moves.into_iter().find(|mv| {
            let mut list = ActionList::new();
            position.move_actions(mv, &mut list);
            rest.starts_with(list.as_slice())
        });
        let Some(mv) = found else { break };
        let mut list = ActionList::new();
        position.move_actions(&mv, &mut list);
        out.push(position.format_move(&mv));
        position.play(&mv);
        rest = &rest[list.len()..];
    }
    out
}

/// A finished game's result in words: `white wins (no legal move)`, `draw (repetition)`.
pub fn describe_outcome<G: Game>(outcome: &Outcome) -> String {
    match outcome.winner {
        Some(player) => format!("{} wins ({})", G::player_name(player), outcome.reason),
        None => format!("draw ({})", outcome.reason),
    }
}
