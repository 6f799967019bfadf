//! Progress bars that also report when nobody watches a terminal.
//!
//! indicatif hides a bar whose stderr is not a terminal, so a run under `nohup`, in a pipe or in a batch job
//! printed nothing during a 40-minute generation. [`bar`] draws the usual bar on a terminal and otherwise writes
//! the bar's text as a plain line at most once every [`interval`] (5 s unless `ZERO_PROGRESS_SECONDS` says
//! otherwise; `0` writes every change), with no escape codes. Every field is filled from the first line: the
//! message reads `starting` until the caller's first, and the ETA `?` until the first step is done. No template
//! here uses colour, and the command-line parser honours `NO_COLOR`, so nothing zero prints is coloured when
//! `NO_COLOR` is set.

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{
    HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike, WeakProgressBar,
};

/// The environment variable that sets the seconds between progress lines when stderr is not a terminal.
pub const INTERVAL_VAR: &str = "ZERO_PROGRESS_SECONDS";
/// Short enough that no phase is silent for long, long enough that an hour's log stays readable.
const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);

/// A progress bar of `len` steps drawn with `template` (an indicatif template; it must be valid): a live bar
/// on a terminal, timed plain lines on anything else.
pub fn bar(len: u64, template: &str) -> ProgressBar {
    let (target, template) = if io::stderr().is_terminal() {
        (ProgressDrawTarget::stderr(), template.to_string())
    } else {
        // A log line carries its time and no bar glyphs.
        let line = format!("[{{elapsed_precise}}] {}", template.replace("{bar:30} ", ""));
        (
            ProgressDrawTarget::term_like_with_hz(Box::new(TimedLines::new(interval())), 1),
            line,
        )
    };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    let style = ProgressStyle::with_template(&template)
        .expect("a valid progress template")
        .with_key("eta", eta);
    bar.set_style(style);
    bar.set_message("starting");
    *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar.downgrade());
    bar
}

/// The time left, or `?` before the first step gives a rate to judge it by (indicatif's own `{eta}` says 0s).
fn eta(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let text = if state.pos() == 0 {
        "?".to_string()
    } else {
        format!("{:#}", HumanDuration(state.eta()))
    };
    let _ = out.write_str(&text);
}

/// The newest bar, while it lives: lines written to the terminal meanwhile go above it ([`suspend`]).
static ACTIVE: Mutex<Option<WeakProgressBar>> = Mutex::new(None);

/// Runs `f` (which writes to the terminal) with the newest live bar cleared away and drawn again after.
pub fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let active = ACTIVE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(WeakProgressBar::upgrade);
    match active {
        Some(bar) if !bar.is_finished() => bar.suspend(f),
        _ => f(),
    }
}

/// Seconds between progress lines off a terminal: `ZERO_PROGRESS_SECONDS`, or 5 when unset or not a number.
pub fn interval() -> Duration {
    std::env::var(INTERVAL_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(DEFAULT_INTERVAL, Duration::from_secs_f64)
}

/// A "terminal" for indicatif that turns each drawn frame into one plain stderr line, skipping frames that come
/// sooner than `every` after the last line and frames that say nothing new.
#[derive(Debug)]
struct TimedLines {
    every: Duration,
    state: Mutex<LineState>,
}

#[derive(Debug, Default)]
struct LineState {
    frame: String,
    last_line: String,
    last_time: Option<Instant>,
}

impl TimedLines {
    fn new(every: Duration) -> Self {
        Self {
            every,
            state: Mutex::new(LineState::default()),
        }
    }

    fn with_state(&self, f: impl FnOnce(&mut LineState)) {
        // A poisoned lock only means another drawing thread panicked; its text is still usable.
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut state);
    }
}

impl TermLike for TimedLines {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> io::Result<()> {
        self.with_state(|st| {
            if !s.trim().is_empty() && !st.frame.is_empty() {
                st.frame.push_str(" | ");
            }
            st.frame.push_str(s.trim());
        });
        Ok(())
    }
    fn write_str(&self, s: &str) -> io::Result<()> {
        self.write_line(s)
    }
    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> io::Result<()> {
        let mut line = None;
        self.with_state(|st| {
            let frame = std::mem::take(&mut st.frame);
            let due = st.last_time.is_none_or(|t| t.elapsed() >= self.every);
            if due && !frame.is_empty() && frame != st.last_line {
                st.last_time = Some(Instant::now());
                st.last_line.clone_from(&frame);
                line = Some(frame);
            }
        });
        match line {
            // A closed stderr must not stop the work the bar reports on.
            Some(line) => writeln!(io::stderr(), "{line}").or(Ok(())),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(term: &TimedLines, texts: &[&str]) -> Vec<String> {
        texts
            .iter()
            .filter_map(|t| {
                term.write_str(t).unwrap();
                let before = term.state.lock().unwrap().last_line.clone();
                term.flush().unwrap();
                let after = term.state.lock().unwrap().last_line.clone();
                (after != before).then_some(after)
            })
            .collect()
    }

    #[test]
    fn lines_are_written_once_per_interval_and_only_when_the_text_changes() {
        let every_time = TimedLines::new(Duration::ZERO);
        assert_eq!(frames(&every_time, &["a 1/3", "a 1/3", "a 2/3"]), ["a 1/3", "a 2/3"]);
        let rarely = TimedLines::new(Duration::from_secs(3600));
        assert_eq!(frames(&rarely, &["b 1/3", "b 2/3", "b 3/3"]), ["b 1/3"]);
    }
}
