//! A player spec made ready for one game: what is expensive (loading a network) is done once here, and
//! [`Entrant::player`] then makes a fresh player for each game of a match.

use crate::ArenaError;
use crate::baselines::{AlphaBetaPlayer, GreedyPlayer, RandomPlayer, UctPlayer};
use crate::network_player::{PolicyPlayer, SearchPlayer, SharedEvaluator};
use crate::player::{Player, player_rng};
use crate::spec::{Network, NetworkPlayer, PlayerKind, PlayerSpec};
use crate::tablebase_player::{TablebasePlayer, as_player_of, is_baghchal};
use rand::RngExt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use zero_games::Registered;
use zero_model::NetworkEvaluator;
use zero_search::{CachedEvaluator, PlaySearch, RolloutEvaluator};

/// Positions a checkpoint player's evaluator remembers (one match's worth of repeated openings).
const EVAL_CACHE: usize = 1 << 16;

/// One participant of a match or a pool.
pub struct Entrant<G: Registered> {
    pub spec: PlayerSpec,
    name: String,
    evaluator: Option<SharedEvaluator<G>>,
    /// The tablebase of a `tablebase` player, opened once and shared by its games.
    tablebase: Option<Arc<zero_tablebase::Table>>,
}

impl<G: Registered> Entrant<G> {
    /// Makes `spec` ready for game `G`: loads and checks a checkpoint (refusing one made for another game).
    pub fn prepare(spec: PlayerSpec) -> Result<Entrant<G>, ArenaError> {
        let spec = spec.for_game::<G>();
        let name = spec.name();
        let evaluator = match &spec.kind {
            PlayerKind::Network(player) => load(player)?,
            _ => None,
        };
        let tablebase = match &spec.kind {
            PlayerKind::Tablebase { file, .. } => Some(open_tablebase::<G>(file.as_deref())?),
            _ => None,
        };
        Ok(Entrant {
            spec,
            name,
            evaluator,
            tablebase,
        })
    }

    /// Parses and prepares a spec string.
    pub fn parse(text: &str) -> Result<Entrant<G>, ArenaError> {
        Entrant::prepare(PlayerSpec::parse(text)?)
    }

    /// An entrant playing the raw policy of any evaluator (tests, and callers that hold a network already).
    pub fn with_evaluator(name: impl Into<String>, evaluator: Box<dyn zero_search::Evaluator<G> + Send>) -> Self {
        let raw_policy = PlaySearch {
            sims: 0,
            ..PlaySearch::DEFAULT
        };
        Entrant::searching_with_evaluator(name, evaluator, raw_policy)
    }

    /// An entrant searching with any evaluator as `search` says (`sims` = 0: the raw policy, as
    /// [`Entrant::with_evaluator`]), named `name`.
    pub fn searching_with_evaluator(
        name: impl Into<String>,
        evaluator: Box<dyn zero_search::Evaluator<G> + Send>,
        search: PlaySearch,
    ) -> Self {
        let name = name.into();
        let spec = PlayerSpec::network(Network::Given(name.clone()), search).labelled(name.as_str());
        Entrant {
            spec,
            name,
            evaluator: Some(Arc::new(Mutex::new(evaluator))),
            tablebase: None,
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

    /// The network every game of this entrant shares (`None` for the baselines).
    pub(crate) fn shared_evaluator(&self) -> Option<SharedEvaluator<G>> {
        self.evaluator.clone()
    }

    /// A copy of the network of its own, for a game played beside others on a thread of its own (loaded again
    /// from its file; the shared one for an entrant made around an evaluator, `None` for the baselines and a
    /// uniform player, whose games make their own).
    pub(crate) fn evaluator_copy(&self) -> Result<Option<SharedEvaluator<G>>, ArenaError> {
        match &self.spec.kind {
            // A network given in code has no file to load again: its games share it.
            PlayerKind::Network(player) if !matches!(player.network, Network::Given(_)) => load(player),
            _ => Ok(self.evaluator.clone()),
        }
    }

    /// A fresh player for one game; `seed` and `stream` fix its random choices.
    pub fn player(&self, seed: u64, stream: u64) -> Box<dyn Player<G>> {
        self.player_with(seed, stream, self.evaluator.clone())
    }

    /// [`Entrant::player`] with the network `evaluator` (one of [`Entrant::evaluator_copy`]'s).
    pub(crate) fn player_with(
        &self,
        seed: u64,
        stream: u64,
        evaluator: Option<SharedEvaluator<G>>,
    ) -> Box<dyn Player<G>> {
        let rng = player_rng(seed, stream);
        let name = self.name.clone();
        match &self.spec.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(name, rng)),
            PlayerKind::Greedy => Box::new(GreedyPlayer::new(name, rng)),
            PlayerKind::AlphaBeta(limit) => Box::new(AlphaBetaPlayer::<G>::new(name, *limit, rng)),
            PlayerKind::Mcts { simulations } => Box::new(UctPlayer::new(name, *simulations, rng)),
            PlayerKind::Tablebase { placement, .. } => {
                let table = self.tablebase.clone().expect("prepared with its tablebase");
                as_player_of::<G>(Box::new(TablebasePlayer::new(name, table, *placement, rng)))
            }
            PlayerKind::Network(player) => {
                let evaluator = match player.network {
                    Network::Uniform => playouts(seed, stream),
                    _ => evaluator.expect("prepared with its evaluator"),
                };
                network_player::<G>(name, player, evaluator, rng)
            }
        }
    }
}

