//! Shared helpers of the integration tests: headers, synthetic games, shards with controlled ages.
#![allow(dead_code)]

use std::fs::File;
use std::path::Path;
use std::time::{Duration, SystemTime};

use zero_data::{GameRecord, PositionRecord, ShardHeader, ShardSummary, ShardWriter};

/// A small header: 3 planes of 4 x 5, 100 actions.
pub fn small_header() -> ShardHeader {
    ShardHeader {
        run: "test-run".into(),
        generation: 7,
        model_id: "model-7".into(),
        game: "bashni".into(),
        rules: "standard".into(),
        encoding_version: 1,
        input_shape: [3, 4, 5],
        action_space: 100,
    }
}

/// A game of `len` positions whose values encode (game, index) so that tests can tell rows apart: position `i` of
/// game `g` has `simulations = g * 1000 + i`. Every third position is a fast search with an empty policy; one
/// position has a long legal list.
pub fn game(header: &ShardHeader, g: u32, len: u32) -> (GameRecord, Vec<PositionRecord>) {
    let id = format!("game-{g}");
    let input_len = header.input_len();
    let positions = (0..len)
        .map(|i| {
            let full_search = i % 3 != 1;
            let legal: Vec<u16> = if i == 2 {
                (0..100).collect()
            } else {
                (0..(i % 7) as u16 + 1).map(|a| a * 3).collect()
            };
            let policy_actions: Vec<u16> = if full_search {
                legal.iter().copied().take(5).collect()
            } else {
                vec![]
            };
            let n = policy_actions.len().max(1) as f32;
            let policy_probs = policy_actions
                .iter()
                .enumerate()
                .map(|(k, _)| (k as f32 + 0.1) / n / 3.7)
                .collect();
            PositionRecord {
                game_id: id.clone(),
                ply: i / 2,
                step: i,
                side_to_move: (i % 2) as u8,
                position: format!("pos {g}/{i} ünïcode"),
                input: (0..input_len)
                    .map(|k| ((k as u32 * 7 + i * 13 + g) % 256) as u8)
                    .collect(),
                legal_actions: legal,
                policy_actions,
                policy_probs,
                root_value: (i as f32 * 0.137).sin(),
                result: [1.0, 0.0, -1.0][(g as usize + i as usize) % 3],
                plies_to_end: len - i,
                full_search,
                simulations: g * 1000 + i,
                short_value: (i as f32 * 0.291).cos(),
                score: [0.0, 0.4, -0.6][(g as usize + i as usize) % 3],
            }
        })
        .collect();
    let game = GameRecord {
        game_id: id,
        start_position: "start".into(),
        moves: (0..len).map(|i| format!("m{i}")).collect(),
        winner: [Some(0), Some(1), None][g as usize % 3],
        reason: ["no-legal-move", "repetition", "resignation"][g as usize % 3].into(),
        plies: len,
        resigned_false_check: g % 4 == 3,
    };
    (game, positions)
}

/// Writes shard `name` holding one game per entry of `lengths` (games numbered from `first_game`), and dates its
/// positions file `age_s` seconds in the past, so that tests control which shard is newest.
pub fn write_shard(dir: &Path, name: &str, first_game: u32, lengths: &[u32], age_s: u64) -> ShardSummary {
    let header = small_header();
    let mut writer = ShardWriter::create(dir, name, header.clone()).unwrap();
    for (k, &len) in lengths.iter().enumerate() {
        let (g, p) = game(&header, first_game + k as u32, len);
        writer.add_game(&g, &p).unwrap();
    }
    let summary = writer.finish().unwrap();
    let when = SystemTime::now() - Duration::from_secs(age_s);
    File::options()
        .write(true)
        .open(&summary.positions_path)
        .unwrap()
        .set_modified(when)
        .unwrap();
    summary
}
