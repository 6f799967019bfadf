//! `zero bench arena`: games per second of baseline-against-baseline matches, and alpha-beta nodes per second,
//! for each game (one thread, so that the figures compare across machines and runs).

use anyhow::Result;
use clap::Args;
use std::time::Instant;
use zero_arena::player::player_rng;
use zero_arena::{Entrant, OpeningBook, play_game};
use zero_games::{GameKind, Registered, with_game};
use zero_search::alphabeta::{AlphaBeta, SearchLimit};

#[derive(Args, Debug)]
pub struct ArenaBenchArgs {
    /// One game only (default: every game).
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Seconds per measurement (at least one game is played).
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
}

pub fn run(args: ArenaBenchArgs) -> Result<()> {
    let games: Vec<GameKind> = match args.game {
        Some(g) => vec![g],
        None => GameKind::ALL.to_vec(),
    };
    println!(
        "{:<9} {:<32} {:>8} {:>10} {:>11}",
        "game", "match", "games", "games/s", "plies/game"
    );
    for kind in games {
        with_game!(kind, G => bench::<G>(args.seconds))?;
    }
    Ok(())
}

fn bench<G: Registered>(seconds: f64) -> Result<()> {
    let rules = G::parse_rules(None, &[])?;
    let book = OpeningBook::generate::<G>(&rules, 32, 1, 2, 6);
    for (a, b) in [
        ("random", "random"),
        ("greedy", "random"),
        ("alphabeta:depth=2", "random"),
    ] {
        let (first, second) = (Entrant::<G>::parse(a)?, Entrant::<G>::parse(b)?);
        let started = Instant::now();
        let (mut games, mut plies) = (0u64, 0usize);
        while games == 0 || started.elapsed().as_secs_f64() < seconds {
            let opening = games as usize % book.openings.len();
            let mut p = first.player(games, 0);
            let mut q = second.player(games, 1);
            let record = if games % 2 == 0 {
                play_game(&rules, &book, opening, p.as_mut(), q.as_mut(), 2000)?.0
            } else {
                play_game(&rules, &book, opening, q.as_mut(), p.as_mut(), 2000)?.0
            };
            plies += record.opening.len() + record.moves.len();
            games += 1;
        }
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "{:<9} {:<32} {:>8} {:>10.1} {:>11.0}",
            G::NAME,
            format!("{a} vs {b}"),
            games,
            games as f64 / elapsed,
            plies as f64 / games as f64
        );
    }
    // Alpha-beta nodes per second: depth-4 searches from each opening position, each with a fresh engine (a
    // kept transposition table would answer the repeated positions without searching).
    let started = Instant::now();
    let (mut nodes, mut searches) = (0u64, 0usize);
    while searches == 0 || started.elapsed().as_secs_f64() < seconds {
        let game: G = book.position(&rules, searches % book.openings.len())?;
        let mut engine = AlphaBeta::<G>::new(SearchLimit::depth(4), player_rng(0, searches as u64));
        nodes += engine.search(&game).1.nodes;
        searches += 1;
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{:<9} {:<32} {:>8} {:>10.0} nodes/s ({} searches)",
        G::NAME,
        "alphabeta depth 4 search",
        nodes,
        nodes as f64 / elapsed,
        searches
    );
    Ok(())
}
