//! `zero.Bot`: a bundle's network and search, run by tract (the ONNX runtime of the libtorch-free bot), so that
//! `import zero` loads no libtorch and lives beside `import torch` in one process.

use crate::erased::AnyState;
use crate::game::{Game, State, value_error};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use zero_bot::{Bundle, Runtime};
use zero_games::{GameKind, Registered, with_game};
use zero_search::{Budget, Level};

/// The network's priors (an array over the action space) and its win, draw and loss probabilities.
type NetworkView<'py> = (Bound<'py, PyArray1<f32>>, (f32, f32, f32));

/// What a search found, before it becomes Python objects.
struct Found {
    mv: String,
    value: f32,
    line: Vec<String>,
    simulations: u32,
    seconds: f64,
    top: Vec<zero_bot::MoveStats>,
    /// The network's priors by action (the game's own action numbers) and its WDL at the root.
    policy: Vec<f32>,
    wdl: [f32; 3],
}

/// A bot of some registered game.
trait AnyBot: Send {
    /// Searches `state` with `budget` (None: the bot's default, its level's when it has one).
    fn search(&mut self, state: &dyn AnyState, budget: Option<Budget>) -> Result<Found, Unplayable>;
    /// The network alone: priors by action over the whole action space, and the WDL.
    fn evaluate(&mut self, state: &dyn AnyState) -> Result<(Vec<f32>, [f32; 3]), Unplayable>;
    fn set_level(&mut self, level: Level);
    /// The simulations it was made with (`sims` or the bundle's default).
    fn own_simulations(&self) -> u32;
}

impl<G: Registered> AnyBot for zero_bot::Bot<G> {
    fn search(&mut self, state: &dyn AnyState, budget: Option<Budget>) -> Result<Found, Unplayable> {
        let game = playable::<G>(state)?;
        let decision = self.think(game, budget.unwrap_or(self.default_budget));
        let (policy, wdl) = AnyBot::evaluate(self, state)?;
        Ok(Found {
            mv: decision.text,
            value: decision.value,
            line: decision.line,
            simulations: decision.simulations,
            seconds: decision.elapsed.as_secs_f64(),
            top: decision.top,
            policy,
            wdl,
        })
    }

    fn evaluate(&mut self, state: &dyn AnyState) -> Result<(Vec<f32>, [f32; 3]), Unplayable> {
        let game = playable::<G>(state)?;
        let evaluation = zero_bot::Bot::evaluate(self, game);
        let mut policy = vec![0.0; G::ACTION_SPACE];
        for (action, prior) in state.legal_actions().into_iter().zip(evaluation.priors) {
            policy[action as usize] = prior;
        }
        Ok((policy, evaluation.wdl))
    }

    fn set_level(&mut self, level: Level) {
        zero_bot::Bot::set_level(self, level);
    }

    fn own_simulations(&self) -> u32 {
        zero_bot::Bot::own_simulations(self)
    }
}

/// Why a bot cannot play a state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unplayable {
    #[error("this bot plays {bot}, not {state}")]
    OtherGame { bot: &'static str, state: &'static str },
    #[error("the game is over in {0:?}: there is no move to choose")]
    Over(String),
}

/// `state` as game `G`, if it is one and is not over.
fn playable<G: Registered>(state: &dyn AnyState) -> Result<&G, Unplayable> {
    let game = state.as_any().downcast_ref::<G>().ok_or(Unplayable::OtherGame {
        bot: G::NAME,
        state: state.kind().name(),
    })?;
    if state.outcome().is_some() {
        return Err(Unplayable::Over(state.position()));
    }
    Ok(game)
}

