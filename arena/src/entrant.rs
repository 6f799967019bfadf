//! A player spec made ready for one game: what is expensive (loading a network) is done once here, and
//! [`Entrant::player`] then makes a fresh player for each game of a match.

use crate::ArenaError;
use crate::baselines::{AlphaBeta, GreedyPlayer, RandomPlayer, UctPlayer};
use crate::network_player::{PolicyPlayer, SharedEvaluator};
use crate::player::{Player, player_rng};
use crate::spec::{PlayerKind, PlayerSpec};
use std::sync::{Arc, Mutex};
use zero_games::Game;
use zero_model::NetworkEvaluator;

/// Positions a checkpoint player's evaluator remembers (one match's worth of repeated openings).
const EVAL_CACHE: usize = 1 << 16;

/// One participant of a match or a pool.
pub struct Entrant<G: Game> {
    pub spec: PlayerSpec,
    name: String,
    evaluator: Option<SharedEvaluator<G>>,
}

impl<G: Game> Entrant<G> {
    /// Makes `spec` ready for game `G`: loads and checks a checkpoint (refusing one made for another game).
    pub fn prepare(spec: PlayerSpec) -> Result<Entrant<G>, ArenaError> {
        let name = spec.name();
        let evaluator = match &spec.kind {
            PlayerKind::Checkpoint {
                path,
                simulations,
                device,
            } => {
                if *simulations > 0 {
                    return Err(ArenaError::SearchUnavailable { spec: spec.canonical() });
                }
                let device = device.resolve().map_err(|e| ArenaError::Device(e.to_string()))?;
                let evaluator = NetworkEvaluator::<G>::from_checkpoint(path, device)
                    .map_err(|source| ArenaError::Checkpoint {
                        path: path.display().to_string(),
                        source,
                    })?
                    .with_cache(EVAL_CACHE);
                let boxed: Box<dyn zero_model::Evaluator<G> + Send> = Box::new(evaluator);
                Some(Arc::new(Mutex::new(boxed)))
            }
            _ => None,
        };
        Ok(Entrant { spec, name, evaluator })
    }

    /// Parses and prepares a spec string.
    pub fn parse(text: &str) -> Result<Entrant<G>, ArenaError> {
        Entrant::prepare(PlayerSpec::parse(text)?)
    }

    /// An entrant playing the raw policy of any evaluator (tests, and callers that hold a network already).
    pub fn with_evaluator(name: impl Into<String>, evaluator: Box<dyn zero_model::Evaluator<G> + Send>) -> Self {
        let name = name.into();
        Entrant {
            spec: PlayerSpec {
                kind: PlayerKind::Checkpoint {
                    path: name.clone().into(),
                    simulations: 0,
                    device: zero_model::DeviceChoice::Cpu,
                },
                label: Some(name.clone()),
            },
            name,
            evaluator: Some(Arc::new(Mutex::new(evaluator))),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Gives the entrant another name (to tell apart two entrants of the same spec).
    pub fn renamed(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// A fresh player for one game; `seed` and `stream` fix its random choices.
    pub fn player(&self, seed: u64, stream: u64) -> Box<dyn Player<G>> {
        let rng = player_rng(seed, stream);
        let name = self.name.clone();
        match &self.spec.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(name, rng)),
            PlayerKind::Greedy => Box::new(GreedyPlayer::new(name, rng)),
            PlayerKind::AlphaBeta(limit) => Box::new(AlphaBeta::<G>::new(name, *limit, rng)),
            PlayerKind::Mcts { simulations } => Box::new(UctPlayer::new(name, *simulations, rng)),
            PlayerKind::Checkpoint { .. } => Box::new(PolicyPlayer::new(
                name,
                self.evaluator.clone().expect("prepared with its evaluator"),
            )),
        }
    }
}
