//! `zero status RUN_DIR`: where a run stands, live or finished (zero-report's status); needs no libtorch.

use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct StatusArgs {
    /// The run directory.
    pub run_dir: PathBuf,
    /// One JSON object on stdout, for scripts.
    #[arg(long)]
    pub json: bool,
}

pub fn status(args: StatusArgs) -> anyhow::Result<()> {
    let status = zero_rundir::status::status(&args.run_dir)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&status)?);
    } else {
        print!("{}", zero_rundir::status::describe(&status));
    }
    Ok(())
}
