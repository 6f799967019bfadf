//! `zero bench oracle --game connect4`: Connect Four players scored against perfect play on the solved set
//! (`zero_arena::connect4_oracle`), by stage and value, or (`--make-set FILE`) a new set solved by the project's
//! solver.

use super::oracle::{OracleBenchArgs, percent, print_details, write_set};
use anyhow::{Context, Result, bail};
use std::time::Instant;
use zero_arena::Entrant;
use zero_arena::connect4_oracle::{SolvedSet, score};
use zero_games::connect4::Connect4;

pub fn run(args: OracleBenchArgs) -> Result<()> {
    if let Some(out) = &args.make_set {
        return make_set(&args, out);
    }
    if args.under_ban || !args.games.is_empty() || args.tablebase.is_some() {
        bail!("--under-ban, --games and --tablebase are Bagh Chal's; Connect Four is scored by its solved set");
    }
    let set = match &args.set {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            SolvedSet::parse(&text).with_context(|| path.display().to_string())?
        }
        None => SolvedSet::standard(),
    };
    if args.players.is_empty() {
        bail!("name at least one --player to score (or --make-set FILE)");
    }
    println!(
        "{} positions; a move is right when it keeps the position's value under perfect play",
        set.positions.len()
    );
    for spec in &args.players {
        let entrant = Entrant::<Connect4>::parse(spec).with_context(|| format!("player {spec:?}"))?;
        let started = Instant::now();
        let scored = score(&entrant, &set, args.seed)?;
        let (n, kept) = scored.total("");
        println!(
            "\n{}: {} right overall, error rate {:.1}%; begin {}, middle {}, end {}  ({:.1} s)",
            entrant.name(),
            percent(&scored, ""),
            100.0 * (n - kept) as f64 / n.max(1) as f64,
            percent(&scored, "begin"),
            percent(&scored, "middle"),
            percent(&scored, "end"),
            started.elapsed().as_secs_f64()
        );
        print_details(&scored, args.mistakes);
    }
    Ok(())
}

fn make_set(args: &OracleBenchArgs, out: &std::path::Path) -> Result<()> {
    let started = Instant::now();
    let per_stage = args.per_stage as usize;
    let bar = zero_run::progress::bar(3 * per_stage as u64, "solving positions {bar:30} {pos}/{len} {elapsed}");
    let set = SolvedSet::generate(args.seed, per_stage, args.min_discs, |_, _| bar.inc(1))?;
    bar.finish_and_clear();
    let comment = format!(
        "Connect Four positions scored against perfect play (zero bench oracle --game connect4); made by\n\
         zero bench oracle --game connect4 --make-set FILE --seed {} --per-stage {} --min-discs {}\n\
         POSITION<TAB>KEEPING<TAB>STAGE<TAB>VALUE<TAB>COLUMNS<TAB>SOURCE: the columns played (1-7), the columns that\n\
         keep the value, begin (up to 14 discs) / middle (15-28) / end (29+), the value for the side to move, each\n\
         column's result for the mover (W, D, L, - full), the game's players (x v o) and its number",
        args.seed, args.per_stage, args.min_discs
    );
    write_set(out, &set.to_text(&comment), set.positions.len(), started)
}
