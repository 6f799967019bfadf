//! `zero-perft GAME POSITION DEPTH [KEY=VALUE...]`: perft with draw rules off, in a binary without libtorch, so
//! that `valgrind --tool=callgrind` can count its instructions per leaf quickly (`zero bench perft
//! --instructions` runs it). The main interface is `zero perft`.

use zero_games::{Game, GameKind, perft, with_game};

/// Perft of `position` to `depth` under the rules `options` (draw rules off).
fn count<G: Game>(position: &str, depth: u32, options: &[String]) -> Result<u64, String> {
    let rules = G::parse_rules(None, options).map_err(|e| e.to_string())?;
    let game = G::from_position(&G::without_draw_rules(&rules), position).map_err(|e| e.to_string())?;
    Ok(perft(&game, depth))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: zero-perft GAME POSITION DEPTH [KEY=VALUE...]");
        std::process::exit(2);
    }
    let Ok(depth) = args[2].parse() else {
        eprintln!("zero-perft: depth {:?} is not a number", args[2]);
        std::process::exit(2);
    };
    let result = args[0]
        .parse::<GameKind>()
        .map_err(|e| e.to_string())
        .and_then(|kind| with_game!(kind, G => count::<G>(&args[1], depth, &args[3..])));
    match result {
        Ok(n) => println!("{n}"),
        Err(e) => {
            eprintln!("zero-perft: {e}");
            std::process::exit(1);
        }
    }
}
