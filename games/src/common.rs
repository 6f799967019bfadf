//! Types shared by every game: players, outcomes and their reasons, rule-option parsing.

use std::fmt;

/// One of the two players. `First` moves first (White in Bashni and Tours, the goats in Bagh Chal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(index: usize) -> Side {
        if index == 0 { Side::First } else { Side::Second }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move had no legal move (it loses).
    NoLegalMove,
    /// A capture target was reached (Bagh Chal: the tigers' fifth goat).
    CaptureTarget,
    /// A position occurred for the configured number of times (a draw).
    Repetition,
    /// A player repeated a position where that loses (Bagh Chal's `goats-lose-on-repetition`).
    RepetitionLoss,
    /// Too many consecutive plies without progress (a draw).
    NoProgress,
    /// The total ply cap was reached (a draw).
    PlyLimit,
    /// A player resigned (set by the search or a match, never by the rules).
    Resignation,
    /// The mover completed a line of their pieces (Connect Four's four in a row).
    Line,
    /// The board is full with no winner (a draw: Connect Four).
    BoardFull,
}

impl EndReason {
    /// Stable lower-case name, as written in game records and data files.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::NoLegalMove => "no-legal-move",
            EndReason::CaptureTarget => "capture-target",
            EndReason::Repetition => "repetition",
            EndReason::RepetitionLoss => "repetition-loss",
            EndReason::NoProgress => "no-progress",
            EndReason::PlyLimit => "ply-limit",
            EndReason::Resignation => "resignation",
            EndReason::Line => "line",
            EndReason::BoardFull => "board-full",
        }
    }

    pub fn parse(text: &str) -> Option<EndReason> {
        [
            EndReason::NoLegalMove,
            EndReason::CaptureTarget,
            EndReason::Repetition,
            EndReason::RepetitionLoss,
            EndReason::NoProgress,
            EndReason::PlyLimit,
            EndReason::Resignation,
            EndReason::Line,
            EndReason::BoardFull,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game: the winner (`None` for a draw) and why it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(winner: Side, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    pub fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: None, reason }
    }

    /// The result from `player`'s point of view: 1 win, 0 draw, -1 loss.
    pub fn value_for(&self, player: Side) -> f32 {
        match self.winner {
            None => 0.0,
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
        }
    }
}

/// Why a rule set was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown variant {name:?} for {game}; known: {known}")]
    UnknownVariant {
        game: &'static str,
        name: String,
        known: String,
    },
    #[error("unknown option {key:?} for {game}; known: {known}")]
    UnknownOption {
        game: &'static str,
        key: String,
        known: String,
    },
    #[error("bad value {value:?} for option {key:?}: {reason}")]
    BadValue { key: String, value: String, reason: String },
    #[error("malformed option {text:?}: expected key=value")]
    Malformed { text: String },
}

/// Splits `key=value` options, refusing anything else. Keys and values are trimmed, and a key's `-` are read
/// as `_`: the canonical spelling is `max_plies`, and `max-plies` means the same.
pub fn parse_options(options: &[String]) -> Result<Vec<(String, String)>, RulesError> {
    options
        .iter()
        .map(|text| match text.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().replace('-', "_"), v.trim().to_string())),
            _ => Err(RulesError::Malformed { text: text.clone() }),
        })
        .collect()
}

/// Parses a boolean option value (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`).
pub fn parse_bool(key: &str, value: &str) -> Result<bool, RulesError> {
    match value {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            reason: "expected true or false".to_string(),
        }),
    }
}

/// Parses a non-negative integer option value; 0 conventionally switches a limit off.
pub fn parse_count(key: &str, value: &str) -> Result<u32, RulesError> {
    value.parse().map_err(|_| RulesError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        reason: "expected a non-negative integer (0 switches the rule off)".to_string(),
    })
}
