//! `zero export CKPT|RUN_DIR --out DIR`: a bot bundle (see `bundle.rs` and `docs/bundle.md`).

use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};
use zero_arena::Standings;
use zero_bot::{ExportOptions, LevelRating};
use zero_games::{GameKind, with_game};
use zero_search::{PlaySearch, SideRoots, SideWeights};

#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// A checkpoint file, or a run directory (its newest checkpoint under checkpoints/, by generation).
    pub source: PathBuf,
    /// The bundle directory to create (must not exist).
    #[arg(long)]
    pub out: PathBuf,
    /// Default simulations per move recorded in the manifest, 1 to 1000000: the bot's budget, in place of the
    /// run's time per move (default: the run's equal-time player's, `run.equal_time.sims`, when it played that
    /// match, else its self-play simulations; else 200).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(zero_search::config::MAX_SIMULATIONS)))]
    pub sims: Option<u32>,
    /// Default milliseconds per move recorded in the manifest, 1 to 600000: the bot's budget (default: the
    /// run's headline match's, `run.equal_time.movetime_ms`, when it had one; else simulations).
    #[arg(long, value_name = "MS", conflicts_with = "sims",
          value_parser = clap::value_parser!(u64).range(1..=u64::from(zero_search::config::MAX_MOVE_TIME_MS)))]
    pub movetime: Option<u64>,
    /// Default root search recorded in the manifest: puct or gumbel, or one for each side as FIRST/SECOND
    /// (gumbel/puct) (default: the run's headline match's, `run.equal_time.root`, when it had one, else its
    /// self-play's; else puct).
    #[arg(long)]
    pub root: Option<SideRoots>,
    /// Default score weight recorded in the manifest: W for both sides or FIRST/SECOND, each in [0, 1] (the
    /// search's `score_utility`; default: the run's `run.equal_time.score_utility`, else 0).
    #[arg(long)]
    pub score: Option<SideWeights>,
    /// Default weight of the game's heuristic minimaxed through the search, recorded in the manifest: in [0, 1]
    /// (the search's `minimax_weight`; default: the run's `run.equal_time.minimax_weight`, else 0).
    #[arg(long, value_parser = zero_bot::cli::minimax_weight)]
    pub minimax: Option<f32>,
    /// The standings of a round robin of this network's levels (`zero eval --out FILE` with players
    /// `ckpt:CKPT,level=NAME,name=NAME` and the anchors): recorded in the manifest and shown beside the level
    /// where the bot is played.
    #[arg(long, value_name = "FILE")]
    pub level_ratings: Option<PathBuf>,
}

/// What `zero eval --out` writes that the level ratings need.
#[derive(serde::Deserialize)]
struct EvalOut {
    game: String,
    standings: Standings,
}

/// The levels' ratings in the `zero eval --out` file at `path` (the rows named after a level), which must rate
/// players of `game`.
fn read_level_ratings(path: &Path, game: &str) -> Result<Vec<LevelRating>> {
    let text = zero_io::read_text_bounded(path, zero_io::FileKind::Results)?;
    let EvalOut { game: rated, standings } = serde_json::from_str(&text)
        .with_context(|| format!("{}: not the standings of zero eval --out", path.display()))?;
    if rated != game {
        bail!("{} rates players of {rated}; this network plays {game}", path.display());
    }
    let ratings: Vec<LevelRating> = zero_search::LEVELS
        .iter()
        .filter_map(|level| standings.get(level.name))
        .map(|row| LevelRating {
            level: row.name.clone(),
            elo: row.elo,
            interval: row.elo_interval,
            anchor: standings.anchor.clone(),
            games: row.games,
        })
        .collect();
    if ratings.is_empty() {
        bail!(
            "{} rates no player named after a level ({}): name them so, as in `--player ckpt:CKPT,level=club,name=club`",
            path.display(),
            zero_search::LEVELS.map(|l| l.name).join(", ")
        );
    }
    Ok(ratings)
}

/// How the checkpoint's run judged its networks, when the checkpoint is a run directory's (`RUN_DIR` itself, or a
/// file under `RUN_DIR/checkpoints/`): its equal-time player (`[run.equal_time]`) where it played that match, else
/// the same settings on self-play's simulations and root.
fn run_search(run_dir: Option<&Path>, checkpoint: &Path) -> Result<Option<PlaySearch>> {
    let from_file = checkpoint.parent().and_then(Path::parent);
    let Some(config) = run_dir
        .or(from_file)
        .map(|d| zero_rundir::RunPaths::new(d).config_path())
        .filter(|c| c.is_file())
    else {
        return Ok(None);
    };
    let config = zero_run::config::RunConfig::load_recorded(&config)?;
    let player = config.run.equal_time;
    Ok(Some(match player.movetime_ms {
        Some(_) => player,
        None => PlaySearch {
            sims: config.selfplay.search.simulations,
            root: config.selfplay.search.root,
            ..player
        },
    }))
}

/// The bundle's default search: what the run judged its networks with, else [`PlaySearch::DEFAULT`] on 200
/// simulations, with what the command line names put in.
fn bundle_search(args: &ExportArgs, ran: Option<PlaySearch>) -> Result<PlaySearch> {
    let mut search = ran.unwrap_or(PlaySearch {
        sims: 200,
        ..PlaySearch::DEFAULT
    });
    if let Some(sims) = args.sims {
        search = search.on_simulations(sims);
    }
    if let Some(ms) = args.movetime {
        search.movetime_ms = Some(ms);
    }
    search.root = args.root.unwrap_or(search.root);
    search.score_utility = args.score.unwrap_or(search.score_utility);
    search.minimax_weight = args.minimax.unwrap_or(search.minimax_weight);
    search.validate().map_err(|e| {
        let flag = match e.key {
            "score_utility" => "--score",
            "minimax_weight" => "--minimax",
            _ => "the run's [run.equal_time]",
        };
        anyhow::anyhow!("the bundle's search ({flag}): {e}")
    })?;
    Ok(search)
}

pub fn run(args: ExportArgs) -> Result<()> {
    let (checkpoint, run_dir) = if args.source.is_dir() {
        (
            zero_run::dir::newest_checkpoint(&args.source)?,
            Some(args.source.clone()),
        )
    } else {
        (args.source.clone(), None)
    };
    let meta = zero_model::read_meta(&checkpoint)?;
    let elo = match &run_dir {
        Some(dir) => last_elo(dir)?,
        None => None,
    };
    let ran = run_search(run_dir.as_deref(), &checkpoint)?;
    let options = ExportOptions {
        search: bundle_search(&args, ran)?,
        elo,
        level_ratings: match &args.level_ratings {
            Some(path) => read_level_ratings(path, &meta.game)?,
            None => Vec::new(),
        },
    };
    let kind: GameKind = meta.game.parse()?;
    let manifest = with_game!(kind, G => zero_bot::export::<G>(&checkpoint, &args.out, options))?;
    println!(
        "bundle {}: {} generation {} step {} from {}",
        args.out.display(),
        manifest.game,
        manifest.provenance.generation,
        manifest.provenance.step,
        checkpoint.display()
    );
    Ok(())
}

/// The network's Elo from the last line of `RUN_DIR/generations.jsonl`, when there is one.
fn last_elo(run_dir: &Path) -> Result<Option<f64>> {
    let generations = zero_run::summary::read_generations(&zero_rundir::RunPaths::new(run_dir).generations_path())?;
    Ok(generations
        .last()
        .and_then(|g| g.ratings.iter().find(|r| r.player == g.network).map(|r| r.elo)))
}
