//! Writing a shard and reading every field back.

mod common;

use common::{game, small_header};
use zero_data::{DataError, GameOutcome, ShardWriter, read_game_outcomes, read_games, read_shard};

#[test]
fn every_field_round_trips_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let header = small_header();
    let mut writer = ShardWriter::create(dir.path(), "s0001", header.clone()).unwrap();
    let mut games = Vec::new();
    let mut positions = Vec::new();
    for (g, len) in [(0, 1), (1, 9), (2, 40), (3, 0), (4, 5)] {
        let (record, rows) = game(&header, g, len);
        writer.add_game(&record, &rows).unwrap();
        games.push(record);
        positions.extend(rows);
    }
    let summary = writer.finish().unwrap();
    assert_eq!((summary.games, summary.positions), (5, 55));
    assert!(summary.positions_bytes > 0 && summary.games_bytes > 0);
    assert!(positions.iter().any(|p| !p.full_search && p.policy_actions.is_empty()));
    assert!(positions.iter().any(|p| p.legal_actions.len() == 100));

    let (read_header, read_positions) = read_shard(&summary.positions_path).unwrap();
    assert_eq!(read_header, header);
    assert_eq!(read_positions.len(), positions.len());
    for (a, b) in read_positions.iter().zip(&positions) {
        // PartialEq on f32 is exact equality: no value may change on the way.
        assert_eq!(a, b);
        assert_eq!(a.root_value.to_bits(), b.root_value.to_bits());
    }
    let (games_header, read_games) = read_games(&summary.games_path).unwrap();
    assert_eq!(games_header, header);
    assert_eq!(read_games, games);
    // The outcomes alone, as counting a generation reads them, are the full records' outcomes.
    let outcomes: Vec<GameOutcome> = games
        .iter()
        .map(|g| GameOutcome {
            winner: g.winner,
            reason: g.reason.clone(),
            plies: g.plies,
        })
        .collect();
    assert_eq!(read_game_outcomes(&summary.games_path).unwrap(), outcomes);
}

#[test]
fn an_empty_shard_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let summary = ShardWriter::create(dir.path(), "empty", small_header())
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(read_shard(&summary.positions_path).unwrap().1, vec![]);
    assert_eq!(read_games(&summary.games_path).unwrap().1, vec![]);
}

#[test]
fn writer_refuses_inconsistent_records_and_existing_shards() {
    let dir = tempfile::tempdir().unwrap();
    let header = small_header();
    let mut writer = ShardWriter::create(dir.path(), "s", header.clone()).unwrap();
    let (record, mut rows) = game(&header, 0, 4);
    rows[1].input.pop();
    let err = writer.add_game(&record, &rows).unwrap_err();
    assert!(matches!(err, DataError::InvalidRecord { .. }), "{err}");
    rows[1].input.push(0);
    rows[2].legal_actions.push(100);
    assert!(
        writer
            .add_game(&record, &rows)
            .unwrap_err()
            .to_string()
            .contains("action 100")
    );
    rows[2].legal_actions.pop();
    rows[3].game_id = "other".into();
    assert!(writer.add_game(&record, &rows).is_err());
    assert_eq!(writer.positions(), 0, "a refused game adds nothing");
    writer.finish().unwrap();

    let err = ShardWriter::create(dir.path(), "s", header.clone()).err().unwrap();
    assert!(matches!(err, DataError::AlreadyExists { .. }), "{err}");
    assert!(ShardWriter::create(dir.path(), "a/b", header.clone()).is_err());
    assert!(ShardWriter::create(dir.path(), "x.games", header).is_err());
}
