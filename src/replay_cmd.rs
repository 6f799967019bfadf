//! `zero replay`: a record file (`docs/records.md`) checked move by move against the rules; needs no libtorch.

use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;
use zero_games::{Game, GameKind, with_game};
use zero_records::{read_records, replay};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A record file (PDN or PGN-style).
    pub file: PathBuf,
    /// The game, for records without a GameType tag or with a PDN number there and no Variant tag.
    #[arg(long, value_parser = crate::game_arg::parser())]
    pub game: Option<GameKind>,
}

/// `zero replay`: reads every record of a file and replays it under its rules; prints one line per game.
pub fn replay_file(args: ReplayArgs) -> Result<()> {
    let text = zero_io::read_text_bounded(&args.file, zero_io::FileKind::Record)?;
    let records = read_records(&text).with_context(|| format!("{}", args.file.display()))?;
    if records.is_empty() {
        bail!("{}: no game record in it", args.file.display());
    }
    for read in &records {
        let tag = read.record.game_type();
        let kind = match (tag.and_then(|t| t.name), args.game) {
            (Some(name), _) => name.parse::<GameKind>().with_context(|| {
                let which = if tag.is_some_and(|t| t.pdn.is_some()) {
                    "Variant"
                } else {
                    "GameType"
                };
                format!("{}: line {}: its {which} tag", args.file.display(), read.line)
            })?,
            (None, Some(kind)) => kind,
            (None, None) => match tag.and_then(|t| t.pdn) {
                Some(number) => bail!(
                    "{}: line {}: GameType {number} is a PDN draughts game and no Variant tag names one of zero's: \
                     name the game with --game (bashni reads Russian draughts' notation, GameType 25)",
                    args.file.display(),
                    read.line
                ),
                None => bail!(
                    "{}: line {}: no GameType tag: name the game with --game",
                    args.file.display(),
                    read.line
                ),
            },
        };
        let line = with_game!(kind, G => replay::<G>(read).map(|r| {
            let end = r.end.outcome().map(|o| format!(", {}", o.reason)).unwrap_or_default();
            format!("line {}: {} moves, {}{end}: {}", read.line, r.moves.len(), read.record.result.token::<G>(), r.end.position())
        }))
        .with_context(|| format!("{}", args.file.display()))?;
        println!("{line}");
    }
    Ok(())
}
