//! `zero`: the command-line program of the zero workbench, and its front door. This binary loads no libtorch: it
//! answers the commands that need only the rules, records and a run's files itself (`perft`, `moves`, `show`,
//! `actions`, `games`, `replay`, `report`, `status`), and hands every other one, arguments unchanged, to `zero-torch` beside it (`src/torch.rs`, the
//! whole program) once it has found the libtorch that binary needs (`libtorch.rs`).

mod game_arg;
mod games_cmd;
mod global;
mod libtorch;
mod local_cmd;
mod replay_cmd;
mod report_cmd;
mod rules_cmd;
mod signals;
mod status_cmd;

use clap::Parser;
use std::ffi::OsString;

#[derive(Parser)]
#[command(
    name = "zero",
    about = "Self-play reinforcement learning for Bashni, Bagh Chal and Tours"
)]
struct Cli {
    /// Accepted as by every command; these log nothing, so the flags have nothing to change.
    #[command(flatten)]
    _global: global::GlobalFlags,
    #[command(subcommand)]
    command: local_cmd::LocalCommand,
}

/// Whether `arg` is one of the global flags, which take no value (`-v`, `-vv`, `-q`, `--verbose`, `--quiet`).
fn is_global_flag(arg: &str) -> bool {
    let short = arg
        .strip_prefix('-')
        .filter(|rest| !rest.is_empty() && !rest.starts_with('-'));
    arg == "--verbose" || arg == "--quiet" || short.is_some_and(|flags| flags.chars().all(|c| c == 'v' || c == 'q'))
}

/// The subcommand named on the command line: the first argument that is not a global flag.
fn subcommand(args: &[OsString]) -> Option<&str> {
    args.iter()
        .map(|a| a.to_str().unwrap_or(""))
        .find(|a| !is_global_flag(a))
}

fn main() {
    signals::die_quietly_on_a_closed_pipe();
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if !subcommand(&args).is_some_and(|name| local_cmd::LocalCommand::NAMES.contains(&name)) {
        let why = libtorch::hand_over(&args);
        global::fail(&anyhow::anyhow!(why));
    }
    let cli = Cli::parse();
    global::exit_on_error(cli.command.run());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn the_subcommand_is_found_past_the_global_flags_only() {
        assert_eq!(subcommand(&args("moves bashni")), Some("moves"));
        assert_eq!(subcommand(&args("-vv -q --verbose moves bashni")), Some("moves"));
        assert_eq!(subcommand(&args("--help")), Some("--help"));
        assert_eq!(subcommand(&args("-V")), Some("-V"));
        assert_eq!(subcommand(&args("-vx moves")), Some("-vx"));
        assert_eq!(subcommand(&args("")), None);
    }
}
