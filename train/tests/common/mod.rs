//! Shared helpers: shards of real positions from random playouts, tiny networks and configs.
#![allow(dead_code)]

use std::path::Path;

use zero_data::{GameRecord, PositionRecord, ReplayIndex, ShardHeader, ShardSet, ShardSummary, ShardWriter};
use zero_games::checks::CheckRng;
use zero_games::policy_index;
use zero_games::{ActionList, Encoding};
use zero_model::NetworkConfig;
use zero_train::{TrainConfig, shard_spec};

/// The shard header the trainer expects for `G` under `rules`.
pub fn header<G: Encoding>(rules: &G::Rules) -> ShardHeader {
    shard_spec::<G>(rules).header("test", 0, "random")
}

/// Writes shard `name` of `games` random playouts (at most `max_plies` positions each). Every position but each
/// fourth is a policy target: all mass on its legal action of smallest policy index, so a network can learn it.
pub fn write_playouts<G: Encoding>(
    dir: &Path,
    name: &str,
    rules: &G::Rules,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> ShardSummary {
    let mut rng = CheckRng::new(seed);
    let mut writer = ShardWriter::create(dir, name, header::<G>(rules)).unwrap();
    let mut legal = ActionList::new();
    let mut planes = vec![0.0; zero_games::input_len::<G>()];
    for g in 0..games {
        let id = format!("{name}-{g}");
        let mut game = G::start(rules);
        let mut rows: Vec<(PositionRecord, zero_games::Side)> = Vec::new();
        while rows.len() < max_plies {
            game.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            game.encode(&mut planes);
            let indices: Vec<u16> = legal.iter().map(|&a| policy_index(&game, a) as u16).collect();
            let full = rows.len() % 4 != 3;
            let target = *indices.iter().min().unwrap();
            rows.push((
                PositionRecord {
                    game_id: id.clone(),
                    ply: game.ply(),
                    step: rows.len() as u32,
                    side_to_move: game.to_move().index() as u8,
                    position: game.position(),
                    input: zero_data::quantize(&planes),
                    legal_actions: indices,
                    policy_actions: if full { vec![target] } else { vec![] },
                    policy_probs: if full { vec![1.0] } else { vec![] },
                    root_value: 0.0,
                    result: 0.0,
                    plies_to_end: 0,
                    full_search: full,
                    simulations: 1,
                    short_value: 0.0,
                    score: 0.0,
                },
                game.to_move(),
            ));
            game.apply_action(legal[rng.below(legal.len())]);
        }
        let outcome = game.outcome();
        let score = |mover: zero_games::Side| {
            if mover == game.to_move() {
                game.score()
            } else {
                -game.score()
            }
        };
        let total = rows.len() as u32;
        let positions: Vec<PositionRecord> = rows
            .into_iter()
            .enumerate()
            .map(|(i, (mut p, mover))| {
                p.result = outcome.map_or(0.0, |o| o.value_for(mover));
                p.plies_to_end = total - i as u32;
                p.short_value = p.result;
                p.score = score(mover);
                p
            })
            .collect();
        let record = GameRecord {
            game_id: id,
            start_position: "start".into(),
            moves: vec![],
            winner: None,
            reason: "test".into(),
            plies: total,
            resigned_false_check: false,
        };
        writer.add_game(&record, &positions).unwrap();
    }
    writer.finish().unwrap()
}

/// The window over every readable shard of `dir` for `G`, and the shards refused on the way (as messages).
pub fn window<G: Encoding>(dir: &Path, rules: &G::Rules, config: &TrainConfig) -> (ReplayIndex, Vec<String>) {
    let set = ShardSet::scan(dir).unwrap();
    let (index, errors) = ReplayIndex::build(&set, &config.window_rule(), Some(&shard_spec::<G>(rules)));
    (index, errors.iter().map(|e| e.to_string()).collect())
}

pub fn tiny_network() -> NetworkConfig {
    NetworkConfig {
        blocks: 1,
        channels: 8,
        policy_channels: 2,
        value_channels: 1,
        value_hidden: 16,
        ..NetworkConfig::default()
    }
}

/// A small, quick config on the CPU.
pub fn quick_config() -> TrainConfig {
    TrainConfig {
        batch_size: 16,
        chunk_steps: 4,
        window: zero_train::WindowKind::Fixed,
        window_positions: 100_000,
        shuffle_buffer: 64,
        prefetch_batches: 2,
        warmup_steps: 3,
        decay_steps: 40,
        learning_rate: 0.01,
        device: "cpu".into(),
        ..TrainConfig::default()
    }
}
