//! A player spec made ready for one game: what is expensive (loading a network) is done once here, and
//! [`Entrant::player`] then makes a fresh player for each game of a match.

use crate::ArenaError;
use crate::baselines::{AlphaBetaPlayer, GreedyPlayer, RandomPlayer, UctPlayer};
use crate::network_player::{PolicyPlayer, SearchPlayer, SharedEvaluator};
use crate::player::{Player, player_rng};
use crate::spec::{PlayerKind, PlayerSpec};
use crate::tablebase_player::{TablebasePlayer, as_player_of, is_baghchal};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zero_games::Registered;
use zero_model::{DeviceChoice, NetworkEvaluator, Precision};
use zero_search::{Budget, CachedEvaluator, SearchConfig, SideRoots};

/// Positions a checkpoint player's evaluator remembers (one match's worth of repeated openings).
const EVAL_CACHE: usize = 1 << 16;

/// One participant of a match or a pool.
pub struct Entrant<G: Registered> {
    pub spec: PlayerSpec,
    name: String,
    evaluator: Option<SharedEvaluator<G>>,
    /// Whether [`Entrant::evaluator_copy`] can load another copy of the network (from its checkpoint file);
    /// an entrant made around a given evaluator can only share that one.
    reloadable: bool,
    /// The tablebase of a `tablebase` player, opened once and shared by its games.
    tablebase: Option<Arc<zero_tablebase::Table>>,
}

impl<G: Registered> Entrant<G> {
    /// Makes `spec` ready for game `G`: loads and checks a checkpoint (refusing one made for another game).
    pub fn prepare(spec: PlayerSpec) -> Result<Entrant<G>, ArenaError> {
        let spec = spec.for_game::<G>();
        let name = spec.name();
        let evaluator = match &spec.kind {
            PlayerKind::Checkpoint {
                path,
                device,
                precision,
                ..
            } => Some(load(path, *device, *precision)?),
            _ => None,
        };
        let reloadable = evaluator.is_some();
        let tablebase = match &spec.kind {
            PlayerKind::Tablebase { file, .. } => Some(open_tablebase::<G>(file.as_deref())?),
            _ => None,
        };
        Ok(Entrant {
            spec,
            name,
            evaluator,
            reloadable,
            tablebase,
        })
    }

    /// Parses and prepares a spec string.
    pub fn parse(text: &str) -> Result<Entrant<G>, ArenaError> {
        Entrant::prepare(PlayerSpec::parse(text)?)
    }

    /// A checkpoint entrant from code (the run loop): the checkpoint at `path`, named `label` in tables and
    /// records, playing the raw policy (`simulations` = 0) or the network search with the default root
    /// ([`crate::spec::DEFAULT_CKPT_ROOT`], PUCT) on `device`. The same as parsing
    /// `ckpt:PATH,sims=N,device=D,name=LABEL`; for another root build the spec with
    /// [`PlayerSpec::checkpoint`] and pass it to [`Entrant::prepare`].
    pub fn checkpoint(
        path: impl Into<PathBuf>,
        label: impl Into<String>,
        simulations: u32,
        device: DeviceChoice,
    ) -> Result<Entrant<G>, ArenaError> {
        Entrant::prepare(PlayerSpec::checkpoint(path, simulations, device).labelled(label))
    }

    /// An entrant playing the raw policy of any evaluator (tests, and callers that hold a network already).
    pub fn with_evaluator(name: impl Into<String>, evaluator: Box<dyn zero_search::Evaluator<G> + Send>) -> Self {
        Entrant::searching_with_evaluator(name, evaluator, 0, crate::spec::DEFAULT_CKPT_ROOT)
    }

    /// An entrant searching with any evaluator: `simulations` per action with root `root` (0 = the raw
    /// policy, as [`Entrant::with_evaluator`]).
    pub fn searching_with_evaluator(
        name: impl Into<String>,
        evaluator: Box<dyn zero_search::Evaluator<G> + Send>,
        simulations: u32,
        root: impl Into<SideRoots>,
    ) -> Self {
        let name = name.into();
        // The checkpoint player written from code, named after the evaluator, with `root` for its root.
        let mut spec = PlayerSpec::checkpoint(name.as_str(), simulations, DeviceChoice::Cpu).labelled(name.as_str());
        if let PlayerKind::Checkpoint { root: chosen, .. } = &mut spec.kind {
            *chosen = root.into();
        }
        Entrant {
            spec,
            name,
            evaluator: Some(Arc::new(Mutex::new(evaluator))),
            reloadable: false,
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
    /// from the checkpoint; the shared one for an entrant made around an evaluator, `None` for the baselines).
    pub(crate) fn evaluator_copy(&self) -> Result<Option<SharedEvaluator<G>>, ArenaError> {
        match &self.spec.kind {
            PlayerKind::Checkpoint {
                path,
                device,
                precision,
                ..
            } if self.reloadable => Ok(Some(load(path, *device, *precision)?)),
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
            PlayerKind::Checkpoint {
                simulations: 0,
                millis: None,
                ..
            } => Box::new(PolicyPlayer::new(name, evaluator.expect("prepared with its evaluator"))),
            PlayerKind::Checkpoint {
                simulations,
                millis,
                root,
                batch,
                reuse,
                temperature,
                c_puct,
                fpu_reduction,
                minimax_weight,
                score_utility,
                ..
            } => {
                let budget = match millis {
                    Some(ms) => Budget::MoveTime(Duration::from_millis(*ms)),
                    None => Budget::Simulations(*simulations),
                };
                Box::new(SearchPlayer::new(
                    name,
                    evaluator.expect("prepared with its evaluator"),
                    SearchConfig {
                        leaf_batch: *batch,
                        tree_reuse: *reuse,
                        c_puct: *c_puct,
                        fpu_reduction: *fpu_reduction,
                        minimax_weight: *minimax_weight,
                        score_utility: *score_utility,
                        ..SearchConfig::for_play(*root, (*simulations).max(1))
                    },
                    budget,
                    rng,
                    *temperature,
                    zero_search::minimax::heuristic_judge::<G>,
                ))
            }
        }
    }
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

/// Loads the checkpoint at `path` as a network evaluator with a cache of its own.
fn load<G: Registered>(
    path: &Path,
    device: DeviceChoice,
    precision: Precision,
) -> Result<SharedEvaluator<G>, ArenaError> {
    let device = device.resolve().map_err(|e| ArenaError::Device(e.to_string()))?;
    let evaluator =
        NetworkEvaluator::<G>::from_checkpoint(path, device, precision).map_err(|source| ArenaError::Checkpoint {
            path: path.display().to_string(),
            source,
        })?;
    let evaluator = CachedEvaluator::new(evaluator, EVAL_CACHE);
    let boxed: Box<dyn zero_search::Evaluator<G> + Send> = Box::new(evaluator);
    Ok(Arc::new(Mutex::new(boxed)))
}
