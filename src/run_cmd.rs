//! `zero run [CONFIG] [--run-dir DIR] [--set key=value]...`: the main job, run by the `zero-run` crate.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Run config (TOML). Without one: the embedded quick Bashni config, or, with --run-dir on an existing
    /// run, that run's own config.
    pub config: Option<PathBuf>,
    /// The run directory (default: runs/<config name>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Override a config value, e.g. `--set selfplay.search.simulations=64` (repeatable). On an existing run
    /// only the keys that may change on resume (run.generations, evaluation and resources) are accepted.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

pub fn run(args: RunArgs) -> Result<()> {
    Ok(zero_run::run(zero_run::RunRequest {
        config: args.config,
        run_dir: args.run_dir,
        set: args.set,
        version: crate::runtime::build_identity(),
    })?)
}
