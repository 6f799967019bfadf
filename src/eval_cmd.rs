//! `zero eval`: a round robin between players of one game, rated by Bradley-Terry, as a table and as JSON.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use zero_arena::{
    BookRequest, Entrant, MatchOptions, MatchRecord, NetworkPlayer, OpeningBook, PlayerKind, PlayerSpec, RoundRobin,
    round_robin, round_robin_games,
};
use zero_games::{GameKind, Registered, with_game};
use zero_run::evaluate::side_scores;
use zero_rundir::summary::{MatchScore, SideScore};

#[derive(Args, Debug, Clone)]
pub struct EvalArgs {
    /// The game.
    #[arg(long, value_parser = crate::game_arg::parser())]
    pub game: GameKind,
    /// A player spec (repeat for each player): random, greedy, alphabeta:depth=4, alphabeta:nodes=100000,
    /// alphabeta:ms=200, mcts:sims=200, ckpt:PATH,sims=0, bundle:DIR, uniform:sims=64; any with ,name=LABEL.
    #[arg(long = "player", value_name = "SPEC", required = true)]
    pub players: Vec<String>,
    /// Games per pair of players (rounded up to even: each opening is played with both colours).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Games played at once when a player thinks on the clock (`ms=`), each on a thread of its own with its own
    /// network copies: at most the number of free cores, so that each player thinks on a whole core.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub timed_games_at_once: u64,
    /// An opening book (JSON, as written by --save-openings); default: generated from --seed.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Write the generated opening book here.
    #[arg(long)]
    pub save_openings: Option<PathBuf>,
    /// Openings to generate when no book is given.
    #[arg(long, default_value_t = 64)]
    pub opening_count: usize,
    /// The book's opening (counted from 0) the first pair of games begins from; each later pair takes the next,
    /// cycling. Separate matches on one book cover different openings this way: `--seed` does not change which.
    #[arg(long, default_value_t = 0)]
    pub first_opening: usize,
    /// Write the standings as JSON here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write every game as JSONL here.
    #[arg(long)]
    pub games_out: Option<PathBuf>,
    /// Seed of the generated openings (without --openings) and of every player's random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub rules: crate::rules_cmd::RulesArgs,
}

pub fn run(args: EvalArgs) -> Result<()> {
    with_game!(args.game, G => eval::<G>(args))
}

