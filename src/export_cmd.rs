//! `zero export CKPT|RUN_DIR --out DIR`: a bot bundle (see `bundle.rs` and `docs/bundle.md`).

use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use zero_bot::{ExportOptions, SearchDefaults};
use zero_games::{GameKind, with_game};
use zero_model::Checkpoint;
use zero_search::RootSearch;

#[derive(Args, Debug, Clone)]
pub struct ExportArgs {
    /// A checkpoint file, or a run directory (its newest checkpoint under checkpoints/, by generation).
    pub source: PathBuf,
    /// The bundle directory to create (must not exist).
    #[arg(long)]
    pub out: PathBuf,
    /// Default simulations per move recorded in the manifest.
    #[arg(long, default_value_t = 200)]
    pub sims: u32,
    /// Default root search recorded in the manifest: puct or gumbel.
    #[arg(long, default_value = "puct")]
    pub root: RootSearch,
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
    let meta = Checkpoint::read_meta(&checkpoint)?;
    let elo = match &run_dir {
        Some(dir) => last_elo(dir)?,
        None => None,
    };
    let options = ExportOptions {
        search: SearchDefaults {
            sims: args.sims,
            root: args.root,
        },
        elo,
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
    let generations = zero_run::summary::read_generations(&run_dir.join("generations.jsonl"))?;
    Ok(generations
        .last()
        .and_then(|g| g.ratings.iter().find(|r| r.player == g.network).map(|r| r.elo)))
}
