//! Game record files (PDN and its PGN-style siblings): what people download and paste.

use crate::game_of;
use zero_games::{Game, with_game};
use zero_records::{read_records, replay, write_record};

/// `[game] record text`: reading never panics; a record that replays as the game is written back (in canonical
/// notation) to text that reads and replays to the same moves, result and final position.
pub fn records(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let Ok(read) = read_records(&text) else { return };
    with_game!(game_of(which), G => read.iter().for_each(rewritten_replays_the_same::<G>));
}

fn rewritten_replays_the_same<G: Game>(read: &zero_records::ReadRecord) {
    let Ok(first) = replay::<G>(read) else { return };
    // The writer replays the record and writes each move in canonical notation.
    let written = write_record::<G>(&read.record).expect("a record that replays is written");
    let again = read_records(&written).expect("a written record reads back");
    assert_eq!(again.len(), 1, "one record written, {} read:\n{written}", again.len());
    let second = replay::<G>(&again[0]).expect("a written record replays");
    assert_eq!(second.moves, first.moves, "{written}");
    assert_eq!(second.end.position(), first.end.position(), "{written}");
    assert_eq!(again[0].record.result, read.record.result, "{written}");
}
