//! Replaying a record under its rules: every move parsed in the position it is played from, the result checked
//! against the final position.

use crate::{GameResult, ReadRecord, RecordError, pdn_number};
use zero_games::Game;

/// A record checked move by move.
#[derive(Debug, Clone)]
pub struct Replay<G: Game> {
    pub rules: G::Rules,
    /// The position the game started from.
    pub start: G,
    pub moves: Vec<G::Move>,
    /// The position after the last move.
    pub end: G,
}

impl<G: Game> Replay<G> {
    /// The moves in the game's own notation (a move read as `22x8` is `c3:e5:g7`).
    pub fn move_texts(&self) -> Vec<String> {
        move_texts(&self.start, &self.moves)
    }
}

/// `moves` played from `start`, each in the notation of the position it is played in.
pub fn move_texts<G: Game>(start: &G, moves: &[G::Move]) -> Vec<String> {
    let mut game = start.clone();
    moves
        .iter()
        .map(|mv| {
            let text = game.format_move(mv);
            game.play(mv);
            text
        })
        .collect()
}

/// Replays `read` as a game of `G`: its `GameType` (when given) must name `G`, or be the PDN number of the
/// draughts game `G` shares its notation with (its `Variant` tag, when given, naming `G`); its `Rules` tag, the
/// variant after the game's name and its `FEN` give the rules and start; each move must be legal where it is
/// played; a game the rules end must end with the result the record gives.
pub fn replay<G: Game>(read: &ReadRecord) -> Result<Replay<G>, RecordError> {
    let record = &read.record;
    let at_record = |reason: String| RecordError::new(read.line, reason);
    let variant = match record.game_type() {
        None => None,
        Some(tag) => {
            if let Some(number) = tag.pdn
                && G::PDN_GAME_TYPE.and_then(pdn_number) != Some(number)
            {
                return Err(at_record(format!(
                    "its GameType {number} is a PDN draughts game whose board and notation {} does not share",
                    G::NAME
                )));
            }
            match tag.name {
                Some(game) if game != G::NAME => {
                    return Err(at_record(format!("a record of {game:?}, not of {}", G::NAME)));
                }
                _ => tag.variant,
            }
        }
    };
    let options: Vec<String> = record
        .tag("Rules")
        .map(|text| text.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let rules = G::parse_rules(variant, &options).map_err(|e| at_record(format!("its rules: {e}")))?;
    let start = match record.tag("FEN") {
        Some(position) => G::from_position(&rules, position).map_err(|e| at_record(format!("its FEN tag: {e}")))?,
        None => G::start(&rules),
    };
    let mut end = start.clone();
    let mut moves = Vec::with_capacity(record.moves.len());
    for (index, text) in record.moves.iter().enumerate() {
        let line = read.move_lines.get(index).copied().unwrap_or(read.line);
        let at_move = |reason: String| RecordError::new(line, format!("move {} {text:?}: {reason}", index + 1));
        if let Some(outcome) = end.outcome() {
            return Err(at_move(format!("the game was already over ({})", outcome.reason)));
        }
        let mv = end.parse_move(text).map_err(|e| at_move(e.to_string()))?;
        end.play(&mv);
        moves.push(mv);
    }
    if let Some(outcome) = end.outcome() {
        let ended = GameResult::of_winner(outcome.winner);
        if record.result != GameResult::Unknown && record.result != ended {
            return Err(at_record(format!(
                "its moves end the game {ended:?} ({}), but its result is {:?}",
                outcome.reason, record.result
            )));
        }
    }
    if !read.terminated {
        let line = read.move_lines.last().copied().unwrap_or(read.line);
        return Err(RecordError::new(
            line,
            "the movetext ends without a result (1-0, 0-1, 1/2-1/2 or *): the record is cut short",
        ));
    }
    Ok(Replay {
        rules,
        start,
        moves,
        end,
    })
}
