//! The list of games zero knows, and static dispatch from a game's name to its type.
//!
//! Code that works for any game is written once as a [`GameVisitor`] and run with [`dispatch`], which picks
//! the concrete type from the name given on the command line or in a config file. Registering a new game is
//! one line in [`dispatch`] and one in [`GAME_NAMES`].

use crate::Game;

/// The names of every registered game, as accepted by [`dispatch`].
pub const GAME_NAMES: &[&str] = &["bashni", "baghchal", "tours"];

/// Code that is generic over the game, run for the game named at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// An unknown game name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?}; known games: {}", GAME_NAMES.join(", "))]
pub struct UnknownGame {
    pub name: String,
}

/// Runs `visitor` with the game type registered under `name`.
pub fn dispatch<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownGame> {
    match name {
        "bashni" => Ok(visitor.visit::<crate::bashni::Bashni>()),
        "baghchal" => Ok(visitor.visit::<crate::baghchal::BaghChal>()),
        "tours" => Ok(visitor.visit::<crate::tours::Tours>()),
        _ => {
            let _ = visitor;
            Err(UnknownGame { name: name.to_string() })
        }
    }
}
