//! A session's game as a record and back (`docs/records.md`): what `zero play`'s `save`/`load` and the web
//! page's save and load share.

use crate::error::{Context, Result, bail};
use zero_games::{Game, Side};
use zero_records::{GameResult, Record};

/// The record of a game played from `start` by `moves` to `end`, the person playing `human` against the bot.
pub fn record_text<G: Game>(start: &G, moves: &[G::Move], end: &G, human: Side, event: &str) -> Result<String> {
    let mut record = Record::new::<G>(start.rules(), None);
    record.set_tag("Event", event);
    for side in [Side::First, Side::Second] {
        let player = if side == human { "you" } else { "zero bot" };
        record.set_player::<G>(side, player);
    }
    if start.position() != G::start(start.rules()).position() {
        record.set_tag("SetUp", "1");
        record.set_tag("FEN", &start.position());
    }
    record.moves = zero_records::move_texts(start, moves);
    record.result = match end.outcome() {
        Some(outcome) => {
            record.set_tag("Termination", outcome.reason.as_str());
            GameResult::of_winner(outcome.winner)
        }
        None => GameResult::Unknown,
    };
    Ok(zero_records::write_record::<G>(&record)?)
}

/// The first game of record text `text` (from `source`, for messages), replayed; refused when it is played under
/// other rules than `rules`.
pub fn first_game<G: Game>(text: &str, source: &str, rules: &G::Rules) -> Result<zero_records::Replay<G>> {
    let records = zero_records::read_records(text).with_context(|| source.to_string())?;
    let Some(first) = records.first() else {
        bail!("{source}: no game record in it");
    };
    let replay = zero_records::replay::<G>(first).with_context(|| source.to_string())?;
    if replay.rules != *rules {
        bail!(
            "{source}: its rules ({}) are not the bot's ({})",
            G::describe_rules(&replay.rules).join(" "),
            G::describe_rules(rules).join(" ")
        );
    }
    Ok(replay)
}
