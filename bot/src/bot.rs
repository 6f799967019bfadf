//! [`Bot`]: a bundle's network playing through the search crate's [`Engine`] (no noise, the most visited
//! action), on the CPU, with the bundle's root search and default budget. The line protocol, the terminal game
//! and the web page all think through it.

use crate::bundle::Bundle;
use anyhow::Result;
use zero_games::{Encoding, Game, Outcome};
use zero_model::NetworkEvaluator;
use zero_search::{Budget, Engine, SearchConfig, actions_to_moves};

/// What the bot decided, in notation.
#[derive(Debug, Clone)]
pub struct Decision<G: Game> {
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

/// The bundle's network and search, ready to play game `G`.
pub struct Bot<G: Encoding> {
    engine: Engine<G, NetworkEvaluator<G>>,
    /// The budget of a move when the caller names none.
    pub default_budget: Budget,
    pub rules: G::Rules,
}

impl<G: Encoding> Bot<G> {
    /// The bundle's network on the CPU, with the bundle's root search; `sims` overrides the bundle's default.
    pub fn from_bundle(bundle: &Bundle, sims: Option<u32>) -> Result<Self> {
        let evaluator = bundle
            .evaluator::<G>(tch::Device::Cpu, zero_model::Precision::Auto)?
            .with_cache(50_000);
        let sims = sims.unwrap_or(bundle.manifest.search.sims).max(1);
        let config = SearchConfig::for_play(bundle.manifest.search.root, sims);
        Ok(Bot {
            // Fixed seed: the same position and budget give the same move (Gumbel sampling included).
            engine: Engine::seeded(evaluator, config, 0),
            default_budget: Budget::Simulations(sims),
            rules: bundle.rules::<G>()?,
        })
    }

    /// Chooses a move in `game`, which must not be over. A forced move is still searched once, for its
    /// evaluation.
    pub fn think(&mut self, game: &G, budget: Budget) -> Decision<G> {
        let thought = self.engine.think(game, budget);
        let mut simulations = thought.simulations;
        let (value, line_actions) = match thought.value {
            Some(value) => (value, thought.line),
            None => {
                let (value, line, sims) = self.engine.analyse(game, budget);
                simulations += sims;
                (value, line)
            }
        };
        let text = game.format_move(&thought.mv);
        let mut line = actions_to_moves(game, &line_actions);
        if line.first() != Some(&text) {
            // The first search's favourite line may start elsewhere than the later steps chose.
            line = vec![text.clone()];
        }
        Decision {
            mv: thought.mv,
            text,
            value,
            line,
            simulations,
        }
    }
}

/// A finished game's result in words: `white wins (no legal move)`, `draw (repetition)`.
pub fn describe_outcome<G: Game>(outcome: &Outcome) -> String {
    match outcome.winner {
        Some(player) => format!("{} wins ({})", G::player_name(player), outcome.reason),
        None => format!("draw ({})", outcome.reason),
    }
}
