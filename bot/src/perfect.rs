//! Perfect play beside the bot's analysis: where a tablebase file is given (`--tablebase FILE`) and the game is
//! Bagh Chal, the position's value under perfect play and each legal move's, from `zero-tablebase` (the sliding
//! phase, and the last placements by exact search). Analysis only: the bot's own moves never use it.

use crate::error::bail;
use std::path::Path;
use std::sync::Arc;
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_tablebase::{Table, Value};

/// A tablebase opened for analysis.
pub type Tablebase = Arc<Table>;

/// Opens the tablebase at `path` for analysis; `game` must be Bagh Chal.
pub fn open(path: &Path, game: &str) -> crate::error::Result<Tablebase> {
    if game != BaghChal::NAME {
        bail!("--tablebase: only baghchal has a tablebase, and this bundle plays {game}");
    }
    Ok(Arc::new(Table::open(path)?.0))
}

/// The tablebase's answer for one position: its value for the side to move, and each legal move (in the game's
/// notation) with its value for the mover, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct PerfectPlay {
    pub value: Value,
    pub moves: Vec<(String, Value)>,
}

/// Why the tablebase has no answer for a position (its rules or position are not the table's, or the probe
/// failed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoAnswer(String);

/// What the tablebase says of `game`: none for another game, the reason where it has no answer.
pub fn perfect_play<G: Game>(table: &Table, game: &G) -> Option<Result<PerfectPlay, NoAnswer>> {
    let baghchal = (game as &dyn std::any::Any).downcast_ref::<BaghChal>()?;
    let answer = (|| {
        // The position on a fresh history, as the table knows positions.
        let position =
            BaghChal::from_position(baghchal.rules(), &baghchal.position()).map_err(|e| NoAnswer(e.to_string()))?;
        let probe = table.probe(&position).map_err(|e| NoAnswer(e.to_string()))?;
        // The game's own legal moves: under the repetition ban its history may forbid some the position allows.
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let legal: Vec<String> = legal.iter().map(|mv| game.format_move(mv)).collect();
        let mut moves: Vec<(String, Value)> = probe
            .moves
            .iter()
            .map(|(mv, v)| (position.format_move(mv), *v))
            .filter(|(text, _)| legal.contains(text))
            .collect();
        moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.goodness()));
        Ok(PerfectPlay {
            value: probe.value,
            moves,
        })
    })();
    Some(answer)
}

/// A value as one protocol token: `win7`, `loss12`, `draw`.
pub fn token(value: Value) -> String {
    match value {
        Value::Win(d) => format!("win{d}"),
        Value::Loss(d) => format!("loss{d}"),
        Value::Draw => "draw".into(),
    }
}

/// The protocol's line: `info tablebase VALUE moves M1 V1 M2 V2 ...` (best first), or `info tablebase none
/// REASON`.
pub fn protocol_line(answer: &Result<PerfectPlay, NoAnswer>) -> String {
    match answer {
        Ok(p) => {
            let moves: Vec<String> = p.moves.iter().map(|(m, v)| format!("{m} {}", token(*v))).collect();
            format!("info tablebase {} moves {}", token(p.value), moves.join(" "))
        }
        Err(reason) => format!("info tablebase none {reason}"),
    }
}

/// The page's JSON: `{"value", "moves": [{"move", "value"}]}` or `{"none": REASON}`.
pub fn json(answer: &Result<PerfectPlay, NoAnswer>) -> serde_json::Value {
    match answer {
        Ok(p) => serde_json::json!({
            "value": token(p.value),
            "moves": p.moves.iter().map(|(m, v)| serde_json::json!({"move": m, "value": token(*v)})).collect::<Vec<_>>(),
        }),
        Err(reason) => serde_json::json!({ "none": reason.to_string() }),
    }
}
