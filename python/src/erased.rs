//! The games with their type erased: [`AnyState`] is what Python holds of a game in progress, implemented once for
//! every registered game, so that a new game reaches Python through the registry line alone.

use std::any::Any;
use zero_games::{
    Action, ActionList, Encoding, Game, GameKind, NotationError, Outcome, Registered, Side, policy_index, with_game,
};

/// A game in progress of some registered game, with its rules and history.
pub trait AnyState: Send + Sync {
    fn kind(&self) -> GameKind;
    fn boxed(&self) -> Box<dyn AnyState>;
    fn as_any(&self) -> &dyn Any;
    /// The initial position under the same rules.
    fn restart(&self) -> Box<dyn AnyState>;
    /// A position in notation under the same rules, with a fresh history.
    fn with_position(&self, text: &str) -> Result<Box<dyn AnyState>, NotationError>;
    /// The rule set as complete `key=value` options.
    fn rules(&self) -> Vec<String>;

    fn position(&self) -> String;
    fn render(&self) -> String;
    fn to_move(&self) -> Side;
    fn player_name(&self, side: Side) -> &'static str;
    fn ply(&self) -> u32;
    fn outcome(&self) -> Option<Outcome>;
    fn hash(&self) -> u64;

    fn legal_moves(&self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<(), NotationError>;
    fn move_actions(&self, text: &str) -> Result<Vec<Action>, NotationError>;
    fn legal_actions(&self) -> Vec<Action>;
    /// Plays `action` if it is legal here; `false` (and nothing played) if not.
    fn apply_action(&mut self, action: Action) -> bool;
    fn describe_action(&self, action: Action) -> String;

    fn action_space(&self) -> usize;
    /// The most actions a game from the start takes under these rules, if they bound it.
    fn max_actions(&self) -> Option<u32>;
    fn symmetries(&self) -> usize;
    fn transformed(&self, sym: usize) -> Box<dyn AnyState>;
    fn transform_action(&self, action: Action, sym: usize) -> Action;

    /// Planes, height and width of the network input.
    fn input_shape(&self) -> [usize; 3];
    /// The network input, `planes x height x width` floats, row-major.
    fn encode(&self) -> Vec<f32>;
    fn canonical_symmetry(&self) -> usize;
    fn policy_index(&self, action: Action) -> usize;
}

/// Rules a game does not have.
#[derive(Debug, thiserror::Error)]
#[error("{kind} rules: {reason}")]
pub struct BadRules {
    kind: GameKind,
    reason: String,
}

/// The initial position of game `kind` under the rules of `variant` and `options`.
pub fn start(kind: GameKind, variant: Option<&str>, options: &[String]) -> Result<Box<dyn AnyState>, BadRules> {
    with_game!(kind, G => {
        let rules = G::parse_rules(variant, options).map_err(|e| BadRules { kind, reason: e.to_string() })?;
        Ok(Box::new(<G as Game>::start(&rules)) as Box<dyn AnyState>)
    })
}

impl<G: Registered> AnyState for G {
    fn kind(&self) -> GameKind {
        GameKind::of::<G>().expect("registered games only")
    }
    fn boxed(&self) -> Box<dyn AnyState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn restart(&self) -> Box<dyn AnyState> {
        Box::new(<G as Game>::start(Game::rules(self)))
    }
    fn with_position(&self, text: &str) -> Result<Box<dyn AnyState>, NotationError> {
        Ok(Box::new(G::from_position(Game::rules(self), text)?))
    }
    fn rules(&self) -> Vec<String> {
        G::describe_rules(Game::rules(self))
    }

    fn position(&self) -> String {
        Game::position(self)
    }
    fn render(&self) -> String {
        Game::render(self)
    }
    fn to_move(&self) -> Side {
        Game::to_move(self)
    }
    fn player_name(&self, side: Side) -> &'static str {
        G::player_name(side)
    }
    fn ply(&self) -> u32 {
        Game::ply(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn hash(&self) -> u64 {
        Game::hash(self)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        Game::legal_moves(self, &mut moves);
        moves.iter().map(|mv| self.format_move(mv)).collect()
    }
    fn play(&mut self, text: &str) -> Result<(), NotationError> {
        let mv = self.parse_move(text)?;
        Game::play(self, &mv);
        Ok(())
    }
    fn move_actions(&self, text: &str) -> Result<Vec<Action>, NotationError> {
        let mv = self.parse_move(text)?;
        let mut actions = ActionList::new();
        Game::move_actions(self, &mv, &mut actions);
        Ok(actions.as_slice().to_vec())
    }
    fn legal_actions(&self) -> Vec<Action> {
        let mut actions = ActionList::new();
        Game::legal_actions(self, &mut actions);
        actions.as_slice().to_vec()
    }
    fn apply_action(&mut self, action: Action) -> bool {
        let legal = AnyState::legal_actions(self).contains(&action);
        if legal {
            Game::apply_action(self, action);
        }
        legal
    }
    fn describe_action(&self, action: Action) -> String {
        G::describe_action(action)
    }

    fn action_space(&self) -> usize {
        G::ACTION_SPACE
    }
    fn max_actions(&self) -> Option<u32> {
        G::max_actions(Game::rules(self))
    }
    fn symmetries(&self) -> usize {
        G::SYMMETRIES
    }
    fn transformed(&self, sym: usize) -> Box<dyn AnyState> {
        Box::new(Game::transformed(self, sym))
    }
    fn transform_action(&self, action: Action, sym: usize) -> Action {
        G::transform_action(action, sym)
    }

    fn input_shape(&self) -> [usize; 3] {
        [G::INPUT_PLANES, G::BOARD_HEIGHT, G::BOARD_WIDTH]
    }
    fn encode(&self) -> Vec<f32> {
        let mut planes = vec![0.0; zero_games::input_len::<G>()];
        Encoding::encode(self, &mut planes);
        planes
    }
    fn canonical_symmetry(&self) -> usize {
        Encoding::canonical_symmetry(self)
    }
    fn policy_index(&self, action: Action) -> usize {
        policy_index(self, action)
    }
}
