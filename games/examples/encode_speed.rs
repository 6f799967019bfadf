//! Nanoseconds per `Encoding::encode`, over positions of random playouts (no torch).
//!
//! `cargo run --release -p zero-games --example encode_speed -- [game ...] [--variant NAME]`; all games by
//! default. Positions come from 200 random games (seeded); each is encoded many times into one reused buffer.

use std::hint::black_box;
use std::time::Instant;
use zero_games::checks::CheckRng;
use zero_games::{ActionList, Encoding, GameKind, input_len, with_game};

/// Times `G::encode` over the positions of 200 random games under the rules `variant`.
fn speed<G: Encoding>(variant: Option<&str>) -> Result<(), String> {
    let rules = G::parse_rules(variant, &[]).map_err(|e| e.to_string())?;
    let mut rng = CheckRng::new(1);
    let mut actions = ActionList::new();
    let mut positions = Vec::new();
    for _ in 0..200 {
        let mut game = G::start(&rules);
        loop {
            positions.push(game.clone());
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            game.apply_action(actions[rng.below(actions.len())]);
        }
    }
    let mut planes = vec![0.0f32; input_len::<G>()];
    let rounds = (2_000_000 / positions.len()).max(1);
    let started = Instant::now();
    for _ in 0..rounds {
        for game in &positions {
            black_box(game).encode(&mut planes);
            black_box(&planes);
        }
    }
    let ns = started.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
    println!(
        "{} {}: {} floats, {} positions x {rounds} rounds: {ns:.1} ns per encode",
        G::NAME,
        variant.unwrap_or("default"),
        planes.len(),
        positions.len()
    );
    Ok(())
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = None;
    if let Some(i) = args.iter().position(|a| a == "--variant") {
        variant = args.get(i + 1).cloned();
        args.drain(i..(i + 2).min(args.len()));
    }
    let names: Vec<String> = if args.is_empty() {
        GameKind::names().into_iter().map(String::from).collect()
    } else {
        args
    };
    for name in names {
        let result = name
            .parse::<GameKind>()
            .map_err(|e| e.to_string())
            .and_then(|kind| with_game!(kind, G => speed::<G>(variant.as_deref())));
        if let Err(e) = result {
            eprintln!("{name}: {e}");
        }
    }
}
