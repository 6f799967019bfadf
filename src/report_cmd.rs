//! `zero report`: a run's plots and HTML page (the zero-report crate); needs no libtorch.

use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The run directory.
    pub run_dir: PathBuf,
}

/// Draws the report into `RUN_DIR/report/` and says where it is.
pub fn report(args: ReportArgs) -> anyhow::Result<()> {
    let report = zero_report::write_report(&args.run_dir)?;
    println!("report: {} ({} plots)", report.html.display(), report.plots.len());
    Ok(())
}
