//! Solves Connect Four positions and says how long each took:
//!
//! ```text
//! cargo run -p zero-solver --release --example solve -- 4453 . 2233
//! printf '4453\n2233 5\n' | cargo run -p zero-solver --release --example solve -- --columns
//! ```
//!
//! Each position is a move sequence (columns 1-7, `.` for the empty board), from the arguments or else one
//! per line of standard input; a line may carry a second field, the expected Pons score, which is then
//! checked. `--columns` also prints the value of each move. One solver serves all positions, so later ones
//! may profit from the table; `--fresh` resets it before each position (and the node count with it).
//!
//! Measured (release build, default 128 MiB table, `--fresh`, `nice -n 10`, on a 2-core machine shared with other
//! builds, so wall times may run long; the node counts do not depend on the machine: about 6.8 million nodes a
//! second). The positions are seeded random games whose moves avoid letting the opponent win at once:
//!
//! | position | stones | value | score | time | nodes |
//! |---|---:|---|---:|---:|---:|
//! | 7445 | 4 | win in 37 plies | 1 | 9.19 s | 62,413,973 |
//! | 752275 | 6 | loss in 34 plies | -2 | 2.64 s | 18,950,959 |
//! | 465723 | 6 | win in 33 plies | 2 | 3.27 s | 23,057,878 |
//! | 43215766 | 8 | draw | 0 | 1.71 s | 12,148,458 |
//! | 15446656 | 8 | win in 29 plies | 3 | 99.7 ms | 790,608 |
//! | 2517511122 | 10 | win in 23 plies | 5 | 35.5 ms | 343,795 |
//! | 5174345725 | 10 | loss in 28 plies | -3 | 137 ms | 1,123,100 |
//! | 716337253115 | 12 | win in 25 plies | 3 | 152 ms | 1,155,165 |
//! | 14464415627733 | 14 | win in 25 plies | 2 | 44.2 ms | 345,980 |
//! | 1331471226121153 | 16 | win in 21 plies | 3 | 6.8 ms | 53,938 |
//! | 6524526724661442 | 16 | loss in 18 plies | -5 | 5.1 ms | 48,210 |
//! | 17537341112562453455 | 20 | draw | 0 | 2.1 ms | 22,625 |
//!
//! EMPTY_BOARD_LINE

use std::io::BufRead;
use std::process::ExitCode;
use std::time::Instant;

use zero_solver::{Position, Solver, Value, WIDTH};

struct Options {
    columns: bool,
    fresh: bool,
    sequences: Vec<String>,
}

fn main() -> ExitCode {
    let options = match parse_options(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("solve: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new();
    let mut failures = 0;
    let lines: Box<dyn Iterator<Item = String>> = if options.sequences.is_empty() {
        Box::new(std::io::stdin().lock().lines().map_while(Result::ok))
    } else {
        Box::new(options.sequences.clone().into_iter())
    };
    for line in lines {
        if line.trim().is_empty() {
            continue;
        }
        if !solve_line(&mut solver, &line, &options) {
            failures += 1;
        }
    }
    if failures > 0 {
        eprintln!("solve: {failures} positions refused or not as expected");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn parse_options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        columns: false,
        fresh: false,
        sequences: Vec::new(),
    };
    for arg in args {
        match arg.as_str() {
            "--columns" => options.columns = true,
            "--fresh" => options.fresh = true,
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ => options.sequences.push(arg),
        }
    }
    Ok(options)
}

/// Solves the position of `line` and prints it; false when the line is refused or its expected score differs.
fn solve_line(solver: &mut Solver, line: &str, options: &Options) -> bool {
    let mut fields = line.split_whitespace();
    let sequence = fields.next().unwrap_or(".");
    let expected = fields.next().map(str::parse::<i32>);
    let position = match Position::from_moves(sequence.trim_start_matches('.')) {
        Ok(position) => position,
        Err(error) => {
            println!("{sequence}: refused: {error}");
            return false;
        }
    };
    if options.fresh {
        solver.reset();
    }
    let nodes_before = solver.nodes();
    let start = Instant::now();
    let score = solver.score(&position);
    let elapsed = start.elapsed();
    let value = Value::from_score(score, position.moves_played()).map_or_else(|e| e.to_string(), |v| v.to_string());
    println!(
        "{sequence}: stones {} value {value} score {score} time {:.3} ms nodes {}",
        position.moves_played(),
        elapsed.as_secs_f64() * 1e3,
        solver.nodes() - nodes_before
    );
    if options.columns {
        print_move_values(solver, &position);
    }
    match expected {
        None => true,
        Some(Ok(expected)) if expected == score => true,
        Some(other) => {
            println!("{sequence}: expected score {other:?}, found {score}");
            false
        }
    }
}

fn print_move_values(solver: &mut Solver, position: &Position) {
    let values = solver.move_values(position);
    for (column, value) in values.iter().enumerate().take(WIDTH) {
        match value {
            Some(value) => println!(
                "  column {}: {value} (score {})",
                column + 1,
                value.score(position.moves_played())
            ),
            None => println!("  column {}: full", column + 1),
        }
    }
}
