//! `zero bench oracle`: players scored against perfect play, Bagh Chal's by its tablebase
//! (`zero_arena::oracle`) and Connect Four's by its solver (`zero_arena::connect4_oracle`, with `--game
//! connect4`): for each player, the share of its moves that keep the position's result on the standard set (or
//! one given), by class, with its result-losing moves listed. `--make-set` writes a new set instead.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use zero_arena::Entrant;
use zero_arena::oracle::{OracleScore, OracleSet, score};
use zero_games::GameKind;
use zero_games::baghchal::BaghChal;

#[derive(Args, Debug)]
pub struct OracleBenchArgs {
    /// The game whose perfect play is known: baghchal (its tablebase) or connect4 (its solver).
    #[arg(long, default_value = "baghchal", value_parser = crate::game_arg::parser())]
    pub game: GameKind,
    /// A player spec to score (repeat for several): random, greedy, alphabeta:ms=100, ckpt:PATH,ms=100, ...
    #[arg(long = "player", value_name = "SPEC")]
    pub players: Vec<String>,
    /// The position set (default: the standard one, arena/oracle/baghchal.txt).
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
    /// The tablebase file (default $ZERO_CACHE/tablebases/baghchal.tb).
    #[arg(long, value_name = "FILE")]
    pub tablebase: Option<PathBuf>,
    /// Seed of the players' random choices (and of a new set's games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Result-losing moves listed per player.
    #[arg(long, default_value_t = 10)]
    pub mistakes: usize,
    /// Match records (`zero eval --games-out FILE`) to read instead: for each player of the goats, the exact
    /// value of the position its games reached at the end of the placement.
    #[arg(long = "games", value_name = "FILE")]
    pub games: Vec<PathBuf>,
    /// Instead of scoring players: play the set's sliding-phase positions out by the tablebase under the
    /// default rules (repetition banned, 250 plies) and count where the result differs from the table's.
    #[arg(long)]
    pub under_ban: bool,
    /// Instead of scoring, write a new set to this file from seeded games of the arena's engines.
    #[arg(long, value_name = "FILE")]
    pub make_set: Option<PathBuf>,
    /// A new set's sliding-phase positions with each side to move.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub per_side: u64,
    /// A new set's end-of-placement positions.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub placement: u64,
    /// Connect Four: a new set's positions of each stage (begin, middle, end).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub per_stage: u64,
    /// Connect Four: a new set's fewest discs on the board (its earliest positions take the solver longest).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=41))]
    pub min_discs: u32,
}

/// Bagh Chal's players scored by its tablebase.
pub fn run(args: OracleBenchArgs) -> Result<()> {
    let table = zero_tablebase::open(args.tablebase.as_deref())?;
    if let Some(out) = &args.make_set {
        return make_set(&table, &args, out);
    }
    if !args.games.is_empty() {
        return placement_ends(&table, &args.games);
    }
    let set = match &args.set {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            OracleSet::parse(&text).with_context(|| path.display().to_string())?
        }
        None => OracleSet::standard(),
    };
    if args.under_ban {
        return under_ban(table, &set, args.seed);
    }
    if args.players.is_empty() {
        bail!("name at least one --player to score (or --games FILE, or --make-set FILE)");
    }
    println!(
        "{} positions; a move is right when it keeps the position's result under perfect play",
        set.positions.len()
    );
    for spec in &args.players {
        let entrant = Entrant::<BaghChal>::parse(spec).with_context(|| format!("player {spec:?}"))?;
        let started = Instant::now();
        let scored = score(&entrant, &set, &table, args.seed)?;
        print_score(entrant.name(), &scored, started.elapsed().as_secs_f64(), args.mistakes);
    }
    Ok(())
}

fn under_ban(table: zero_tablebase::Table, set: &OracleSet, seed: u64) -> Result<()> {
    let started = Instant::now();
    let rules = zero_games::baghchal::BaghChalRules::default();
    let counts = zero_arena::oracle::results_under(&rules, set, &std::sync::Arc::new(table), seed)?;
    let total: usize = counts.values().sum();
    let differ: usize = counts.iter().filter(|((a, b), _)| a != b).map(|(_, n)| n).sum();
    println!(
        "{total} sliding-phase positions played out by the tablebase under the default rules (repetition banned, \
         250 plies): {differ} end otherwise than the table says ({:.1}%; {:.1} s)",
        100.0 * differ as f64 / total.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    for ((table_result, game_result), n) in &counts {
        println!("  table {table_result:<4} -> game {game_result:<4} {n:>6}");
    }
    Ok(())
}

fn placement_ends(table: &zero_tablebase::Table, files: &[PathBuf]) -> Result<()> {
    let mut records = Vec::new();
    for file in files {
        records.extend(zero_arena::records::read_jsonl(file)?);
    }
    let ends = zero_arena::oracle::placement_ends(&records, table)?;
    println!("the goats' result under perfect play once every goat is placed (or the game's, if it ended before)");
    for (player, e) in &ends {
        println!(
            "  {player} as goats: {} games, won {}, drawn {}, lost {}: {:.1}% reach the sliding phase not lost",
            e.games,
            e.won,
            e.drawn,
            e.lost,
            100.0 * e.not_lost()
        );
    }
    Ok(())
}

fn make_set(table: &zero_tablebase::Table, args: &OracleBenchArgs, out: &std::path::Path) -> Result<()> {
    let started = Instant::now();
    let set = OracleSet::generate(table, args.seed, args.per_side as usize, args.placement as usize)?;
    let comment = format!(
        "Bagh Chal positions scored against perfect play (zero bench oracle); made by\n\
         zero bench oracle --make-set FILE --seed {} --per-side {} --placement {}\n\
         POSITION<TAB>SOURCE: the game's players (goats v tigers) and its number",
        args.seed, args.per_side, args.placement
    );
    write_set(out, &set.to_text(&comment), set.positions.len(), started)
}

/// Writes a new set's `text` to `out` atomically and says so.
pub(crate) fn write_set(out: &std::path::Path, text: &str, positions: usize, started: Instant) -> Result<()> {
    zero_io::write_atomically(out, text.as_bytes()).with_context(|| format!("writing {}", out.display()))?;
    println!(
        "wrote {positions} positions to {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub(crate) fn percent(score: &OracleScore, prefix: &str) -> String {
    let (n, kept) = score.total(prefix);
    match score.accuracy(prefix) {
        Some(a) => format!("{:.1}% ({kept}/{n})", 100.0 * a),
        None => "-".into(),
    }
}

fn print_score(name: &str, scored: &OracleScore, seconds: f64, mistakes: usize) {
    println!(
        "\n{name}: {} right overall; sliding phase: goats {}, tigers {}; placement {}  ({seconds:.1} s)",
        percent(scored, ""),
        percent(scored, "goats"),
        percent(scored, "tigers"),
        percent(scored, "placement"),
    );
    print_details(scored, mistakes);
}

/// Each class's share, then the first `mistakes` mistakes.
pub(crate) fn print_details(scored: &OracleScore, mistakes: usize) {
    for (class, (n, kept)) in &scored.classes {
        println!(
            "  {class:<24} {kept:>5}/{n:<5} {:.1}%",
            100.0 * *kept as f64 / *n as f64
        );
    }
    for m in scored.mistakes.iter().take(mistakes) {
        println!(
            "  mistake: {}  played {}: {} became {}; {} keeps it",
            m.position, m.played, m.value, m.after, m.better
        );
    }
    if scored.mistakes.len() > mistakes {
        println!("  ... and {} more mistakes", scored.mistakes.len() - mistakes);
    }
}