/// A network player of one game: its raw policy, or its search.
fn network_player<G: Registered>(
    name: String,
    player: &NetworkPlayer,
    evaluator: SharedEvaluator<G>,
    rng: crate::player::PlayerRng,
) -> Box<dyn Player<G>> {
    if !player.search.searches() {
        return Box::new(PolicyPlayer::new(name, evaluator));
    }
    Box::new(SearchPlayer::new(
        name,
        evaluator,
        player.search.config(),
        player.search.budget(),
        rng,
        player.search.temperature,
        zero_search::minimax::heuristic_judge::<G>,
    ))
}

/// A uniform player's evaluator for one game: random playouts from a generator of the game's own, apart from
/// the player's (which drives Gumbel's sampling), so that a match seed reproduces every game.
fn playouts<G: Registered>(seed: u64, stream: u64) -> SharedEvaluator<G> {
    const PLAYOUT_STREAMS: u64 = 1 << 32;
    let seed = player_rng(seed, stream + PLAYOUT_STREAMS).random::<u64>();
    let rollouts = RolloutEvaluator::new(seed, zero_search::rollout::DEFAULT_PLAYOUT_ACTIONS);
    Arc::new(Mutex::new(Box::new(rollouts)))
}

/// Opens the tablebase of a `tablebase` player: the file named, or the default one; Bagh Chal only.
fn open_tablebase<G: Registered>(file: Option<&Path>) -> Result<Arc<zero_tablebase::Table>, ArenaError> {
    if !is_baghchal::<G>() {
        return Err(ArenaError::Invalid(format!(
            "the tablebase player plays baghchal only, not {}",
            G::NAME
        )));
    }
    let table = zero_tablebase::open(file).map_err(|e| ArenaError::Invalid(e.to_string()))?;
    Ok(Arc::new(table))
}

/// Loads a network player's checkpoint (a bundle's) as a network evaluator with a cache of its own; a uniform
/// player has none (each game makes its playouts'), a network handed over in code no file to load.
fn load<G: Registered>(player: &NetworkPlayer) -> Result<Option<SharedEvaluator<G>>, ArenaError> {
    let weights;
    let path = match &player.network {
        Network::Checkpoint(path) => path,
        Network::Bundle { dir, .. } => {
            weights = dir.join(zero_bundle::WEIGHTS_FILE);
            &weights
        }
        Network::Uniform => return Ok(None),
        Network::Given(name) => {
            return Err(ArenaError::Invalid(format!(
                "network {name} was handed over in code: it has no checkpoint to load"
            )));
        }
    };
    let device = player.device.resolve().map_err(|e| ArenaError::Device(e.to_string()))?;
    let evaluator = NetworkEvaluator::<G>::from_checkpoint(path, device, player.precision).map_err(|source| {
        ArenaError::Checkpoint {
            path: path.display().to_string(),
            source,
        }
    })?;
    let evaluator = CachedEvaluator::new(evaluator, EVAL_CACHE);
    let boxed: Box<dyn zero_search::Evaluator<G> + Send> = Box::new(evaluator);
    Ok(Some(Arc::new(Mutex::new(boxed))))
}
