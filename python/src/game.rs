//! `zero.Game` and `zero.State`: a rule set of a registered game, and a game in progress under it.

use crate::erased::{self, AnyState};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyMapping, PyString};
use zero_games::{Action, GameKind, Outcome as RulesOutcome, Side};

/// A game's rules were refused, or a position, move or action does not fit the game.
pub fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

/// A registered game under one rule set: the factory of its states and the facts of its encoding.
#[pyclass(frozen, module = "zero")]
pub struct Game {
    pub(crate) start: Box<dyn AnyState>,
}

/// Rule options as `key=value` strings, from `None`, one comma-separated string, a sequence of `key=value`
/// strings or a mapping (booleans written `true`/`false`).
fn rule_options(options: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(options) = options else {
        return Ok(Vec::new());
    };
    if let Ok(text) = options.cast::<PyString>() {
        let text = text.to_str()?;
        return Ok(text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect());
    }
    if let Ok(mapping) = options.cast::<PyMapping>() {
        let mut out = Vec::new();
        for item in mapping.items()?.iter() {
            let (key, value): (String, Bound<'_, PyAny>) = item.extract()?;
            let value = if value.is_instance_of::<PyBool>() {
                value.extract::<bool>()?.to_string()
            } else {
                value.str()?.to_string()
            };
            out.push(format!("{key}={value}"));
        }
        return Ok(out);
    }
    options
        .extract::<Vec<String>>()
        .map_err(|_| value_error("options must be a string, a sequence of 'key=value' strings or a mapping"))
}

impl Game {
    pub(crate) fn of(state: &dyn AnyState) -> Game {
        Game { start: state.restart() }
    }
}

#[pymethods]
impl Game {
    /// The game `name` (see `zero.games()`) under the rules of `variant` (None: the default rules) with
    /// `options` applied after it, e.g. `Game("bashni", options={"max_plies": 200})`.
    #[new]
    #[pyo3(signature = (name, variant=None, options=None))]
    fn new(name: &str, variant: Option<&str>, options: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let kind: GameKind = name.parse().map_err(value_error)?;
        let start = erased::start(kind, variant, &rule_options(options)?).map_err(value_error)?;
        Ok(Game { start })
    }

    /// The game's registered name (`zero.games()` lists them).
    #[getter]
    fn name(&self) -> &'static str {
        self.start.kind().name()
    }

    /// The complete rule set as `key=value` options (what the run's files record, comma-joined).
    #[getter]
    fn rules(&self) -> Vec<String> {
        self.start.rules()
    }

    /// The two players' names, the first player first.
    #[getter]
    fn players(&self) -> (&'static str, &'static str) {
        (
            self.start.player_name(Side::First),
            self.start.player_name(Side::Second),
        )
    }

    /// Size of the fixed action space: every action (and policy index) is below it.
    #[getter]
    fn action_space(&self) -> usize {
        self.start.action_space()
    }

    /// Number of board symmetries that preserve the rules, identity (0) included.
    #[getter]
    fn num_symmetries(&self) -> usize {
        self.start.symmetries()
    }

    /// `(planes, height, width)` of the network input that `State.encode` returns.
    #[getter]
    fn input_shape(&self) -> (usize, usize, usize) {
        let [planes, height, width] = self.start.input_shape();
        (planes, height, width)
    }

    /// The initial position.
    fn new_state(&self) -> State {
        State {
            inner: self.start.restart(),
        }
    }

    /// A position in the game's notation (`"start"` names the initial one), with a fresh history.
    fn state(&self, position: &str) -> PyResult<State> {
        Ok(State {
            inner: self.start.with_position(position).map_err(value_error)?,
        })
    }

    /// The state after playing `moves` (in notation) from `start` (a position; None: the initial one). Names
    /// the first move that is not legal.
    #[pyo3(signature = (moves, start=None))]
    fn replay(&self, moves: Vec<String>, start: Option<&str>) -> PyResult<State> {
        let mut state = match start {
            Some(position) => self.start.with_position(position).map_err(value_error)?,
            None => self.start.restart(),
        };
        for (index, mv) in moves.iter().enumerate() {
            state
                .play(mv)
                .map_err(|e| value_error(format!("move {} ({mv:?}): {e}", index + 1)))?;
        }
        Ok(State { inner: state })
    }

    /// A short readable name of an action (not a notation to parse).
    fn describe_action(&self, action: Action) -> PyResult<String> {
        self.check_action(action)?;
        Ok(self.start.describe_action(action))
    }

    /// The action that corresponds to `action` under symmetry `sym`.
    fn transform_action(&self, action: Action, sym: usize) -> PyResult<Action> {
        self.check_action(action)?;
        self.check_symmetry(sym)?;
        Ok(self.start.transform_action(action, sym))
    }

    fn __repr__(&self) -> String {
        format!("Game({:?}, options={:?})", self.name(), self.start.rules().join(","))
    }
}

impl Game {
    fn check_action(&self, action: Action) -> PyResult<()> {
        if (action as usize) < self.start.action_space() {
            Ok(())
        } else {
            Err(value_error(format!(
                "action {action} is outside {}'s action space 0..{}",
                self.name(),
                self.start.action_space()
            )))
        }
    }

    fn check_symmetry(&self, sym: usize) -> PyResult<()> {
        check_symmetry(self.start.as_ref(), sym)
    }
}

