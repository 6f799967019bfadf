//! What a run says, and where it goes. Diagnostics are `tracing` events (the binary decides how much of them
//! reaches the terminal: `-v`, `-q`, `RUST_LOG`); the run's summary lines are its output on stdout and an event
//! too ([`say`]), so that the run's log file ([`log_into`], `RUN_DIR/zero.log`) holds everything the run said,
//! with times, across sessions.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;

/// The target of the summary events: the terminal shows them through stdout already, the log file records them.
pub const SUMMARY_TARGET: &str = "zero_run::summary";

/// Prints a summary line on stdout and records it as an event.
pub fn say(line: impl std::fmt::Display) {
    let line = line.to_string();
    println!("{line}");
    tracing::info!(target: SUMMARY_TARGET, "{line}");
}

static LOG_FILE: Mutex<Option<File>> = Mutex::new(None);

/// From now on, [`file_writer`] appends to `path` (created if missing).
pub fn log_into(path: &Path) -> io::Result<()> {
    let file = File::options().create(true).append(true).open(path)?;
    *LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
    Ok(())
}

/// A writer into the log file set by [`log_into`]; it drops what it is given while there is none. The binary's
/// file layer writes through it.
pub fn file_writer() -> LogFileWriter {
    LogFileWriter
}

/// See [`file_writer`].
pub struct LogFileWriter;

impl Write for LogFileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(file) = LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            // A log that cannot be written (a full disk) must not stop the run it describes.
            let _ = file.write_all(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
