//! Solves Bagh Chal's sliding phase in memory and prints, per captured-goat count and side to move, the symmetry
//! classes won, lost and drawn by the side to move, with the time and the peak memory (VmHWM).
//!
//! `cargo run --release -p zero-tablebase --example solve [--count-only] [--from-layer C]`: `--count-only` counts
//! the classes without solving (every value a draw); `--from-layer C` solves layers 4 down to C only.

use std::time::Instant;
use zero_tablebase::classes::count_classes;
use zero_tablebase::index::{LAYERS, LayerIndex};
use zero_tablebase::retro::Value;
use zero_tablebase::slide::solve_all;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count_only = args.iter().any(|a| a == "--count-only");
    let from = match args.iter().position(|a| a == "--from-layer") {
        Some(k) => args.get(k + 1).ok_or("--from-layer needs a number")?.parse::<u32>()?,
        None => 0,
    };
    if from >= LAYERS {
        return Err(format!("--from-layer {from}: layers are 0 to {}", LAYERS - 1).into());
    }
    let started = Instant::now();
    let solved = if count_only {
        (0..LAYERS)
            .map(|c| vec![Value::Draw.encode(); LayerIndex::new(c).positions()])
            .collect()
    } else {
        solve_all(from..=LAYERS - 1, &mut |c, depth, decided| {
            if depth % 10 == 0 {
                eprintln!(
                    "[{:7.1} s] layer {c}: depth {depth}, {decided} decided",
                    started.elapsed().as_secs_f64()
                );
            }
        })?
    };
    let solve_seconds = started.elapsed().as_secs_f64();
    let mut total = 0;
    println!("captured side    classes       wins     losses      draws");
    for c in (from..LAYERS).rev() {
        let index = LayerIndex::new(c);
        for (side, counts) in ["goats", "tigers"]
            .iter()
            .zip(count_classes(&index, &solved[c as usize]))
        {
            println!(
                "{c:>8} {side:<6} {:>10} {:>10} {:>10} {:>10}",
                counts.positions, counts.wins, counts.losses, counts.draws
            );
            total += counts.positions;
        }
    }
    println!("total classes: {total}");
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM")).map(str::to_string))
        .unwrap_or_default();
    println!(
        "solved in {solve_seconds:.1} s, all in {:.1} s; peak memory {peak}",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
