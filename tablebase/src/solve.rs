//! Solving the sliding phase into a tablebase file, so that an interrupted solve can be restarted without harm.
//!
//! Each layer, once solved, is kept in `OUT.partial` (a tablebase file holding the layers solved so far,
//! written atomically after every layer); a restarted solve opens it and goes on below its last layer. The
//! finished tablebase is written atomically to `OUT` and the partial file is removed. A partial file that does
//! not open (damaged, another format) is set aside and the solve starts over: it is never trusted partly.

use crate::file::{Header, TablebaseError};
use crate::index::{LAYERS, LayerIndex};
use crate::table::Table;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a solve reports as it goes.
#[derive(Debug)]
pub enum SolveEvent<'a> {
    /// Layers found solved in the partial file of an earlier solve.
    Resumed { layers: Vec<u32>, partial: &'a Path },
    /// An earlier partial file that could not be used, and why; the solve starts over.
    Discarded { partial: &'a Path, reason: String },
    /// Layer `captured` (of `positions` positions) is being solved: depth `depth` finished, `decided` decided.
    Depth {
        captured: u32,
        positions: usize,
        depth: u16,
        decided: usize,
    },
    /// Layer `captured` is solved and kept.
    Layer { captured: u32, seconds: f64, longest: u16 },
}

/// The partial file of a solve writing `out`.
pub fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Solves every layer not already in `out`'s partial file, writes the tablebase to `out` and returns its
/// header.
pub fn solve_to_file(out: &Path, events: &mut dyn FnMut(SolveEvent)) -> Result<Header, TablebaseError> {
    let partial = partial_path(out);
    let mut table = resume(&partial, events)?;
    let mut next: Option<Vec<u16>> = table.held().last().map(|(c, _)| table.expand_layer(c));
    let first_missing = table.held().last().map_or(LAYERS, |(c, _)| c);
    for c in (0..first_missing).rev() {
        let started = Instant::now();
        let positions = LayerIndex::new(c).positions();
        let values = crate::slide::solve_layer(c, next.as_deref(), &mut |depth, decided| {
            events(SolveEvent::Depth {
                captured: c,
                positions,
                depth,
                decided,
            })
        })?;
        table.insert_solved(c, &values);
        if c > 0 {
            table.write(&partial)?;
        }
        events(SolveEvent::Layer {
            captured: c,
            seconds: started.elapsed().as_secs_f64(),
            longest: longest_distance(&values),
        });
        next = Some(values);
    }
    drop(next);
    let header = table.write(out)?;
    match std::fs::remove_file(&partial) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(TablebaseError::Io {
            path: partial,
            source: e,
        }),
        _ => Ok(header),
    }
}

/// The layers an earlier solve left in `partial`, or none.
fn resume(partial: &Path, events: &mut dyn FnMut(SolveEvent)) -> Result<Table, TablebaseError> {
    match Table::open_partial(partial) {
        Ok((table, header)) => {
            let layers = header.layers.iter().map(|l| l.captured).collect();
            events(SolveEvent::Resumed { layers, partial });
            Ok(table)
        }
        Err(TablebaseError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => Ok(Table::empty()),
        Err(e) => {
            events(SolveEvent::Discarded {
                partial,
                reason: e.to_string(),
            });
            std::fs::remove_file(partial).map_err(|source| TablebaseError::Io {
                path: partial.into(),
                source,
            })?;
            Ok(Table::empty())
        }
    }
}

/// The longest distance to the end among a layer's decided positions.
fn longest_distance(values: &[u16]) -> u16 {
    use crate::retro::Value;
    values
        .iter()
        .filter_map(|&code| match Value::decode(code) {
            Some(Value::Win(d) | Value::Loss(d)) => Some(d),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The finished tablebase at `path`, solved there first when no finished one is (an unusable file is solved
/// again): what tests and benchmarks that need a table call.
pub fn solved_at(path: &Path) -> Result<Table, TablebaseError> {
    match Table::open(path) {
        Ok((table, _)) => Ok(table),
        Err(_) => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|source| TablebaseError::Io {
                    path: dir.into(),
                    source,
                })?;
            }
            solve_to_file(path, &mut |_| {})?;
            Ok(Table::open(path)?.0)
        }
    }
}