fn eval<G: Registered>(args: EvalArgs) -> Result<()> {
    let rules = args.rules.rules::<G>()?;
    let mut entrants = Vec::new();
    for text in &args.players {
        let spec = PlayerSpec::parse(text)?;
        entrants.push(Entrant::<G>::prepare(spec).with_context(|| format!("player {text:?}"))?);
    }
    if entrants.len() < 2 {
        bail!("a round robin needs at least two --player");
    }
    let book = match &args.openings {
        Some(path) => OpeningBook::load(path)?,
        None => {
            let request = BookRequest::new(args.opening_count, args.seed);
            zero_run::book::evaluation_book::<G>(&rules, request, &crate::runtime::build_identity(), &|line| {
                eprintln!("zero eval: {line}")
            })
        }
    };
    if let Some(path) = &args.save_openings {
        book.save(path)?;
    }
    if args.first_opening >= book.openings.len() {
        bail!(
            "--first-opening {}: the book has {} openings, numbered from 0",
            args.first_opening,
            book.openings.len()
        );
    }
    let options = MatchOptions {
        games_per_pair: args.games,
        seed: args.seed,
        first_opening: args.first_opening,
        timed_games_at_once: args.timed_games_at_once as usize,
        ..MatchOptions::default()
    };
    let started = std::time::Instant::now();
    let RoundRobin { standings, records } = play_with_progress(&rules, &entrants, &book, &options)?;
    print!("{}", standings.table());
    let by_side = pairs_by_side::<G>(&entrants, &records);
    for pair in &by_side {
        println!("{}", pair.describe());
    }
    println!(
        "{} games in {:.1} s, {}",
        records.len(),
        started.elapsed().as_secs_f64(),
        openings_played(&records, book.openings.len())
    );
    if let Some(path) = &args.out {
        let json = serde_json::json!({
            "game": G::NAME,
            "rules": G::describe_rules(&rules),
            "players": args.players,
            "network_players": network_players(&entrants),
            "games_per_pair": options.games_per_pair,
            "first_opening": options.first_opening,
            "seed": args.seed,
            "standings": standings,
            "by_side": by_side,
        });
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.games_out {
        zero_arena::records::write_jsonl(path, &records)?;
    }
    Ok(())
}

/// Each network player by its name, typed: its network, the search it played with (a bundle's from its manifest),
/// its level, device and precision.
fn network_players<G: Registered>(entrants: &[Entrant<G>]) -> BTreeMap<&str, &NetworkPlayer> {
    entrants
        .iter()
        .filter_map(|entrant| match &entrant.spec.kind {
            PlayerKind::Network(player) => Some((entrant.name(), player)),
            _ => None,
        })
        .collect()
}

/// Which of the book's openings the games began from: `from openings 10-59 of 64`, or a count where they do not
/// form one run (a round robin's pairs, or a match that cycled past the book's end).
fn openings_played(records: &[MatchRecord], book_len: usize) -> String {
    let indices: std::collections::BTreeSet<usize> = records.iter().map(|r| r.opening_index).collect();
    match (indices.first(), indices.last()) {
        (Some(&first), Some(&last)) if last - first + 1 == indices.len() => {
            format!("from openings {first}-{last} of {book_len}")
        }
        _ => format!("from {} of the book's {book_len} openings", indices.len()),
    }
}

/// The round robin, with a bar of games played (timed lines off a terminal) whose message is the first
/// player's W-D-L so far: a 100-game match at 100 ms a move runs for most of an hour.
fn play_with_progress<G: Registered>(
    rules: &G::Rules,
    entrants: &[Entrant<G>],
    book: &OpeningBook,
    options: &MatchOptions,
) -> Result<RoundRobin> {
    let total = round_robin_games(entrants.len(), options.games_per_pair);
    let bar = zero_run::progress::bar(total as u64, "games {bar:30} {msg}, ETA {eta}");
    let lead = entrants[0].name();
    let scores = Mutex::new(Vec::with_capacity(total));
    bar.set_message(format!("0/{total}, {lead} 0-0-0"));
    let on_game = |record: &MatchRecord| {
        let mut scores = scores.lock().unwrap_or_else(|e| e.into_inner());
        scores.extend(record.score_of(lead));
        let wdl = MatchScore::of("", scores.iter().copied()).wdl();
        // The count is in the message, so that a line drawn between the two calls is still consistent.
        bar.inc(1);
        bar.set_message(format!("{}/{total}, {lead} {wdl}", bar.position()));
    };
    let played = round_robin(rules, entrants, book, options, &on_game);
    bar.finish_and_clear();
    Ok(played?)
}

/// One pair of players' games split by the side the first-named one played (the other's are their mirror).
#[derive(serde::Serialize)]
struct PairBySide {
    player: String,
    opponent: String,
    sides: Vec<SideScore>,
}

impl PairBySide {
    /// `gen32 vs alphabeta:ms=100 as goats: 34-4-12, score 72% [58%, 83%]; as tigers: ...`.
    fn describe(&self) -> String {
        let sides: Vec<String> = self
            .sides
            .iter()
            .map(|s| format!("as {}: {}", s.side, s.result.describe()))
            .collect();
        format!("{} vs {} {}", self.player, self.opponent, sides.join("; "))
    }
}

/// Every pair of entrants in the order given, the first-named one's games by side.
fn pairs_by_side<G: Registered>(entrants: &[Entrant<G>], records: &[MatchRecord]) -> Vec<PairBySide> {
    let mut pairs = Vec::new();
    for (i, a) in entrants.iter().enumerate() {
        for b in &entrants[i + 1..] {
            pairs.push(PairBySide {
                player: a.name().to_string(),
                opponent: b.name().to_string(),
                sides: side_scores::<G>(records, a.name(), b.name()),
            });
        }
    }
    pairs
}
