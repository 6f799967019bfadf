//! Scores every opening of a book with the books' balance judge (`zero_search::balance`) at several depths: the
//! judge's score less the start's, from the first player's view, each opening judged afresh. It shows how far from
//! even a deeper judge than the book's finds each opening (`docs/experiments/yardsticks.md`, "The goats' lost openings were
//! the ones a deeper judge rejects"). One line an opening: its index, its moves, then the difference at each depth.
//!
//! ```text
//! cargo run --release -p zero-arena --example judge_book -- baghchal RUN/openings.json 4,6,8,10
//! ```

use std::error::Error;
use std::io::Write;
use std::path::Path;
use zero_arena::openings::OpeningBook;
use zero_arena::player::player_rng;
use zero_games::{Registered, with_game};
use zero_search::balance::BalanceJudge;

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
    let reference: Vec<f32> = depths
        .iter()
        .map(|&depth| BalanceJudge::<G>::new(&rules, depth, player_rng(1, 7)).reference())
        .collect();
    let mut out = std::io::stdout().lock();
    writeln!(out, "start {reference:?}")?;
    for (i, moves) in book.openings.iter().enumerate() {
        let game: G = book.position(&rules, i)?;
        let mut line = format!("{i:2} {:28}", moves.join(" "));
        for (&depth, &reference) in depths.iter().zip(&reference) {
            let offset = BalanceJudge::with_reference(reference, depth, player_rng(1, 7)).offset(&game);
            line += &format!(" d{depth} {offset:+.2}");
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
