//! Perft of a Bashni position, for timing and profiling:
//! `cargo run --release -p zero-games --example bashni_perft -- [depth] [position]`.

use std::time::Instant;
use zero_games::bashni::{Bashni, Rules};
use zero_games::{Game, perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(9);
    let position = args.next().unwrap_or_else(|| "start".to_string());
    let rules = Rules::default().without_draw_rules();
    let game = match Bashni::from_position(&rules, &position) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = perft(&game, d);
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "perft {d}: {nodes} ({seconds:.3} s, {:.1} M leaves/s)",
            nodes as f64 / seconds / 1e6
        );
    }
}
