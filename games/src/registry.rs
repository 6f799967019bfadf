//! The list of games zero knows, written once at the bottom of this file, and static dispatch from a game's
//! name to its type.
//!
//! [`GameKind`] names a registered game (parsed from the command line or a config file, written back by
//! name); [`with_game!`](crate::with_game) runs code that is generic over the game with the concrete type of a
//! `GameKind`:
//!
//! ```
//! use zero_games::{Game, GameKind, with_game};
//! let kind: GameKind = "tours".parse().unwrap();
//! let name = with_game!(kind, G => G::NAME);
//! assert_eq!(name, "tours");
//! ```
//!
//! Registering a new game is one line in the `registry!` call below; every game listed there must implement
//! [`Registered`] (its rules, encoding, heuristic and bench positions), which the compiler checks.

use crate::{BenchPositions, Encoding, Game, Heuristic};

/// Everything the workbench asks of a game: its rules ([`Game`]), its network encoding ([`Encoding`]), its
/// static judgement for the baselines ([`Heuristic`]) and the positions its perft benchmark times
/// ([`BenchPositions`]). Implemented for every type that has them.
pub trait Registered: Encoding + Heuristic + BenchPositions {}

impl<G: Encoding + Heuristic + BenchPositions> Registered for G {}

/// An unknown game name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?}; known games: {}", GameKind::names().join(", "))]
pub struct UnknownGame {
    pub name: String,
}

/// Writes [`GameKind`], its table of names and the `with_game!` macro from one list of `Variant =>
/// module::Type` lines. (`$d` is a literal `$`, so that this macro can write a macro of its own.)
macro_rules! registry {
    ($d:tt $($variant:ident => $module:ident :: $ty:ident),* $(,)?) => {
        /// A registered game, by name (`bashni`, `baghchal`, ...: [`GameKind::names`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $($variant),*
        }

        impl GameKind {
            /// Every registered game, in registry order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// The game's name on the command line and in files ([`Game::NAME`]).
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => <crate::$module::$ty as Game>::NAME),*
                }
            }
        }

        /// Every registered game has all the workbench asks of one (checked when this crate compiles).
        #[allow(dead_code)]
        fn every_game_is_registered() {
            fn check<G: Registered>() {}
            $(check::<crate::$module::$ty>();)*
        }

        /// Runs `body` with the type alias `G` set to the game of `kind` (a [`GameKind`]): the one way to call
        /// code that is generic over the game for a game chosen at run time. `body` is compiled once per
        /// registered game.
        #[macro_export]
        macro_rules! with_game {
            ($d kind:expr, $d g:ident => $d body:expr) => {
                match $d kind {
                    $($d crate::GameKind::$variant => {
                        #[allow(dead_code)]
                        type $d g = $d crate::$module::$ty;
                        $d body
                    })*
                }
            };
        }
    };
}

registry! { $
    Bashni => bashni::Bashni,
    BaghChal => baghchal::BaghChal,
    Tours => tours::Tours,
    Connect4 => connect4::Connect4,
}

impl GameKind {
    /// The names of every registered game.
    pub fn names() -> Vec<&'static str> {
        GameKind::ALL.iter().map(|k| k.name()).collect()
    }

    /// The kind of game `G` (`None` for a game that is not registered).
    pub fn of<G: Game>() -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.name() == G::NAME)
    }
}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| UnknownGame { name: name.to_string() })
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_from_its_name_and_dispatches_to_its_type() {
        for &kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(with_game!(kind, G => G::NAME), kind.name());
            assert_eq!(with_game!(kind, G => GameKind::of::<G>()), Some(kind));
        }
        let err = "chess".parse::<GameKind>().unwrap_err().to_string();
        assert!(
            err.contains("unknown game \"chess\"") && err.contains("bashni"),
            "{err}"
        );
    }
}
