//! The commands that need no libtorch: the rules (`perft`, `moves`, `show`, `actions`), game records (`games`,
//! `replay`), a run's report and status. `zero` (src/main.rs) runs them itself; `zero-torch` lists them among its own
//! (flattened into its command enum), so there is one definition of each.

use crate::{games_cmd, replay_cmd, report_cmd, rules_cmd, status_cmd};
use clap::Subcommand;

#[derive(Subcommand)]
pub enum LocalCommand {
    /// Count the leaves of the legal-move tree (whole moves; draw rules off).
    Perft(rules_cmd::PerftArgs),
    /// List the legal moves of a position, one per line, sorted.
    Moves(rules_cmd::PositionArgs),
    /// Draw a position as text.
    Show(rules_cmd::PositionArgs),
    /// List the network's policy indices and the move each stands for (tab-separated, or --json).
    Actions(rules_cmd::ActionsArgs),
    /// Write a run's self-play and evaluation games as records (PDN for Bashni, PGN-style for the others).
    Games(games_cmd::GamesArgs),
    /// Read a record file and replay every game in it under its rules, one line per game.
    Replay(replay_cmd::ReplayArgs),
    /// Draw a run's plots and HTML page into RUN_DIR/report/.
    Report(report_cmd::ReportArgs),
    /// Where a run stands: generation, phase, self-play by producer, followers and their jobs, speed, ratings.
    Status(status_cmd::StatusArgs),
}

impl LocalCommand {
    /// The names of these commands on the command line (what `zero` looks for; zero-torch runs every command).
    #[allow(dead_code)]
    pub const NAMES: [&'static str; 8] = [
        "perft", "moves", "show", "actions", "games", "replay", "report", "status",
    ];

    pub fn run(self) -> anyhow::Result<()> {
        match self {
            LocalCommand::Perft(args) => rules_cmd::perft(args),
            LocalCommand::Moves(args) => rules_cmd::moves(args),
            LocalCommand::Show(args) => rules_cmd::show(args),
            LocalCommand::Actions(args) => rules_cmd::actions(args),
            LocalCommand::Games(args) => games_cmd::export(args),
            LocalCommand::Replay(args) => replay_cmd::replay_file(args),
            LocalCommand::Report(args) => report_cmd::report(args),
            LocalCommand::Status(args) => status_cmd::status(args),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_commands_names() {
        let command = LocalCommand::augment_subcommands(clap::Command::new("zero"));
        let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
        assert_eq!(names, LocalCommand::NAMES);
    }
}
