//! The arena's game records: enough to replay every game (the opening and the moves in notation, from the start
//! position under the recorded rules) and to rate it (who played which side, the result and why). Written one
//! JSON object per line (JSONL). The arena writes them (`zero_arena::records`); `zero games` turns them into
//! PDN and PGN-style records without loading the arena or libtorch.
use serde::{Deserialize, Serialize};
use std::io::BufRead;
use std::path::Path;

/// A record file that cannot be read or written, or a record that does not replay.
#[derive(Debug, thiserror::Error)]
pub enum MatchRecordError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {reason}")]
    BadFile { path: String, reason: String },
    #[error("{0}")]
    Invalid(String),
}
use zero_games::{EndReason, Game, Outcome, Side};

/// Why a game ended when the rules did not end it.
pub const REASON_ILLEGAL_MOVE: &str = "illegal-move";
pub const REASON_ARENA_CAP: &str = "arena-ply-cap";

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The game's registry name.
    pub game: String,
    /// The complete rule set as `key=value` options.
    pub rules: Vec<String>,
    /// Names of the players of the first side (who moves first) and the second.
    pub first: String,
    pub second: String,
    /// Index of the opening in the book, and its moves (played before the players take over).
    pub opening_index: usize,
    pub opening: Vec<String>,
    /// The players' moves after the opening.
    pub moves: Vec<String>,
    /// `first`, `second`, or `None` for a draw.
    pub winner: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`, first side's score first.
    pub result: String,
    /// [`EndReason::as_str`], or `illegal-move` / `arena-ply-cap` when the arena ended it.
    pub reason: String,
}

impl MatchRecord {
    /// The first side's score: 1, 0.5 or 0.
    pub fn first_score(&self) -> f64 {
        match self.winner.as_deref() {
            Some("first") => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// `player`'s score (1, 0.5 or 0), or `None` when it did not play this game.
    pub fn score_of(&self, player: &str) -> Option<f64> {
        if self.first == player {
            Some(self.first_score())
        } else if self.second == player {
            Some(1.0 - self.first_score())
        } else {
            None
        }
    }

    /// Records how the game ended: the winning side (`None`: a draw) and why.
    pub fn set_result(&mut self, winner: Option<Side>, reason: &str) {
        self.winner = winner.map(|w| if w == Side::First { "first" } else { "second" }.to_string());
        self.result = match winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
        .to_string();
        self.reason = reason.to_string();
    }
}

/// Replays a record from the start position under its rules: every move must parse and be legal. Returns the
/// final position and its outcome (the rules' outcome; `None` when the arena ended the game).
pub fn replay<G: Game>(record: &MatchRecord) -> Result<(G, Option<Outcome>), MatchRecordError> {
    let bad = |reason: String| {
        MatchRecordError::Invalid(format!("replaying {} vs {}: {reason}", record.first, record.second))
    };
    if record.game != G::NAME {
        return Err(bad(format!("record of {}, not {}", record.game, G::NAME)));
    }
    let rules = G::parse_rules(None, &record.rules).map_err(|e| bad(e.to_string()))?;
    let mut game = G::start(&rules);
    for text in record.opening.iter().chain(&record.moves) {
        if game.outcome().is_some() {
            return Err(bad(format!("move {text} after the end")));
        }
        let mv = game.parse_move(text).map_err(|e| bad(e.to_string()))?;
        game.play(&mv);
    }
    let outcome = game.outcome();
    Ok((game, outcome))
}

/// Whether a replayed outcome agrees with the record's result and reason.
pub fn agrees(record: &MatchRecord, outcome: Option<Outcome>) -> bool {
    match outcome {
        Some(o) => {
            let winner = o.winner.map(|w| if w == Side::First { "first" } else { "second" });
            winner == record.winner.as_deref() && record.reason == o.reason.as_str()
        }
        None => EndReason::parse(&record.reason).is_none(),
    }
}

/// Writes records as JSONL, atomically: a reader (or a run resumed after a kill) sees all of them or none.
pub fn write_jsonl(path: &Path, records: &[MatchRecord]) -> Result<(), MatchRecordError> {
    let io = |source| MatchRecordError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut out = Vec::new();
    for record in records {
        serde_json::to_writer(&mut out, record).map_err(|e| io(e.into()))?;
        out.push(b'\n');
    }
    zero_io::write_atomically(path, &out).map_err(io)
}

/// Reads records written by [`write_jsonl`].
pub fn read_jsonl(path: &Path) -> Result<Vec<MatchRecord>, MatchRecordError> {
    let io = |source| MatchRecordError::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut records = Vec::new();
    for (i, line) in file.lines().enumerate() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() {
            continue;
        }
        records.push(serde_json::from_str(&line).map_err(|e| MatchRecordError::BadFile {
            path: path.display().to_string(),
            reason: format!("line {}: {e}", i + 1),
        })?);
    }
    Ok(records)
}
