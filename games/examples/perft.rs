//! Perft with timings, for the rules cores alone (no torch).
//!
//! `cargo run --release -p zero-games --example perft -- <game> [position|bench] [depth] [variant] [key=value ...]`
//!
//! With `bench` (the default) every `BENCH_POSITIONS` entry of the game is counted to its depth (or `depth`).
//! Draw rules are switched off, as perft counts.

use std::time::Instant;
use zero_games::registry::{GameVisitor, dispatch};
use zero_games::{Game, perft};

struct Perft {
    position: String,
    depth: Option<u32>,
    variant: Option<String>,
    options: Vec<String>,
}

impl GameVisitor for Perft {
    type Output = Result<(), String>;

    fn visit<G: Game>(self) -> Self::Output {
        let rules = G::parse_rules(self.variant.as_deref(), &self.options).map_err(|e| e.to_string())?;
        let rules = G::without_draw_rules(&rules);
        let targets: Vec<(String, u32)> = if self.position == "bench" {
            G::BENCH_POSITIONS
                .iter()
                .map(|&(p, d)| (p.to_string(), self.depth.unwrap_or(d)))
                .collect()
        } else {
            vec![(self.position.clone(), self.depth.unwrap_or(3))]
        };
        for (position, depth) in targets {
            let game = G::from_position(&rules, &position).map_err(|e| e.to_string())?;
            println!("{} {position}", G::NAME);
            for d in 1..=depth {
                let started = Instant::now();
                let nodes = perft(&game, d);
                let seconds = started.elapsed().as_secs_f64();
                println!(
                    "  depth {d}: {nodes} leaves in {seconds:.3} s, {:.1} M leaves/s",
                    nodes as f64 / seconds / 1e6
                );
            }
        }
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: perft <game> [position|bench] [depth] [variant|-] [key=value ...]");
        std::process::exit(2);
    };
    let visitor = Perft {
        position: args.get(1).cloned().unwrap_or_else(|| "bench".to_string()),
        depth: args.get(2).and_then(|d| d.parse().ok()),
        variant: args.get(3).filter(|v| v.as_str() != "-").cloned(),
        options: args.iter().skip(4).cloned().collect(),
    };
    match dispatch(name, visitor) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
