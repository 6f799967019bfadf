//! Scores every opening of a book with the arena's alpha-beta at several depths, from the first player's view, less
//! the start's score at the same depth: how far from even a deeper judge than the book's finds each opening
//! (`docs/experiments.md`, "The goats' lost openings were the ones a deeper judge rejects"). One line an opening:
//! its index, its moves, then for each depth the difference and the move the search chose.
//!
//! ```text
//! cargo run --release -p zero-arena --example judge_book -- baghchal RUN/openings.json 4,6,8,10
//! ```

use std::error::Error;
use std::io::Write;
use std::path::Path;
use zero_arena::openings::OpeningBook;
use zero_arena::player::player_rng;
use zero_games::{Heuristic, Registered, Side, with_game};
use zero_search::alphabeta::{AlphaBeta, SearchLimit};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("judge_book: {e}\nusage: judge_book GAME BOOK.json DEPTH[,DEPTH...]");
        std::process::exit(2);
    }
}

fn run(args: &[String]) -> Result<(), Box<dyn Error>> {
    let [game, book, depths] = args else {
        return Err("three arguments wanted".into());
    };
    let kind: zero_games::GameKind = game.parse()?;
    let depths = depths
        .split(',')
        .map(|d| d.parse::<u32>().map_err(|e| format!("depth {d:?}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let book = OpeningBook::load(Path::new(book))?;
    with_game!(kind, G => judge::<G>(&book, &depths))
}

fn judge<G: Registered>(book: &OpeningBook, depths: &[u32]) -> Result<(), Box<dyn Error>> {
    let rules = G::parse_rules(None, &[])?;
    book.validate::<G>(&rules)?;
    let start = G::start(&rules);
    let reference: Vec<f32> = depths.iter().map(|&d| first_view(&start, d).0).collect();
    let mut out = std::io::stdout().lock();
    writeln!(out, "start {reference:?}")?;
    for (i, moves) in book.openings.iter().enumerate() {
        let game: G = book.position(&rules, i)?;
        let mut line = format!("{i:2} {:28}", moves.join(" "));
        for (&depth, start_score) in depths.iter().zip(&reference) {
            let (score, best) = first_view(&game, depth);
            line += &format!(" d{depth} {:+.2} {best:8}", score - start_score);
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A fresh depth-`depth` alpha-beta's score of `game` from the first player's view, and the move it chose.
fn first_view<G: Heuristic>(game: &G, depth: u32) -> (f32, String) {
    let mut search = AlphaBeta::<G>::new(SearchLimit::depth(depth), player_rng(1, 7));
    let (best, info) = search.search(game);
    let score = match game.to_move() {
        Side::First => info.value(),
        Side::Second => -info.value(),
    };
    (score, game.format_move(&best))
}