/// One of the search's root moves.
#[pyclass(frozen, get_all, module = "zero")]
pub struct MoveStats {
    /// The move in notation.
    #[pyo3(name = "move")]
    pub mv: String,
    pub visits: u32,
    /// The network's prior of the move's first action.
    pub prior: f32,
    /// Mean value after the move, from the moving side's view, in [-1, 1].
    pub q: f32,
    /// The expected line in notation, starting with the move.
    pub line: Vec<String>,
    /// With a Gumbel root, the score its sequential halving ranks the move by; None with a PUCT root (ranked
    /// by visits).
    pub gumbel: Option<f32>,
}

#[pymethods]
impl MoveStats {
    fn __repr__(&self) -> String {
        format!(
            "MoveStats(move={:?}, visits={}, prior={:.3}, q={:.3})",
            self.mv, self.visits, self.prior, self.q
        )
    }
}

/// What the bot thinks of a position: its move, the search's statistics and the network's own judgement.
#[pyclass(frozen, get_all, module = "zero")]
pub struct Analysis {
    /// The chosen move in notation.
    #[pyo3(name = "move")]
    pub mv: String,
    /// The search's value of the position, from the side to move's view, in [-1, 1].
    pub value: f32,
    /// The network's win, draw and loss probabilities for the side to move (not searched).
    pub wdl: (f32, f32, f32),
    /// The network's priors, float32 over the whole action space, indexed by action (`State.legal_actions`).
    pub policy: Py<PyArray1<f32>>,
    /// Visits of each root move the search tried, by move in notation.
    pub visits: Py<PyDict>,
    /// The root moves in the search's order, its choice first (`MoveStats`): most visited first with a PUCT
    /// root, the halving's order with a Gumbel root.
    pub top: Py<PyList>,
    /// The expected line in notation, starting with the move.
    pub line: Vec<String>,
    /// Simulations the search ran.
    pub simulations: u32,
    /// Wall time of the search, in seconds.
    pub seconds: f64,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        format!(
            "Analysis(move={:?}, value={:.3}, simulations={})",
            self.mv, self.value, self.simulations
        )
    }
}

fn analysis(py: Python<'_>, found: Found) -> PyResult<Analysis> {
    let visits = PyDict::new(py);
    let top = PyList::empty(py);
    for stats in found.top {
        visits.set_item(&stats.text, stats.visits)?;
        let stats = MoveStats {
            mv: stats.text,
            visits: stats.visits,
            prior: stats.prior,
            q: stats.q,
            line: stats.line,
            gumbel: stats.gumbel_score,
        };
        top.append(Py::new(py, stats)?)?;
    }
    let [win, draw, loss] = found.wdl;
    Ok(Analysis {
        mv: found.mv,
        value: found.value,
        wdl: (win, draw, loss),
        policy: PyArray1::from_vec(py, found.policy).unbind(),
        visits: visits.unbind(),
        top: top.unbind(),
        line: found.line,
        simulations: found.simulations,
        seconds: found.seconds,
    })
}

/// A trained bot: a bundle written by `zero export`, its network run by tract (pure Rust, no libtorch).
#[pyclass(frozen, module = "zero")]
pub struct Bot {
    bot: Mutex<Box<dyn AnyBot>>,
    start: Box<dyn AnyState>,
    default_sims: u32,
    level: Option<&'static str>,
    path: PathBuf,
}

fn open_bot(bundle: &Bundle, sims: Option<u32>) -> zero_bot::error::Result<(Box<dyn AnyBot>, Box<dyn AnyState>)> {
    let kind: GameKind = bundle.manifest.game;
    with_game!(kind, G => {
        let bot = zero_bot::Bot::<G>::from_bundle_on(bundle, &bundle.search(sims), Runtime::Onnx)?;
        let start: Box<dyn AnyState> = Box::new(<G as zero_games::Game>::start(&bot.rules));
        Ok((Box::new(bot) as Box<dyn AnyBot>, start))
    })
}

