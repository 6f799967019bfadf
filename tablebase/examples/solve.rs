//! Solves Bagh Chal's sliding phase in memory and prints, per captured-goat count and side to move, the symmetry
//! classes won, lost and drawn by the side to move, with the time and the peak memory (VmHWM).
//!
//! `cargo run --release -p zero-tablebase --example solve [--count-only] [--from-layer C] [--check N]`:
//! `--count-only` counts the classes without solving (every value a draw); `--from-layer C` solves layers 4 down
//! to C only; `--check N` then checks N random positions of every solved layer: each of its eight images has its
//! value, and a plain exhaustive search of the rules core (`zero-games`, four plies) finds exactly the wins and
//! losses of at most four plies that the table holds.

use rand::{RngExt, SeedableRng};
use std::time::Instant;
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_games::baghchal::board::{SYMMETRIES, map_points};
use zero_tablebase::classes::count_classes;
use zero_tablebase::index::Slide;
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
    let checks = match args.iter().position(|a| a == "--check") {
        Some(k) => args.get(k + 1).ok_or("--check needs a number")?.parse::<usize>()?,
        None => 0,
    };
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
    if checks > 0 && !count_only {
        for c in (from..LAYERS).rev() {
            let (checked, decided) = check_layer(c, &solved[c as usize], checks)?;
            println!(
                "layer {c}: {checked} positions checked, {decided} of them decided within {HORIZON} plies: all agree"
            );
        }
    }
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

/// The plies the exhaustive check looks ahead.
const HORIZON: u16 = 4;

/// Checks `count` random positions of layer `c`: symmetric images share a value, and the exhaustive search agrees
/// with the table on every win and loss within [`HORIZON`] plies (and finds none where the table has none).
fn check_layer(c: u32, values: &[u16], count: usize) -> Result<(usize, usize), String> {
    let index = LayerIndex::new(c);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(c));
    let rules = BaghChal::parse_rules(None, &["repetition=threefold-draw".into(), "max_plies=0".into()])
        .map_err(|e| e.to_string())?;
    let mut decided = 0;
    for _ in 0..count {
        let i = rng.random_range(0..index.positions());
        let slide = index.slide(i);
        let value = Value::decode(values[i]).ok_or("an undecided entry")?;
        for sym in 0..SYMMETRIES {
            let image = Slide {
                tigers: map_points(sym, slide.tigers),
                empty: map_points(sym, slide.empty),
                ..slide
            };
            if values[index.index(&image)] != values[i] {
                return Err(format!("{slide:?} and its image under symmetry {sym} differ"));
            }
        }
        let searched = within(
            &BaghChal::from_position(&rules, &slide.notation()).map_err(|e| e.to_string())?,
            HORIZON,
        );
        let table = match value {
            Value::Win(d) | Value::Loss(d) if d <= HORIZON => Some(value),
            _ => None,
        };
        if searched != table {
            return Err(format!("{}: table {value:?}, search {searched:?}", slide.notation()));
        }
        decided += table.is_some() as usize;
    }
    Ok((count, decided))
}

/// The exact value of `game` if it is decided within `plies` plies under best play, else none.
fn within(game: &BaghChal, plies: u16) -> Option<Value> {
    if let Some(outcome) = game.outcome() {
        // Every end in the sliding phase under these rules within the horizon is the side to move's loss (a
        // third occurrence needs eight plies).
        assert_eq!(outcome.winner, Some(game.to_move().other()), "{outcome:?}");
        return Some(Value::Loss(0));
    }
    if plies == 0 {
        return None;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let (mut fastest_win, mut longest_loss, mut all_lost) = (None::<u16>, 0, true);
    for mv in &moves {
        let mut child = game.clone();
        child.play(mv);
        match within(&child, plies - 1) {
            Some(Value::Loss(k)) => fastest_win = Some(fastest_win.map_or(k + 1, |w| w.min(k + 1))),
            Some(Value::Win(k)) => longest_loss = longest_loss.max(k + 1),
            _ => all_lost = false,
        }
    }
    match fastest_win {
        Some(w) => Some(Value::Win(w)),
        None if all_lost => Some(Value::Loss(longest_loss)),
        None => None,
    }
}
