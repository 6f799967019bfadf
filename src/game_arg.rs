//! The game argument of the commands: a registered game's name, with the registered names listed in `--help`
//! and in the error for any other, so that no help text lists the games by hand.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use std::ffi::OsStr;
use zero_games::{GameKind, UnknownGame};

/// Parses a registered game's name into its [`GameKind`]; an unknown name is a usage error that lists the known.
pub fn parser() -> GameParser {
    GameParser
}

#[derive(Debug, Clone, Copy)]
pub struct GameParser;

impl TypedValueParser for GameParser {
    type Value = GameKind;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<GameKind, clap::Error> {
        let text = value.to_string_lossy();
        text.parse().map_err(|e: UnknownGame| {
            let argument = arg.map_or(String::new(), |a| format!(" for '{a}'"));
            clap::Error::raw(ErrorKind::ValueValidation, format!("invalid value{argument}: {e}\n")).with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(GameKind::names().into_iter().map(PossibleValue::new)))
    }
}