/// `sym` names one of the game's symmetries.
fn check_symmetry(state: &dyn AnyState, sym: usize) -> PyResult<()> {
    if sym < state.symmetries() {
        Ok(())
    } else {
        Err(value_error(format!(
            "symmetry {sym} does not exist: {} has symmetries 0..{}",
            state.kind().name(),
            state.symmetries()
        )))
    }
}

/// How a finished game ended.
#[pyclass(frozen, get_all, module = "zero")]
pub struct Outcome {
    /// The winner's name, None for a draw.
    pub winner: Option<&'static str>,
    /// The winner as 0 (first player) or 1 (second), None for a draw.
    pub winner_index: Option<u8>,
    /// Why it ended: `no-legal-move`, `repetition`, `ply-limit`, ...
    pub reason: &'static str,
}

#[pymethods]
impl Outcome {
    fn __repr__(&self) -> String {
        match self.winner {
            Some(winner) => format!("Outcome(winner={winner:?}, reason={:?})", self.reason),
            None => format!("Outcome(winner=None, reason={:?})", self.reason),
        }
    }
}

fn side_index(side: Side) -> u8 {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// A game in progress: its position, history and rules.
#[pyclass(module = "zero")]
pub struct State {
    pub(crate) inner: Box<dyn AnyState>,
}

#[pymethods]
impl State {
    /// The game and rule set this state is played under.
    #[getter]
    fn game(&self) -> Game {
        Game::of(self.inner.as_ref())
    }

    /// The position in the game's notation (`Game.state` reads it back).
    #[getter]
    fn position(&self) -> String {
        self.inner.position()
    }

    /// The name of the player to move (to act, in the middle of a multi-jump capture).
    #[getter]
    fn to_move(&self) -> &'static str {
        self.inner.player_name(self.inner.to_move())
    }

    /// The player to move as 0 (first player) or 1 (second).
    #[getter]
    fn to_move_index(&self) -> u8 {
        side_index(self.inner.to_move())
    }

    /// Complete moves played since the game started.
    #[getter]
    fn ply(&self) -> u32 {
        self.inner.ply()
    }

    /// The Zobrist hash of everything the rules depend on here.
    #[getter]
    fn zobrist(&self) -> u64 {
        self.inner.hash()
    }

    fn is_terminal(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// How the game ended; None while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.inner.outcome().map(|RulesOutcome { winner, reason }| Outcome {
            winner: winner.map(|side| self.inner.player_name(side)),
            winner_index: winner.map(side_index),
            reason: reason.as_str(),
        })
    }

    /// The legal moves in notation (empty once the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// Plays a move given in notation; a move that is malformed or not legal here raises ValueError.
    fn play(&mut self, mv: &str) -> PyResult<()> {
        self.inner.play(mv).map_err(value_error)
    }

    /// A copy of this state with `mv` played.
    fn child(&self, mv: &str) -> PyResult<State> {
        let mut child = self.inner.boxed();
        child.play(mv).map_err(value_error)?;
        Ok(State { inner: child })
    }

    /// The actions that make up the legal move `mv`, in order (several for a multi-jump capture).
    fn move_actions(&self, mv: &str) -> PyResult<Vec<Action>> {
        self.inner.move_actions(mv).map_err(value_error)
    }

    /// The legal actions (the network's decisions, in the game's own orientation).
    fn legal_actions(&self) -> Vec<Action> {
        self.inner.legal_actions()
    }

    /// Plays one legal action; the same player may have to act again (mid-capture).
    fn apply_action(&mut self, action: Action) -> PyResult<()> {
        if self.inner.apply_action(action) {
            Ok(())
        } else {
            Err(value_error(format!(
                "action {action} is not legal in {:?}",
                self.inner.position()
            )))
        }
    }

    /// The position under board symmetry `sym` (0 = identity), history included.
    fn transformed(&self, sym: usize) -> PyResult<State> {
        check_symmetry(self.inner.as_ref(), sym)?;
        Ok(State {
            inner: self.inner.transformed(sym),
        })
    }

    /// The network's input planes, float32 `(planes, height, width)`, from the side to move's view and turned
    /// by `canonical_symmetry` (docs/encoding.md): what the Rust encoder gives the network.
    fn encode<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let [planes, height, width] = self.inner.input_shape();
        PyArray1::from_vec(py, self.inner.encode()).reshape([planes, height, width])
    }

    /// The symmetry under which the network sees this position.
    #[getter]
    fn canonical_symmetry(&self) -> usize {
        self.inner.canonical_symmetry()
    }

    /// The index in the network's policy output of a legal action here (the action seen through the canonical
    /// view; the `legal_actions` column of a shard holds these).
    fn policy_index(&self, action: Action) -> PyResult<usize> {
        if !self.inner.legal_actions().contains(&action) {
            return Err(value_error(format!(
                "action {action} is not legal in {:?}",
                self.inner.position()
            )));
        }
        Ok(self.inner.policy_index(action))
    }

    fn clone(&self) -> State {
        State {
            inner: self.inner.boxed(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    /// A state holds no Python objects, so a deep copy is a copy (`memo` is not needed).
    fn __deepcopy__(&self, memo: &Bound<'_, PyAny>) -> State {
        let _ = memo;
        self.clone()
    }

    /// The board drawn as text.
    fn __str__(&self) -> String {
        self.inner.render()
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, {:?})", self.inner.kind().name(), self.inner.position())
    }
}
