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
pub mod error;
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
pub use zero_report as report;
pub use zero_rundir::summary;

/// What the process says before [`exit_between_writes`] ends it (the run: the summary still waiting in its state).
static LAST_WORDS: std::sync::Mutex<Option<Box<dyn FnOnce() + Send>>> = std::sync::Mutex::new(None);

/// Sets what the process says before an interrupt ends it ([`exit_between_writes`]); `None` says nothing.
pub fn set_last_words(say: Option<Box<dyn FnOnce() + Send>>) {
    *LAST_WORDS.lock().unwrap_or_else(|e| e.into_inner()) = say;
}

/// Ends the process on SIGINT or SIGTERM with the status `status` gives for the signal, but between writes and
/// after its last words ([`exit_between_writes`]), from a thread that watches for them: the run (128 + the
/// signal, as the signal would have) and a follower (143). Not for a run whose followers' watcher has its own.
pub fn exit_between_writes_on_signals(status: fn(i32) -> i32) -> std::io::Result<()> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;
    let caught = Arc::new(AtomicUsize::new(0));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_usize(signal, caught.clone(), signal as usize)?;
    }
    std::thread::Builder::new()
        .name("interrupts".to_string())
        .spawn(move || wait_for_signal(&caught, status))?;
    Ok(())
}

/// Polls `caught` (set to the signal's number by its handler) and ends the process once it is set.
fn wait_for_signal(caught: &std::sync::atomic::AtomicUsize, status: fn(i32) -> i32) {
    loop {
        let signal = caught.load(std::sync::atomic::Ordering::SeqCst);
        if signal != 0 {
            exit_between_writes(status(signal as i32));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Ends the process with `code` once no file is being written ([`zero_io::stop_writes`]): how the run
/// and its followers end on SIGINT or SIGTERM. It exits with `_exit`, running no exit handlers and no static
/// destructors: libtorch's, run while another thread still trained, killed the process by a signal in place of
/// its status (seen as an interrupted run that ended without 130). Every file is written atomically, so nothing
/// is left to flush but the terminal's lines.
pub fn exit_between_writes(code: i32) -> ! {
    use std::io::Write;
    zero_io::stop_writes();
    let last_words = LAST_WORDS.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(say) = last_words {
        say();
    }
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: _exit(2) ends the process at once; nothing after it runs.
    unsafe { libc::_exit(code) }
}
