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
        State::at(self.start.restart())
    }

    /// A position in the game's notation (`"start"` names the initial one), with a fresh history.
    fn state(&self, position: &str) -> PyResult<State> {
        Ok(State::at(self.start.with_position(position).map_err(value_error)?))
    }

    // OpenSpiel's names for the same facts (`pyspiel.Game`), so that code written for it runs on zero's games.

    /// The initial position (OpenSpiel's name for `new_state`).
    fn new_initial_state(&self) -> State {
        self.new_state()
    }

    /// Size of the action space (OpenSpiel's name for `action_space`).
    fn num_distinct_actions(&self) -> usize {
        self.start.action_space()
    }

    /// Two: every game here is played by two players, 0 (the first) and 1.
    fn num_players(&self) -> usize {
        2
    }

    /// The most actions a game from the initial position can take under these rules (its ply cap times the
    /// most actions of a move); None when the rules cap nothing (`max_plies=0`).
    fn max_game_length(&self) -> Option<u32> {
        self.start.max_actions()
    }

    /// `[planes, height, width]`: the shape of `State.observation_tensor()` before it is flattened.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.start.input_shape().to_vec()
    }

    /// The length of `State.observation_tensor()`.
    fn observation_tensor_size(&self) -> usize {
        self.start.input_shape().iter().product()
    }

    /// A loss is -1 for the loser.
    fn min_utility(&self) -> f64 {
        -1.0
    }

    /// A win is 1 for the winner.
    fn max_utility(&self) -> f64 {
        1.0
    }

    /// Zero-sum: the two returns add up to 0.
    fn utility_sum(&self) -> f64 {
        0.0
    }

    /// The state `State.serialize()` wrote, made again under this game's rules: its position of origin and
    /// every action since, each checked legal. Raises ValueError naming the line or action that does not fit.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        let saved = crate::serial::read(text).map_err(value_error)?;
        let name = self.start.kind().name();
        if saved.game != name {
            return Err(value_error(format!(
                "serialized state of {:?}, not of {name:?}",
                saved.game
            )));
        }
        let own = self.start.rules();
        if saved.rules != own {
            return Err(value_error(format!(
                "serialized under the rules {:?}, but this game's are {:?}: make the Game with those options",
                saved.rules.join(","),
                own.join(",")
            )));
        }
        let origin = self
            .start
            .with_position(saved.origin)
            .map_err(|e| value_error(format!("serialized state, line 4 (origin): {e}")))?;
        let mut state = State::at(origin);
        for (index, &action) in saved.actions.iter().enumerate() {
            if !state.inner.apply_action(action) {
                return Err(value_error(format!(
                    "serialized state, action {} ({action}): not legal in {:?}",
                    index + 1,
                    state.inner.position()
                )));
            }
            state.actions.push(action);
        }
        Ok(state)
    }

    /// The state after playing `moves` (in notation) from `start` (a position; None: the initial one). Names
    /// the first move that is not legal.
    #[pyo3(signature = (moves, start=None))]
    fn replay(&self, moves: Vec<String>, start: Option<&str>) -> PyResult<State> {
        let state = match start {
            Some(position) => self.start.with_position(position).map_err(value_error)?,
            None => self.start.restart(),
        };
        let mut state = State::at(state);
        for (index, mv) in moves.iter().enumerate() {
            state
                .play(mv)
                .map_err(|e| value_error(format!("move {} ({mv:?}): {e}", index + 1)))?;
        }
        Ok(state)
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
        check_action(self.start.as_ref(), action)
    }

    fn check_symmetry(&self, sym: usize) -> PyResult<()> {
        check_symmetry(self.start.as_ref(), sym)
    }
}

