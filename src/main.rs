//! `zero`: the command-line program of the zero workbench. A thin layer over the library crates: it parses
//! arguments, sets the process up (threads, OpenMP, device) and calls into them.

mod bench;
mod config;
mod eval_cmd;
mod rules_cmd;
mod runtime;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "zero",
    about = "Self-play reinforcement learning for Bashni, Bagh Chal and Tours",
    disable_version_flag = true
)]
struct Cli {
    /// Print the zero version, the libtorch version and the device that would be used.
    #[arg(short = 'V', long = "version")]
    version: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (whole moves; draw rules off).
    Perft(rules_cmd::PerftArgs),
    /// List the legal moves of a position, one per line, sorted.
    Moves(rules_cmd::PositionArgs),
    /// Draw a position as text.
    Show(rules_cmd::PositionArgs),
    /// Rate players in a round robin: baselines, checkpoints (`zero eval --game G --player SPEC ...`).
    Eval(eval_cmd::EvalArgs),
    /// Measure speed: `zero bench perft`, `zero bench threads`.
    Bench(bench::BenchArgs),
}

fn main() {
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
    runtime::init_threads();
    let result = match command {
        Command::Perft(args) => rules_cmd::perft(args),
        Command::Moves(args) => rules_cmd::moves(args),
        Command::Show(args) => rules_cmd::show(args),
        Command::Eval(args) => eval_cmd::run(args),
        Command::Bench(args) => bench::run(args),
    };
    if let Err(err) = result {
        eprintln!("zero: error: {err:#}");
        std::process::exit(1);
    }
}
