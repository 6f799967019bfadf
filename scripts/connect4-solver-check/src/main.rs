//! Cross-checks zero-solver against the independent `connect-four-solver` crate (see README.md): on seeded
//! random positions, the score of each position and of each of its moves; on that crate's bundled test files,
//! each line's score. Exits nonzero on any disagreement.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use connect_four_solver::{Column, ConnectFour};
use zero_solver::{Position, Solver, Value, WIDTH};

struct Options {
    positions: usize,
    seed: u64,
    min_stones: usize,
    max_stones: usize,
    test_files: bool,
    /// Positions to compare instead of random ones.
    sequences: Vec<String>,
}

/// Agreements, disagreements and time spent, per solver.
#[derive(Default)]
struct Tally {
    positions: usize,
    moves: usize,
    disagreements: Vec<String>,
    /// Positions whose score by the crate differs from the best of its own move scores, which zero-solver's
    /// score equals: a fault of the crate (its bundled table of positions under 7 stones has such entries),
    /// not a disagreement.
    crate_contradictions: Vec<String>,
    ours: Duration,
    theirs: Duration,
}

fn main() -> ExitCode {
    let options = match parse_options(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("connect4-solver-check: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut ours = Solver::new();
    let mut theirs = connect_four_solver::Solver::new();
    // The test files first: they take minutes, the random positions may take an hour.
    let mut failed = options.test_files && options.sequences.is_empty() && check_test_files(&mut ours);
    let mut tally = Tally::default();
    compare_random_positions(&options, &mut ours, &mut theirs, &mut tally);
    let what = if options.sequences.is_empty() {
        "random positions"
    } else {
        "given positions"
    };
    report(what, &tally);
    failed |= !tally.disagreements.is_empty();
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn parse_options(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        positions: 5000,
        seed: 1,
        min_stones: 6,
        max_stones: 40,
        test_files: true,
        sequences: Vec::new(),
    };
    while let Some(flag) = args.next() {
        if flag == "--no-test-files" {
            options.test_files = false;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |value: &str| value.parse::<u64>().map_err(|e| format!("{flag} {value}: {e}"));
        match flag.as_str() {
            "--positions" => options.positions = number(&value)? as usize,
            "--seed" => options.seed = number(&value)?,
            "--min-stones" => options.min_stones = number(&value)? as usize,
            "--max-stones" => options.max_stones = number(&value)? as usize,
            "--sequence" => options.sequences.push(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if options.min_stones > options.max_stones || options.max_stones > 41 {
        return Err("stones must satisfy min <= max <= 41".into());
    }
    Ok(options)
}

/// SplitMix64: a seeded stream of random numbers that any seed, 0 included, starts well.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % bound as u64) as usize
    }
}

/// A random game of `stones` moves, as a sequence of columns 1-7, in which nobody has won: each move is
/// drawn among those that neither win nor let the opponent win at once, or failing those among those that do
/// not win. None when a game runs into a position where every move wins.
fn random_game(random: &mut Random, stones: usize) -> Option<String> {
    let mut position = Position::new();
    let mut sequence = String::new();
    while position.moves_played() < stones {
        let open: Vec<usize> = position
            .legal_columns()
            .filter(|&c| !position.is_winning_move(c))
            .collect();
        let safe: Vec<usize> = open.iter().copied().filter(|&c| !gives_win(&position, c)).collect();
        let choices = if safe.is_empty() { open } else { safe };
        if choices.is_empty() {
            return None;
        }
        let column = choices[random.below(choices.len())];
        position.play(column).ok()?;
        sequence.push(char::from(b'1' + column as u8));
    }
    Some(sequence)
}

/// Whether playing `column` (not a winning move) lets the opponent win at once.
fn gives_win(position: &Position, column: usize) -> bool {
    let mut child = *position;
    child.play(column).is_ok() && child.legal_columns().any(|reply| child.is_winning_move(reply))
}

fn compare_random_positions(
    options: &Options,
    ours: &mut Solver,
    theirs: &mut connect_four_solver::Solver,
    tally: &mut Tally,
) {
    for sequence in &options.sequences {
        compare_position(sequence, ours, theirs, tally);
        tally.positions += 1;
    }
    if !options.sequences.is_empty() {
        return;
    }
    let mut random = Random(options.seed);
    let span = options.max_stones - options.min_stones + 1;
    while tally.positions < options.positions {
        let stones = options.min_stones + random.below(span);
        let Some(sequence) = random_game(&mut random, stones) else {
            continue;
        };
        compare_position(&sequence, ours, theirs, tally);
        tally.positions += 1;
        // A running tally, so that an interrupted run still tells what it compared.
        if tally.positions.is_multiple_of(250) {
            report("  so far", tally);
        }
    }
}

/// Compares the scores of the position of `sequence` and of each of its moves.
fn compare_position(sequence: &str, ours: &mut Solver, theirs: &mut connect_four_solver::Solver, tally: &mut Tally) {
    let Ok(position) = Position::from_moves(sequence) else {
        tally
            .disagreements
            .push(format!("{sequence}: zero-solver refuses the position"));
        return;
    };
    let stones = position.moves_played();
    let game = ConnectFour::from_move_list(sequence);
    let start = Instant::now();
    let our_score = ours.score(&position);
    let our_moves = ours.move_values(&position);
    let our_value = ours.solve(&position);
    tally.ours += start.elapsed();
    let start = Instant::now();
    let their_score = i32::from(theirs.score(&game));
    let their_moves: Vec<Option<i32>> = (0..WIDTH as u8).map(|c| child_score(theirs, &game, c)).collect();
    tally.theirs += start.elapsed();
    let their_best = their_moves.iter().flatten().max().copied();
    let consistent = Value::from_score(our_score, stones) == Ok(our_value);
    if our_score != their_score && consistent && their_best == Some(our_score) {
        let message = format!("{sequence}: score {their_score}, but {our_score} by its best move, as zero-solver");
        tally.crate_contradictions.push(message);
    } else if our_score != their_score || !consistent {
        let message = format!("{sequence}: score {our_score} ({our_value}), theirs {their_score}");
        tally.disagreements.push(message);
    }
    for (column, (ours, theirs)) in our_moves.iter().zip(&their_moves).enumerate() {
        let ours = ours.map(|value| value.score(stones));
        if ours != *theirs {
            let column = column + 1;
            tally
                .disagreements
                .push(format!("{sequence} column {column}: score {ours:?}, theirs {theirs:?}"));
        }
        tally.moves += usize::from(ours.is_some());
    }
}

/// The crate's score of playing `column` in `game`, for the side that plays it (its score of the position
/// after it, negated); None for a full column.
fn child_score(solver: &mut connect_four_solver::Solver, game: &ConnectFour, column: u8) -> Option<i32> {
    let column = Column::from_index(column);
    if !game.is_legal_move(column) {
        return None;
    }
    let mut child = *game;
    child.play(column);
    Some(-i32::from(solver.score(&child)))
}

fn report(what: &str, tally: &Tally) {
    let agreed = tally.positions + tally.moves - tally.disagreements.len().min(tally.positions + tally.moves);
    println!(
        "{what}: {} positions and {} moves compared, {agreed} agree, {} disagree; zero-solver {:.1} s, \
         connect-four-solver {:.1} s",
        tally.positions,
        tally.moves,
        tally.disagreements.len(),
        tally.ours.as_secs_f64(),
        tally.theirs.as_secs_f64()
    );
    for line in tally.disagreements.iter().take(20) {
        println!("  disagreement: {line}");
    }
    if tally.disagreements.len() > 20 {
        println!("  and {} more disagreements", tally.disagreements.len() - 20);
    }
    if !tally.crate_contradictions.is_empty() {
        println!(
            "  {} positions the crate scores against its own moves:",
            tally.crate_contradictions.len()
        );
        for line in &tally.crate_contradictions {
            println!("    {line}");
        }
    }
}

/// The crate's bundled test files (`tests/Test_L*_R*`, lines "sequence score"), where cargo unpacked it.
fn test_files() -> Vec<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let Some(sources) = cargo_home.map(|home| home.join("registry").join("src")) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for registry in std::fs::read_dir(sources).into_iter().flatten().flatten() {
        let tests = registry.path().join("connect-four-solver-0.2.4").join("tests");
        for entry in std::fs::read_dir(tests).into_iter().flatten().flatten() {
            if entry.file_name().to_string_lossy().starts_with("Test_L") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    files
}

/// Checks zero-solver's score of every line of the bundled test files; true when one disagrees.
fn check_test_files(ours: &mut Solver) -> bool {
    let files = test_files();
    if files.is_empty() {
        println!("test files: connect-four-solver-0.2.4/tests not found in the cargo registry; skipped");
        return false;
    }
    let mut failed = false;
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            println!("{}: unreadable", file.display());
            failed = true;
            continue;
        };
        let mut tally = Tally::default();
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            check_test_line(line, ours, &mut tally);
        }
        let name = file
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        report(&format!("test file {name}"), &tally);
        failed |= !tally.disagreements.is_empty();
    }
    failed
}

fn check_test_line(line: &str, ours: &mut Solver, tally: &mut Tally) {
    tally.positions += 1;
    let mut fields = line.split_whitespace();
    let (Some(sequence), Some(Ok(expected))) = (fields.next(), fields.next().map(str::parse::<i32>)) else {
        tally.disagreements.push(format!("{line:?}: not \"sequence score\""));
        return;
    };
    let Ok(position) = Position::from_moves(sequence) else {
        tally
            .disagreements
            .push(format!("{sequence}: zero-solver refuses the position"));
        return;
    };
    let start = Instant::now();
    let score = ours.score(&position);
    tally.ours += start.elapsed();
    if score != expected {
        tally
            .disagreements
            .push(format!("{sequence}: score {score}, file says {expected}"));
    }
}
