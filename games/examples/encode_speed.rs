//! Nanoseconds per `Game::encode`, over positions of random playouts (no torch).
//!
//! `cargo run --release -p zero-games --example encode_speed -- [game ...] [--variant NAME]`; all games by
//! default. Positions come from 200 random games (seeded); each is encoded many times into one reused buffer.

use std::hint::black_box;
use std::time::Instant;
use zero_games::checks::CheckRng;
use zero_games::registry::{GAME_NAMES, GameVisitor, dispatch};
use zero_games::{ActionList, Game};

struct Speed {
    variant: Option<String>,
}

impl GameVisitor for Speed {
    type Output = Result<(), String>;

    fn visit<G: Game>(self) -> Self::Output {
        let rules = G::parse_rules(self.variant.as_deref(), &[]).map_err(|e| e.to_string())?;
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
        let mut planes = vec![0.0f32; G::INPUT_PLANES * G::BOARD_HEIGHT * G::BOARD_WIDTH];
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
            self.variant.as_deref().unwrap_or("default"),
            planes.len(),
            positions.len()
        );
        Ok(())
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = None;
    if let Some(i) = args.iter().position(|a| a == "--variant") {
        variant = args.get(i + 1).cloned();
        args.drain(i..(i + 2).min(args.len()));
    }
    let names: Vec<String> = if args.is_empty() {
        GAME_NAMES.iter().map(|s| s.to_string()).collect()
    } else {
        args
    };
    for name in names {
        let speed = Speed {
            variant: variant.clone(),
        };
        match dispatch(&name, speed) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => eprintln!("{name}: {e}"),
            Err(e) => eprintln!("{e}"),
        }
    }
}
