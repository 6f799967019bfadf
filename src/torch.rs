//! `zero-torch`: the whole command-line program of the zero workbench, run by `zero` (`src/main.rs`) for every
//! command that needs libtorch. A thin layer over the library crates: it parses arguments, sets the process up
//! (threads, OpenMP, device) and calls into them. Its command-line definition is the complete one, so help,
//! completions and man pages come from here.

mod bench;
mod eval_cmd;
mod export_cmd;
mod game_arg;
mod games_cmd;
mod global;
mod local_cmd;
mod logging;
mod replay_cmd;
mod report_cmd;
mod rules_cmd;
mod run_cmd;
mod runtime;
mod selfplay_cmd;
mod shell_cmd;
mod signals;
mod status_cmd;
mod tablebase_cmd;
mod train_cmd;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "zero",
    about = "Self-play reinforcement learning for Bashni, Bagh Chal and Tours",
    disable_version_flag = true
)]
pub(crate) struct Cli {
    /// Print the zero version, the libtorch version and the device that would be used.
    #[arg(short = 'V', long = "version")]
    version: bool,
    #[command(flatten)]
    global: global::GlobalFlags,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The commands that need no libtorch (`zero` runs them itself).
    #[command(flatten)]
    Local(local_cmd::LocalCommand),
    /// The main job: self-play, training and evaluation in a loop, in a resumable run directory.
    Run(run_cmd::RunArgs),
    /// Play games with the search and write them as training shards.
    Selfplay(selfplay_cmd::SelfPlayArgs),
    /// Train the config's network on a directory of self-play shards.
    Train(train_cmd::TrainArgs),
    /// Rate players in a round robin: baselines, checkpoints (`zero eval --game G --player SPEC ...`).
    Eval(eval_cmd::EvalArgs),
    /// Verify a run directory: every shard read, every checkpoint loaded, the state and records parsed.
    Check {
        /// The run directory.
        run_dir: std::path::PathBuf,
        /// Take the run's lock and repair what is safe: half-written files removed, torn record lines cut.
        #[arg(long)]
        repair: bool,
    },
    /// Write a self-contained bot bundle (weights, TorchScript, manifest) from a checkpoint or run directory.
    Export(export_cmd::ExportArgs),
    /// Play a bundle's network over a line protocol on stdin/stdout (docs/protocol.md).
    Bot(zero_bot::cli::BotArgs),
    /// Play against a bundle's network in the terminal.
    Play(zero_bot::cli::PlayArgs),
    /// Serve a web page to play against a bundle's network in a browser.
    Serve(zero_bot::cli::ServeArgs),
    /// Solve Bagh Chal's sliding phase into a tablebase file, or verify one (docs/tablebase.md).
    Solve(tablebase_cmd::SolveArgs),
    /// A Bagh Chal position's value under perfect play and every move's, from the tablebase.
    Probe(tablebase_cmd::ProbeArgs),
    /// Measure speed: `zero bench perft|nn|selfplay|train|arena|threads`.
    Bench(bench::BenchArgs),
    /// Print a shell completion script on stdout (`zero completions bash > ~/.local/share/bash-completion/completions/zero`).
    Completions(shell_cmd::CompletionsArgs),
    /// Write man pages generated from these definitions into a directory.
    Man(shell_cmd::ManArgs),
}

fn main() {
    signals::die_quietly_on_a_closed_pipe();
    runtime::ensure_passive_openmp();
    let cli = Cli::parse();
    if cli.version {
        print!("{}", runtime::version_text());
        return;
    }
    let Some(command) = cli.command else {
        use clap::CommandFactory;
        let _ = Cli::command().print_help();
        std::process::exit(2);
    };
    logging::init(cli.global.verbose, cli.global.quiet);
    runtime::keep_freed_memory();
    runtime::init_threads();
    let result = match command {
        Command::Local(command) => command.run(),
        Command::Train(args) => train_cmd::run(args),
        Command::Run(args) => run_cmd::run(args),
        Command::Selfplay(args) => selfplay_cmd::run(args),
        Command::Eval(args) => eval_cmd::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Solve(args) => tablebase_cmd::solve(args),
        Command::Probe(args) => tablebase_cmd::probe(args),
        Command::Completions(args) => shell_cmd::completions(args),
        Command::Man(args) => shell_cmd::man(args),
        Command::Export(args) => export_cmd::run(args),
        Command::Bot(args) => zero_bot::cli::run_bot(args).map_err(anyhow::Error::from),
        Command::Play(args) => zero_bot::cli::run_play(args).map_err(anyhow::Error::from),
        Command::Serve(args) => zero_bot::cli::run_serve(args).map_err(anyhow::Error::from),
        Command::Check { run_dir, repair } => check(&run_dir, repair),
    };
    global::exit_on_error(result);
}

/// `zero check`: the report on stdout; exit status 1 while problems are left.
fn check(run_dir: &std::path::Path, repair: bool) -> anyhow::Result<()> {
    let report = zero_run::check::check_run(run_dir, repair)?;
    zero_run::check::print_report(run_dir, &report);
    if report.unrepaired() > 0 {
        std::process::exit(1);
    }
    Ok(())
}