/// `action` lies inside the game's action space.
fn check_action(state: &dyn AnyState, action: Action) -> PyResult<()> {
    if (action as usize) < state.action_space() {
        Ok(())
    } else {
        Err(value_error(format!(
            "action {action} is outside {}'s action space 0..{}",
            state.kind().name(),
            state.action_space()
        )))
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

/// OpenSpiel's player id of a finished game (`pyspiel.PlayerId.TERMINAL`), what `current_player()` says then.
const TERMINAL_PLAYER: i64 = -4;

/// A game in progress: its position, history and rules.
#[pyclass(module = "zero")]
pub struct State {
    pub(crate) inner: Box<dyn AnyState>,
    /// Where its action history starts: the initial position or the position it was made from.
    pub(crate) origin: Box<dyn AnyState>,
    /// The actions played since `origin`, in order (`history()`; `undo_action` replays all but the last).
    pub(crate) actions: Vec<Action>,
}

impl State {
    /// A state at `inner` with no actions played since.
    pub(crate) fn at(inner: Box<dyn AnyState>) -> State {
        State {
            origin: inner.boxed(),
            inner,
            actions: Vec::new(),
        }
    }

    /// `player` (an OpenSpiel player id) is 0 or 1.
    fn check_player(&self, player: i64) -> PyResult<()> {
        if player == 0 || player == 1 {
            Ok(())
        } else {
            Err(value_error(format!(
                "player {player} does not exist: {} has players 0 and 1",
                self.inner.kind().name()
            )))
        }
    }

    /// Replays the history from the origin without its last action.
    fn take_back(&mut self) -> PyResult<()> {
        let mut inner = self.origin.boxed();
        let keep = self.actions.len().saturating_sub(1);
        for &action in &self.actions[..keep] {
            if !inner.apply_action(action) {
                return Err(value_error(format!("the history's action {action} no longer replays")));
            }
        }
        self.inner = inner;
        self.actions.truncate(keep);
        Ok(())
    }

    /// The returns of a finished game (1 the winner, -1 the loser, 0 each for a draw); 0 each before the end.
    fn final_returns(&self) -> [f64; 2] {
        match self.inner.outcome() {
            Some(RulesOutcome { winner: Some(side), .. }) => match side {
                Side::First => [1.0, -1.0],
                Side::Second => [-1.0, 1.0],
            },
            _ => [0.0, 0.0],
        }
    }
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
        let actions = self.inner.move_actions(mv).map_err(value_error)?;
        self.inner.play(mv).map_err(value_error)?;
        self.actions.extend(actions);
        Ok(())
    }

    /// A copy of this state with `mv` played.
    fn child(&self, mv: &str) -> PyResult<State> {
        let mut child = self.clone();
        child.play(mv)?;
        Ok(child)
    }

    /// The actions that make up the legal move `mv`, in order (several for a multi-jump capture).
    fn move_actions(&self, mv: &str) -> PyResult<Vec<Action>> {
        self.inner.move_actions(mv).map_err(value_error)
    }

    /// The legal actions (the network's decisions, in the game's own orientation), ascending; with `player`
    /// (OpenSpiel's form), none unless that player is to act.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<Action>> {
        if let Some(player) = player {
            self.check_player(player)?;
            if player != self.current_player() {
                return Ok(Vec::new());
            }
        }
        let mut actions = self.inner.legal_actions();
        actions.sort_unstable();
        Ok(actions)
    }

    /// Plays one legal action; the same player may have to act again (mid-capture).
    fn apply_action(&mut self, action: Action) -> PyResult<()> {
        if self.inner.apply_action(action) {
            self.actions.push(action);
            Ok(())
        } else {
            Err(value_error(format!(
                "action {action} is not legal in {:?}",
                self.inner.position()
            )))
        }
    }

    /// The position under board symmetry `sym` (0 = identity), the rules' history included; its action history
    /// (`history()`) starts here.
    fn transformed(&self, sym: usize) -> PyResult<State> {
        check_symmetry(self.inner.as_ref(), sym)?;
        Ok(State::at(self.inner.transformed(sym)))
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
            origin: self.origin.boxed(),
            actions: self.actions.clone(),
        }
    }

    // OpenSpiel's state API (`pyspiel.State`), beside the one above.

    /// The player to act, 0 or 1; -4 (OpenSpiel's TERMINAL) once the game is over.
    fn current_player(&self) -> i64 {
        if self.inner.outcome().is_some() {
            TERMINAL_PLAYER
        } else {
            i64::from(side_index(self.inner.to_move()))
        }
    }

    /// No chance: every game here is deterministic.
    fn is_chance_node(&self) -> bool {
        false
    }

    /// No simultaneous moves: one player acts at a time.
    fn is_simultaneous_node(&self) -> bool {
        false
    }

    /// Whether a player is to act (the game is not over).
    fn is_player_node(&self) -> bool {
        self.inner.outcome().is_none()
    }

    /// Each player's return: 1 for the winner and -1 for the loser of a finished game, 0 each for a draw or
    /// a game still going.
    fn returns(&self) -> Vec<f64> {
        self.final_returns().to_vec()
    }

    /// The rewards of the last action: the returns once it ended the game, else 0 each.
    fn rewards(&self) -> Vec<f64> {
        self.final_returns().to_vec()
    }

    /// `player`'s return (`returns()[player]`).
    fn player_return(&self, player: i64) -> PyResult<f64> {
        self.check_player(player)?;
        Ok(self.final_returns()[player as usize])
    }

    /// 1 at each legal action and 0 elsewhere, int8 over the whole action space (`Game.num_distinct_actions()`);
    /// all 0 for a `player` not to act.
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut mask = vec![0i8; self.inner.action_space()];
        for action in self.legal_actions(player)? {
            mask[action as usize] = 1;
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The network's input planes flattened, float32 of `Game.observation_tensor_size()`, from the view of the
    /// player to act (the only view the encoding has: `player`, when given, must be that player).
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        if let Some(player) = player {
            self.check_player(player)?;
            let to_act = i64::from(side_index(self.inner.to_move()));
            if player != to_act {
                return Err(value_error(format!(
                    "the observation is the player to act's view ({to_act}); player {player} has none here"
                )));
            }
        }
        Ok(PyArray1::from_vec(py, self.inner.encode()))
    }

    /// The board drawn as text (OpenSpiel's `observation_string`; the same for either player).
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        if let Some(player) = player {
            self.check_player(player)?;
        }
        Ok(self.inner.render())
    }

    /// The actions played since this state's origin (the initial position, or the position or transformation it
    /// was made from), in order.
    fn history(&self) -> Vec<Action> {
        self.actions.clone()
    }

    /// Actions played since the origin (OpenSpiel's `move_number`, which counts actions).
    fn move_number(&self) -> usize {
        self.actions.len()
    }

    /// Takes back the last action, which must be `action` by `player` (OpenSpiel's form); raises ValueError
    /// otherwise, changing nothing.
    fn undo_action(&mut self, player: i64, action: Action) -> PyResult<()> {
        self.check_player(player)?;
        let Some(&last) = self.actions.last() else {
            return Err(value_error(
                "no action to undo: none was played since this state's origin",
            ));
        };
        let mut before = self.clone();
        before.take_back()?;
        let actor = i64::from(side_index(before.inner.to_move()));
        if last != action || actor != player {
            return Err(value_error(format!(
                "the last action was {last} by player {actor}, not {action} by player {player}"
            )));
        }
        *self = before;
        Ok(())
    }

    /// Takes back the last action and returns it; raises ValueError when none was played since the origin.
    fn undo(&mut self) -> PyResult<Action> {
        let Some(&last) = self.actions.last() else {
            return Err(value_error(
                "no action to undo: none was played since this state's origin",
            ));
        };
        self.take_back()?;
        Ok(last)
    }

    /// A short readable name of `action` (OpenSpiel's `action_to_string(player, action)`; the player may be left
    /// out).
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<Action>) -> PyResult<String> {
        let action = match action {
            Some(action) => {
                self.check_player(player_or_action)?;
                action
            }
            None => Action::try_from(player_or_action)
                .map_err(|_| value_error(format!("action {player_or_action} is not an action")))?,
        };
        check_action(self.inner.as_ref(), action)?;
        Ok(self.inner.describe_action(action))
    }

    /// The state as text that `Game.deserialize_state` reads back: the game, its rules, the position of origin
    /// and the actions since (the rules' history before the origin, a transformed state's, is not kept).
    fn serialize(&self) -> String {
        crate::serial::write(
            self.inner.kind().name(),
            &self.origin.rules(),
            &self.origin.position(),
            &self.actions,
        )
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
