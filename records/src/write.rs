//! Writing a record: its tags, then its movetext numbered by full moves and wrapped, then its result.

use crate::{ReadRecord, Record, RecordError, replay};
use zero_games::{Game, Side};

/// Movetext lines stay within this many characters, as PGN asks.
const LINE_WIDTH: usize = 79;

/// Writes `record` as text, after replaying it (a record whose moves are not legal is refused): its tags in
/// order, with `Result` set from the record, a blank line, the numbered moves in the game's own notation (a
/// move read as `22x8` is written `c3:e5:g7`) and the result.
pub fn write_record<G: Game>(record: &Record) -> Result<String, RecordError> {
    let read = ReadRecord {
        record: record.clone(),
        line: 0,
        move_lines: Vec::new(),
        terminated: true,
    };
    let replayed = replay::<G>(&read)?;
    let mut text = String::new();
    let result = record.result.token::<G>();
    let mut wrote_result = false;
    for (name, value) in &record.tags {
        let value = if name == "Result" {
            wrote_result = true;
            result
        } else {
            value.as_str()
        };
        text.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    if !wrote_result {
        text.push_str(&format!("[Result \"{result}\"]\n"));
    }
    text.push('\n');
    let mut line = String::new();
    let mut game = replayed.start.clone();
    let mut full_move = 1;
    for (index, mv) in replayed.moves.iter().enumerate() {
        let side = game.to_move();
        let number = match side {
            Side::First => Some(format!("{full_move}.")),
            Side::Second if index == 0 => Some(format!("{full_move}...")),
            Side::Second => None,
        };
        for word in number.into_iter().chain([game.format_move(mv)]) {
            push_word(&mut text, &mut line, &word);
        }
        game.play(mv);
        if game.to_move() == Side::First && side == Side::Second {
            full_move += 1;
        }
    }
    push_word(&mut text, &mut line, result);
    text.push_str(&line);
    text.push('\n');
    Ok(text)
}

fn push_word(text: &mut String, line: &mut String, word: &str) {
    if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
        text.push_str(line);
        text.push('\n');
        line.clear();
    }
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(word);
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}
