//! `zero-perft GAME POSITION DEPTH [KEY=VALUE...]`: perft with draw rules off, in a binary without libtorch, so
//! that `valgrind --tool=callgrind` can count its instructions per leaf quickly (`zero bench perft
//! --instructions` runs it). The main interface is `zero perft`.

use zero_games::registry::{GameVisitor, dispatch};
use zero_games::{Game, perft};

struct Count {
    position: String,
    depth: u32,
    options: Vec<String>,
}

impl GameVisitor for Count {
    type Output = Result<u64, String>;
    fn visit<G: Game>(self) -> Result<u64, String> {
        let rules = G::parse_rules(None, &self.options).map_err(|e| e.to_string())?;
        let game = G::from_position(&G::without_draw_rules(&rules), &self.position).map_err(|e| e.to_string())?;
        Ok(perft(&game, self.depth))
    }
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
    let count = Count {
        position: args[1].clone(),
        depth,
        options: args[3..].to_vec(),
    };
    match dispatch(&args[0], count) {
        Ok(Ok(n)) => println!("{n}"),
        Ok(Err(e)) | Err(zero_games::registry::UnknownGame { name: e }) => {
            eprintln!("zero-perft: {e}");
            std::process::exit(1);
        }
    }
}
