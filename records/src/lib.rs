//! Game records: the tag-pair text that draughts players know as PDN and chess players as PGN.
//!
//! A file holds any number of records. Each is a tag section (`[Name "value"]` lines) and its movetext: the
//! moves in the game's own notation, with move numbers, comments (`{...}`, `;` to the end of a line),
//! variations (`(...)`), annotation glyphs (`$1`, `!?`) and escape lines (`%` in the first column) allowed and
//! skipped, ended by the result. Bashni's records are PDN: results `2-0`, `0-2`, `1-1`, and moves either
//! algebraic (`c3-d4`, `c3:e5:c7`, `c3xe5`) or numeric (`22-18`, `22x15`), captures shortened to the squares
//! that make them unique as PDN allows. Bagh Chal's and Tours' use chess's `1-0`, `0-1`, `1/2-1/2`; every
//! record reads all of these. The tags zero writes and reads (`docs/records.md`):
//!
//! - `GameType`: the game, and after a colon its variant (`baghchal`, `tours:compound`); for a game that shares
//!   a PDN draughts game's board and notation (Bashni: Russian draughts), that game's number
//!   (`25,W,8,8,A0,0`), so that draughts tools read the file, and the game in a `Variant` tag (`bashni`);
//! - `Rules`: the complete rule set as `key=value` options, so a record replays under exactly its rules;
//! - `FEN` (with `SetUp "1"`): the start position in the game's notation, when it is not the initial one;
//! - the players by the game's names for them (`White`/`Black`, `Goats`/`Tigers`), `Result`, `Termination`
//!   (why it ended: `no-legal-move`, `resignation`, ...), and any others (`Event`, `Round`, ...) kept as read.
//!
//! The arena's own records (one JSON object a game, [`arena`]) live here too, so that turning them into PDN needs
//! neither the arena nor libtorch.
//!
//! [`read_records`] parses the text, [`replay`] checks a record move by move against the rules and
//! [`write_record`] writes one. Every error names the line and what is wrong there.

pub mod arena;
mod read;
mod replay;
mod write;

pub use read::read_records;
pub use replay::{Replay, move_texts, replay};
pub use write::write_record;

/// How a game ended, as a record's `Result` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    FirstWins,
    SecondWins,
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    /// Reads a result token in any of the forms records use (`1-0`, `2-0`, `1/2-1/2`, `1-1`, `*`, ...).
    pub fn parse(token: &str) -> Option<GameResult> {
        match token {
            "1-0" | "2-0" => Some(GameResult::FirstWins),
            "0-1" | "0-2" => Some(GameResult::SecondWins),
            "1/2-1/2" | "1-1" | "\u{bd}-\u{bd}" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }

    /// The result of a game won by `winner` (`None`: a draw).
    pub fn of_winner(winner: Option<zero_games::Side>) -> GameResult {
        match winner {
            Some(zero_games::Side::First) => GameResult::FirstWins,
            Some(zero_games::Side::Second) => GameResult::SecondWins,
            None => GameResult::Draw,
        }
    }

    /// The token game `G`'s records write.
    pub fn token<G: zero_games::Game>(self) -> &'static str {
        match self {
            GameResult::FirstWins => G::RECORD_RESULTS[0],
            GameResult::SecondWins => G::RECORD_RESULTS[1],
            GameResult::Draw => G::RECORD_RESULTS[2],
            GameResult::Unknown => "*",
        }
    }
}

/// One game: its tags in order, its moves as written, and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: GameResult,
}

impl Record {
    /// A record of no moves yet, with the tags that say which game and rules it is played under.
    pub fn new<G: zero_games::Game>(rules: &G::Rules, variant: Option<&str>) -> Record {
        let game = match variant {
            Some(v) if v != "default" => format!("{}:{v}", G::NAME),
            _ => G::NAME.to_string(),
        };
        let mut record = Record {
            tags: Vec::new(),
            moves: Vec::new(),
            result: GameResult::Unknown,
        };
        match G::PDN_GAME_TYPE {
            Some(pdn) => {
                record.set_tag("GameType", pdn);
                record.set_tag("Variant", &game);
            }
            None => record.set_tag("GameType", &game),
        }
        record.set_tag("Rules", &G::describe_rules(rules).join(" "));
        record
    }

    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, in place when it is there, at the end otherwise.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Sets the tag of `side`'s player, named as the game names its players (`White`, `Goats`, ...).
    pub fn set_player<G: zero_games::Game>(&mut self, side: zero_games::Side, player: &str) {
        let name = G::player_name(side);
        let mut chars = name.chars();
        let tag: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        self.set_tag(&tag, player);
    }

    /// What its `GameType` tag says the game is (`None` without one): the game it names, or, where it is a PDN
    /// number, that number and the game its `Variant` tag names.
    pub fn game_type(&self) -> Option<GameTag<'_>> {
        let value = self.tag("GameType")?;
        let pdn = pdn_number(value);
        let named = if pdn.is_some() {
            self.tag("Variant")
        } else {
            Some(value)
        };
        let (name, variant) = named.map_or((None, None), split_variant);
        Some(GameTag { name, variant, pdn })
    }
}

/// The game a record's tags name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameTag<'a> {
    /// The game's name (`bashni`): the `GameType` tag's, or with a PDN number there, the `Variant` tag's
    /// (`None` without one).
    pub name: Option<&'a str>,
    /// The variant, after a colon (`tours:compound`).
    pub variant: Option<&'a str>,
    /// A numeric `GameType`'s number, PDN's name for a draughts game (25: Russian draughts).
    pub pdn: Option<u32>,
}

/// `game` or `game:variant`.
fn split_variant(value: &str) -> (Option<&str>, Option<&str>) {
    match value.split_once(':') {
        Some((game, variant)) => (Some(game.trim()), Some(variant.trim())),
        None => (Some(value.trim()), None),
    }
}

/// The number of a PDN `GameType` (`25` or `25,W,8,8,A0,0`), if it is one.
pub fn pdn_number(game_type: &str) -> Option<u32> {
    let first = game_type.split(',').next()?.trim();
    if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    first.parse().ok()
}

/// A record as read from text, with the lines it came from for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRecord {
    pub record: Record,
    /// The line its first tag (or its first move) is on, from 1.
    pub line: usize,
    /// The line of each move.
    pub move_lines: Vec<usize>,
    /// Whether its movetext ended with a result, as PGN and PDN end every game (`*` when unfinished); a record
    /// without one was cut short, and [`replay`](crate::replay) refuses it.
    pub terminated: bool,
}

/// What is wrong with a record, and on which line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct RecordError {
    pub line: usize,
    pub reason: String,
}

impl RecordError {
    pub(crate) fn new(line: usize, reason: impl Into<String>) -> RecordError {
        RecordError {
            line,
            reason: reason.into(),
        }
    }
}
