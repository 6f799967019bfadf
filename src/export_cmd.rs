//! `zero export CKPT|RUN_DIR --out DIR`: a bot bundle (see `bundle.rs` and `docs/bundle.md`).

use crate::bundle::{self, ExportOptions, SearchDefaults};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};
use zero_games::Game;
use zero_games::registry::{GameVisitor, dispatch};
use zero_model::Checkpoint;
use zero_selfplay::config::RootSearch;

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
    #[arg(long, default_value = "puct", value_parser = parse_root)]
    pub root: RootSearch,
}

fn parse_root(text: &str) -> Result<RootSearch, String> {
    match text {
        "puct" => Ok(RootSearch::Puct),
        "gumbel" => Ok(RootSearch::Gumbel),
        _ => Err(format!("{text:?} is not puct or gumbel")),
    }
}

pub fn run(args: ExportArgs) -> Result<()> {
    let (checkpoint, run_dir) = if args.source.is_dir() {
        (newest_checkpoint(&args.source)?, Some(args.source.clone()))
    } else {
        (args.source.clone(), None)
    };
    let meta = Checkpoint::read_meta(&checkpoint)?;
    let elo = match &run_dir {
        Some(dir) => last_elo(dir)?,
        None => None,
    };
    struct Export<'a> {
        checkpoint: &'a Path,
        out: &'a Path,
        options: ExportOptions,
    }
    impl GameVisitor for Export<'_> {
        type Output = Result<bundle::Manifest>;
        fn visit<G: Game>(self) -> Self::Output {
            bundle::export::<G>(self.checkpoint, self.out, self.options)
        }
    }
    let options = ExportOptions {
        search: SearchDefaults {
            sims: args.sims,
            root: args.root,
        },
        elo,
    };
    let manifest = dispatch(
        &meta.game,
        Export {
            checkpoint: &checkpoint,
            out: &args.out,
            options,
        },
    )??;
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

/// The checkpoint under `RUN_DIR/checkpoints/` with the highest generation (then step, then name).
fn newest_checkpoint(run_dir: &Path) -> Result<PathBuf> {
    let dir = run_dir.join("checkpoints");
    let entries = std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut best: Option<((u32, u64, PathBuf), PathBuf)> = None;
    for entry in entries {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("safetensors") {
            continue;
        }
        // A checkpoint that does not verify is not a candidate (a torn file from a killed run, say).
        let Ok(meta) = Checkpoint::read_meta(&path) else {
            continue;
        };
        let key = (meta.generation, meta.step, path.clone());
        if best.as_ref().is_none_or(|(k, _)| key > *k) {
            best = Some((key, path));
        }
    }
    match best {
        Some((_, path)) => Ok(path),
        None => bail!("no valid checkpoint under {}", dir.display()),
    }
}

/// The network's Elo from the last line of `RUN_DIR/generations.jsonl`, when there is one.
fn last_elo(run_dir: &Path) -> Result<Option<f64>> {
    let generations = crate::report::read_generations(&run_dir.join("generations.jsonl"))?;
    Ok(generations
        .last()
        .and_then(|g| g.ratings.iter().find(|r| r.player == g.network).map(|r| r.elo)))
}
