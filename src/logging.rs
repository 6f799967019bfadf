//! Where zero's `tracing` events go: the terminal (stderr, above any progress bar) at the level `-v`, `-q` or
//! `RUST_LOG` sets, in zero's own plain style, and the run's log file (`zero_run::log`) with times and levels.
//! The run's summary lines reach the terminal on stdout, so the terminal layer leaves their events out.

use std::io::{self, Write};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::filter::{EnvFilter, FilterFn};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, fmt};

/// Installs the terminal and log-file layers. `verbose` counts `-v` (1: debug, 2: trace); `quiet` keeps only
/// warnings and errors; `RUST_LOG`, when set, decides instead (as `tracing`'s `EnvFilter` reads it).
pub fn init(verbose: u8, quiet: bool) {
    let level = match (quiet, verbose) {
        (true, _) => "warn",
        (false, 0) => "info",
        (false, 1) => "debug",
        _ => "trace",
    };
    let filter = || EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let terminal = fmt::layer()
        .event_format(Plain)
        .with_writer(|| TerminalWriter)
        .with_filter(FilterFn::new(|meta| meta.target() != zero_run::log::SUMMARY_TARGET))
        .with_filter(filter());
    let file = fmt::layer()
        .with_ansi(false)
        .with_writer(zero_run::log::file_writer)
        .with_filter(filter());
    // A second init (a test harness) keeps the first: nothing to report.
    let _ = tracing_subscriber::registry().with(terminal).with(file).try_init();
}

/// zero's terminal style: an info line is just its message; others say what they are.
struct Plain;

impl<S, N> FormatEvent<S, N> for Plain
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, N>, mut writer: Writer<'_>, event: &Event<'_>) -> std::fmt::Result {
        match *event.metadata().level() {
            Level::ERROR => write!(writer, "zero: error: ")?,
            Level::WARN => write!(writer, "zero: warning: ")?,
            Level::INFO => {}
            Level::DEBUG | Level::TRACE => write!(writer, "zero: debug: ")?,
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// stderr, with the progress bar moved out of the way of each line.
struct TerminalWriter;

impl Write for TerminalWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        zero_run::progress::suspend(|| io::stderr().write_all(buf)).map(|()| buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}
