//! The training run of zero (`zero run`): the loop that alternates self-play, training and evaluation,
//! generation after generation, in a run directory that lets a killed run resume where it stopped.
//!
//! - [`config`]: [`RunConfig`], the run's TOML file, with `--set` overrides and the keys a resumed run may
//!   change.
//! - [`dir`]: the run directory: state, checkpoints, shards, records, atomic writes and the run's lock.
//! - [`run_loop`]: [`run`], the loop itself, one phase after another, with its terminal summary.
//! - [`play`]: self-play jobs with a progress bar ([`play::play_games`]), shared with `zero selfplay`.
//! - [`progress`]: progress bars on a terminal, timed plain lines anywhere else.
//! - [`log`]: the run's summary lines and its log file (`RUN_DIR/zero.log`); diagnostics are `tracing` events.
//! - [`training`]: the replay window over a data directory and the memory check, shared with `zero train`.
//! - [`book`]: the evaluation book, from the book cache or judged with a progress bar.
//! - [`evaluate`]: each generation's pairings against the baselines and its parent, rated over the run's pool.
//! - [`gate`]: the optional SPRT gate that decides which network self-play uses.
//! - [`follow`]: extra self-play processes joining a run (`zero selfplay --follow`).
//! - [`summary`]: what the run records of each generation; [`report`]: its plots and HTML page.
//! - [`check`]: `zero check`, a run directory verified file by file and repaired where that is safe.
//!
//! Dependencies point one way: [`run_loop`] uses the phases, which use [`dir`], [`config`] and [`summary`];
//! [`report`] reads only the records. See `docs/run.md`.

pub mod book;
pub mod check;
pub mod cluster;
pub mod config;
pub mod dir;
pub mod evaluate;
pub mod follow;
pub mod gate;
pub mod log;
pub mod play;
pub mod progress;
pub mod resign;
pub mod run_loop;
pub mod training;

pub use config::{LoopConfig, RESUMABLE_KEYS, RunConfig};
// The report and the summaries live in zero-report, which needs no libtorch; the run's paths to them stay.
pub use run_loop::{DEFAULT_CONFIG, RunRequest, run};
pub use zero_report::{self as report, summary};

/// Ends the process with `code` once no file is being written ([`zero_games::files::stop_writes`]): how the run
/// and its followers end on SIGINT or SIGTERM. It exits with `_exit`, running no exit handlers and no static
/// destructors: libtorch's, run while another thread still trained, killed the process by a signal in place of
/// its status (seen as an interrupted run that ended without 130). Every file is written atomically, so nothing
/// is left to flush but the terminal's lines.
pub fn exit_between_writes(code: i32) -> ! {
    use std::io::Write;
    zero_games::files::stop_writes();
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: _exit(2) ends the process at once; nothing after it runs.
    unsafe { libc::_exit(code) }
}
