//! Time of one Bashni network encoding, over positions of random playouts under the default rules (mid-capture
//! states and both sides to move included): `cargo run --release -p zero-games --example bashni_encode`.

use std::hint::black_box;
use std::time::Instant;
use zero_games::bashni::{Bashni, Rules};
use zero_games::checks::CheckRng;
use zero_games::{ActionList, Game};

fn main() {
    let rules = Rules::default();
    let mut positions = Vec::new();
    let mut actions = ActionList::new();
    for seed in 0..200 {
        let mut rng = CheckRng::new(seed);
        let mut game = Bashni::start(&rules);
        loop {
            positions.push(game.clone());
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            game.apply_action(actions[rng.below(actions.len())]);
        }
    }
    let mut planes = vec![0.0f32; Bashni::INPUT_PLANES * Bashni::BOARD_HEIGHT * Bashni::BOARD_WIDTH];
    let mut checksum = 0.0f64;
    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        for game in &positions {
            black_box(game).encode(black_box(&mut planes));
            checksum += planes[planes.len() / 2] as f64;
        }
    }
    let ns = started.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
    let mean_history = positions.iter().map(|g| g.ply() as f64).sum::<f64>() / positions.len() as f64;
    println!(
        "{} positions (mean ply {mean_history:.0}) x {rounds}: {ns:.0} ns per encode (checksum {checksum})",
        positions.len()
    );
}