/// The budget of one search: simulations, milliseconds, or the bot's default.
fn budget(sims: Option<u32>, ms: Option<u64>) -> PyResult<Option<Budget>> {
    match (sims, ms) {
        (Some(_), Some(_)) => Err(value_error("give sims or ms, not both")),
        (Some(0), None) => Err(value_error("sims must be at least 1")),
        (None, Some(0)) => Err(value_error("ms must be at least 1")),
        (Some(sims), None) => Ok(Some(Budget::Simulations(sims))),
        (None, Some(ms)) => Ok(Some(Budget::MoveTime(Duration::from_millis(ms)))),
        (None, None) => Ok(None),
    }
}

impl Bot {
    fn with_bot<T>(&self, py: Python<'_>, work: impl FnOnce(&mut dyn AnyBot) -> T + Send) -> T
    where
        T: Send,
    {
        // The search runs without the GIL, so other Python threads go on meanwhile.
        py.detach(|| {
            let mut bot = self.bot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            work(bot.as_mut())
        })
    }
}

#[pymethods]
impl Bot {
    /// The bundle in directory `path` (verified file by file), searching `sims` simulations a move (None: the
    /// bundle's default) or playing at `level` (`beginner`, `casual`, `club`, `expert`, `strong`, `max`).
    #[new]
    #[pyo3(signature = (path, sims=None, level=None))]
    fn new(path: PathBuf, sims: Option<u32>, level: Option<&str>) -> PyResult<Self> {
        if sims == Some(0) {
            return Err(value_error("sims must be at least 1"));
        }
        let bundle = Bundle::open(&path).map_err(|e| value_error(e.to_string()))?;
        let (mut bot, start) = open_bot(&bundle, sims).map_err(|e| value_error(e.to_string()))?;
        let level = match level {
            Some(name) => {
                let level = Level::parse(name).map_err(value_error)?;
                bot.set_level(level);
                Some(level.name)
            }
            None => None,
        };
        let default_sims = bot.own_simulations();
        Ok(Bot {
            bot: Mutex::new(bot),
            start,
            default_sims,
            level,
            path,
        })
    }

    /// The game (with the bundle's rules) this bot plays.
    #[getter]
    fn game(&self) -> Game {
        Game::of(self.start.as_ref())
    }

    /// Simulations a move when a search names no budget (before any level).
    #[getter]
    fn default_sims(&self) -> u32 {
        self.default_sims
    }

    /// The level it plays at, if one was chosen.
    #[getter]
    fn level(&self) -> Option<&'static str> {
        self.level
    }

    /// Searches `state` for `sims` simulations or `ms` milliseconds (None: the bot's default budget) and returns
    /// the move with the search's statistics and the network's judgement.
    #[pyo3(signature = (state, sims=None, ms=None))]
    fn analyse(&self, py: Python<'_>, state: &State, sims: Option<u32>, ms: Option<u64>) -> PyResult<Analysis> {
        let budget = budget(sims, ms)?;
        let position = state.inner.boxed();
        let found = self.with_bot(py, |bot| bot.search(position.as_ref(), budget));
        analysis(py, found.map_err(value_error)?)
    }

    /// The move the bot plays in `state`, in notation (`analyse(...).move`).
    #[pyo3(signature = (state, sims=None, ms=None))]
    fn choose(&self, py: Python<'_>, state: &State, sims: Option<u32>, ms: Option<u64>) -> PyResult<String> {
        Ok(self.analyse(py, state, sims, ms)?.mv)
    }

    /// The network alone on `state`: its priors (float32 over the action space, indexed by action) and its
    /// win, draw and loss probabilities for the side to move.
    fn evaluate<'py>(&self, py: Python<'py>, state: &State) -> PyResult<NetworkView<'py>> {
        let position = state.inner.boxed();
        let (policy, [win, draw, loss]) = self
            .with_bot(py, |bot| bot.evaluate(position.as_ref()))
            .map_err(value_error)?;
        Ok((PyArray1::from_vec(py, policy), (win, draw, loss)))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.path.display().to_string())
    }
}
