//! `zero export CKPT|RUN_DIR --out DIR`: a bot bundle (see `bundle.rs` and `docs/bundle.md`).

use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};
use zero_arena::Standings;
use zero_bot::{ExportOptions, LevelRating, SearchDefaults};
use zero_games::{GameKind, with_game};
use zero_search::{SideRoots, SideWeights};

#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// A checkpoint file, or a run directory (its newest checkpoint under checkpoints/, by generation).
    pub source: PathBuf,
    /// The bundle directory to create (must not exist).
    #[arg(long)]
    pub out: PathBuf,
    /// Default simulations per move recorded in the manifest, 1 to 1000000: the bot's budget, in place of the
    /// run's time per move (default: the run's self-play simulations, else 200).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(zero_search::config::MAX_SIMULATIONS)))]
    pub sims: Option<u32>,
    /// Default milliseconds per move recorded in the manifest, 1 to 600000: the bot's budget (default: the
    /// run's headline match's, `run.eval_equal_time_ms`, when it had one; else simulations).
    #[arg(long, value_name = "MS", conflicts_with = "sims",
          value_parser = clap::value_parser!(u64).range(1..=u64::from(zero_search::config::MAX_MOVE_TIME_MS)))]
    pub movetime: Option<u64>,
    /// Default root search recorded in the manifest: puct or gumbel, or one for each side as FIRST/SECOND
    /// (gumbel/puct) (default: the run's headline match's, `run.eval_equal_time_root`, when it had one, else
    /// its self-play's; else puct).
    #[arg(long)]
    pub root: Option<SideRoots>,
    /// Default score weight recorded in the manifest: W for both sides or FIRST/SECOND, each in [0, 1] (the
    /// search's `score_utility`; default: the run's `run.eval_equal_time_score_utility`, else 0).
    #[arg(long)]
    pub score: Option<SideWeights>,
    /// Default weight of the game's heuristic minimaxed through the search, recorded in the manifest: in [0, 1]
    /// (the search's `minimax_weight`; default: the run's `run.eval_equal_time_minimax`, else 0).
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

/// What the checkpoint's run played with, when the checkpoint is a run directory's (`RUN_DIR` itself, or a file
/// under `RUN_DIR/checkpoints/`).
struct RunSearch {
    /// Self-play's simulations (`selfplay.search`).
    simulations: u32,
    /// The headline match's time per move (`run.eval_equal_time_ms`), when the run played one.
    movetime_ms: Option<u64>,
    /// The headline match's root (`run.eval_equal_time_root`), else self-play's.
    root: SideRoots,
    /// The score weight the run judged its networks with (`run.eval_equal_time_score_utility`).
    score_utility: SideWeights,
    /// The minimax weight it judged them with (`run.eval_equal_time_minimax`).
    minimax_weight: f32,
}

fn run_search(run_dir: Option<&Path>, checkpoint: &Path) -> Result<Option<RunSearch>> {
    let from_file = checkpoint.parent().and_then(Path::parent);
    let Some(config) = run_dir
        .or(from_file)
        .map(|d| zero_rundir::RunPaths::new(d).config_path())
        .filter(|c| c.is_file())
    else {
        return Ok(None);
    };
    let config = zero_run::config::RunConfig::load_recorded(&config)?;
    let search = &config.selfplay.search;
    let headline = config.run.eval_equal_time_ms > 0;
    Ok(Some(RunSearch {
        simulations: search.simulations,
        movetime_ms: headline.then_some(config.run.eval_equal_time_ms),
        root: if headline {
            config.run.eval_equal_time_root
        } else {
            search.root
        },
        score_utility: config.run.eval_equal_time_score_utility,
        minimax_weight: config.run.eval_equal_time_minimax,
    }))
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
        search: SearchDefaults {
            sims: args.sims.or(ran.as_ref().map(|r| r.simulations)).unwrap_or(200),
            // A budget of simulations asked for replaces the run's time per move.
            movetime_ms: match args.sims {
                Some(_) => None,
                None => args.movetime.or(ran.as_ref().and_then(|r| r.movetime_ms)),
            },
            // Without a run's root, the bot plays as the arena's judged network players do.
            root: args
                .root
                .or(ran.as_ref().map(|r| r.root))
                .unwrap_or(zero_arena::spec::DEFAULT_CKPT_ROOT),
            score_utility: args
                .score
                .or(ran.as_ref().map(|r| r.score_utility))
                .unwrap_or(zero_search::SearchConfig::DEFAULT.score_utility),
            minimax_weight: args
                .minimax
                .or(ran.as_ref().map(|r| r.minimax_weight))
                .unwrap_or(zero_search::SearchConfig::DEFAULT.minimax_weight),
        },
        elo,
        level_ratings: match &args.level_ratings {
            Some(path) => read_level_ratings(path, &meta.game)?,
            None => Vec::new(),
        },
    };
    options
        .search
        .score_utility
        .check_score_utility()
        .map_err(|e| anyhow::anyhow!("--score {}: {e}", options.search.score_utility))?;
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
