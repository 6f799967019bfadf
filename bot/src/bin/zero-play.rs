//! `zero-play`: a bundle's bot without libtorch. Built without the `torch` feature
//! (`cargo build --release -p zero-bot --no-default-features --features onnx --bin zero-play`), it plays the bundle's ONNX network
//! through tract and needs nothing but the binary and the bundle; the commands are those of `zero bot`,
//! `zero play` and `zero serve`.

use clap::{Parser, Subcommand};
use zero_bot::cli;

#[derive(Parser)]
#[command(name = "zero-play", version, about = "Play a zero bot bundle, with no libtorch")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the bot over the line protocol on stdin/stdout (docs/protocol.md).
    Bot(cli::BotArgs),
    /// Play against the bot in the terminal.
    Play(cli::PlayArgs),
    /// Serve the browser page and its JSON API.
    Serve(cli::ServeArgs),
}

fn main() -> std::process::ExitCode {
    let result = match Cli::parse().command {
        Command::Bot(args) => cli::run_bot(args),
        Command::Play(args) => cli::run_play(args),
        Command::Serve(args) => cli::run_serve(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zero-play: error: {}", zero_edge::error_chain(&e));
            std::process::ExitCode::FAILURE
        }
    }
}
