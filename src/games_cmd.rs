//! `zero games`: a run's games as records (PDN for Bashni, PGN-style for the others, `docs/records.md`).

use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use zero_data::{GameRecord, ShardHeader, ShardSet};
use zero_games::{Game, GameKind, Side, with_game};
use zero_records::arena::MatchRecord;
use zero_records::{GameResult, Record, write_record};
use zero_rundir::RunPaths;

/// Which of a run's games to export.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Self-play games (RUN_DIR/data) and evaluation games (RUN_DIR/games, RUN_DIR/equal-time).
    All,
    Selfplay,
    Evaluation,
}

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// The run directory.
    pub run_dir: PathBuf,
    /// The record file to write (`-`: standard output).
    #[arg(long)]
    pub out: PathBuf,
    /// Which games.
    #[arg(long, value_enum, default_value = "all")]
    pub only: Which,
    /// Only the games of this generation (self-play that made it, evaluation of its network).
    #[arg(long)]
    pub generation: Option<u32>,
}

/// `zero games`: writes the run's games as records, atomically.
pub fn export(args: GamesArgs) -> Result<()> {
    zero_rundir::layout::require_run_dir(&args.run_dir)?;
    let mut text = String::new();
    let mut count = 0;
    if args.only != Which::Evaluation {
        count += selfplay_records(&args, &mut text)?;
    }
    if args.only != Which::Selfplay {
        count += evaluation_records(&args, &mut text)?;
    }
    if args.out == Path::new("-") {
        std::io::stdout()
            .write_all(text.as_bytes())
            .context("writing to standard output")?;
    } else {
        zero_io::write_atomically(&args.out, text.as_bytes())
            .with_context(|| format!("writing {}", args.out.display()))?;
        eprintln!("zero games: {count} games written to {}", args.out.display());
    }
    Ok(())
}

fn selfplay_records(args: &GamesArgs, text: &mut String) -> Result<usize> {
    let data = RunPaths::new(&args.run_dir).data_dir();
    let set = ShardSet::scan(&data).with_context(|| format!("reading {}", data.display()))?;
    let prefix = args.generation.map(zero_rundir::layout::shard_prefix);
    let mut count = 0;
    for shard in set.shards() {
        if prefix.as_ref().is_some_and(|p| !shard.name.starts_with(p.as_str())) || !shard.games_path.exists() {
            continue;
        }
        let (header, games) = zero_data::read_games(&shard.games_path)?;
        let kind: GameKind = header.game.parse()?;
        for game in &games {
            let record =
                with_game!(kind, G => selfplay_record::<G>(&header, game).and_then(|r| Ok(write_record::<G>(&r)?)));
            let written = record.with_context(|| format!("{}: game {}", shard.games_path.display(), game.game_id))?;
            text.push_str(&written);
            text.push('\n');
            count += 1;
        }
    }
    Ok(count)
}

fn selfplay_record<G: Game>(header: &ShardHeader, game: &GameRecord) -> Result<Record> {
    let options: Vec<String> = header
        .rules
        .split(',')
        .filter(|o| !o.is_empty())
        .map(str::to_string)
        .collect();
    let rules = G::parse_rules(None, &options)?;
    let mut record = Record::new::<G>(&rules, None);
    record.set_tag("Event", &format!("zero self-play, run {}", header.run));
    record.set_tag("Round", &header.generation.to_string());
    for side in [Side::First, Side::Second] {
        record.set_player::<G>(side, &header.model_id);
    }
    record.set_tag("GameId", &game.game_id);
    if game.start_position != "start" && game.start_position != G::start(&rules).position() {
        record.set_tag("SetUp", "1");
        record.set_tag("FEN", &game.start_position);
    }
    record.set_tag("Termination", &game.reason);
    record.moves = game.moves.clone();
    record.result = GameResult::of_winner(game.winner.map(|w| Side::from_index(w as usize)));
    Ok(record)
}

fn evaluation_records(args: &GamesArgs, text: &mut String) -> Result<usize> {
    let mut files = Vec::new();
    for dir in RunPaths::new(&args.run_dir).match_dirs() {
        files.extend(zero_rundir::layout::jsonl_files(&dir));
    }
    let wanted = args.generation.map(|g| format!("gen-{g:04}"));
    let mut count = 0;
    for file in files {
        let round = file
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if wanted.as_ref().is_some_and(|w| *w != round) {
            continue;
        }
        for game in zero_records::arena::read_jsonl(&file)? {
            let kind: GameKind = game.game.parse()?;
            let written =
                with_game!(kind, G => match_record::<G>(&game, &round).and_then(|r| Ok(write_record::<G>(&r)?)))
                    .with_context(|| format!("{}: {} vs {}", file.display(), game.first, game.second))?;
            text.push_str(&written);
            text.push('\n');
            count += 1;
        }
    }
    Ok(count)
}

fn match_record<G: Game>(game: &MatchRecord, round: &str) -> Result<Record> {
    let rules = G::parse_rules(None, &game.rules)?;
    let mut record = Record::new::<G>(&rules, None);
    record.set_tag("Event", "zero evaluation");
    record.set_tag("Round", round);
    record.set_player::<G>(Side::First, &game.first);
    record.set_player::<G>(Side::Second, &game.second);
    record.set_tag(
        "Opening",
        &format!("{} ({} plies)", game.opening_index, game.opening.len()),
    );
    record.set_tag("Termination", &game.reason);
    record.moves = game.opening.iter().chain(&game.moves).cloned().collect();
    record.result = GameResult::parse(&game.result).unwrap_or(GameResult::Unknown);
    Ok(record)
}
