//! `zero completions SHELL` and `zero man --out DIR`: shell completions and man pages generated from the
//! command-line definitions themselves, so they never drift from what the program accepts.

use std::path::PathBuf;

use anyhow::Context;
use clap::CommandFactory;

#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

#[derive(clap::Args)]
pub struct ManArgs {
    /// The directory to write `zero.1` and one page per subcommand (`zero-run.1`, ...) into; created if missing.
    #[arg(long, default_value = "man")]
    pub out: PathBuf,
}

/// Prints the completion script of `shell` on stdout.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<()> {
    let mut command = crate::Cli::command();
    clap_complete::generate(args.shell, &mut command, "zero", &mut std::io::stdout());
    Ok(())
}

/// Writes the man pages into `args.out` and names the directory.
pub fn man(args: ManArgs) -> anyhow::Result<()> {
    std::fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    clap_mangen::generate_to(crate::Cli::command(), &args.out)
        .with_context(|| format!("writing man pages into {}", args.out.display()))?;
    println!(
        "man pages: {} (man -l {}/zero.1)",
        args.out.display(),
        args.out.display()
    );
    Ok(())
}
