//! Merging many small shards into one. Self-play writes a shard per finished game so that a killed worker loses
//! none, which leaves thousands of small files per generation; [`merge_shards`] replaces a set of them by one
//! shard with the same rows in the same order, and without a moment where a position is lost or counted twice:
//!
//! 1. the merged games file, then the merged positions file, are written atomically (the positions file, once
//!    renamed into place, marks the merged shard complete, as for any shard); its file metadata lists the shards
//!    it replaces under [`MERGED_FROM_KEY`];
//! 2. then the sources are deleted, each positions file before its games file.
//!
//! A process killed in step 1 leaves the sources and a temporary (or an orphan games file), which
//! [`crate::clean_incomplete`] removes; one killed in step 2 leaves some sources beside the complete merged shard,
//! and [`crate::clean_incomplete`] deletes the ones the merged shard lists. Merged shards' names end in
//! [`MERGED_SUFFIX`], so that cleaning a directory opens only their footers.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use parquet::file::metadata::KeyValue;

use crate::digest::DigestedWriter;
use crate::error::DataError;
use crate::reader::{READ_BATCH_ROWS, ShardFile, shard_name};
use crate::records::ShardHeader;
use crate::schema;
use crate::schema::GAMES_SUFFIX;
use crate::writer::{ShardSummary, check_shard_name, shard_paths};
use zero_io::{TEMP_MARKER, remove_if_abandoned, remove_if_unheld, write_atomically_held};

/// File metadata key of a merged shard: the names of the shards it replaces, as a JSON array of strings.
pub const MERGED_FROM_KEY: &str = "zero.merged_from";
/// The end of every merged shard's name.
pub const MERGED_SUFFIX: &str = "-merged";

/// Merges the complete shards `sources` of `dir` (by name, oldest first: their rows follow each other in this
/// order) into the new shard `name`, then deletes them. Every source must have the same header, which the merged
/// shard keeps. The merged positions file takes the newest source's modification time, so that the replay window
/// orders it as it ordered its newest part. Nothing is deleted unless the merged shard is complete; a source that
/// cannot be read fails the merge naming it, with every source left in place.
pub fn merge_shards(dir: &Path, name: &str, sources: &[String]) -> Result<ShardSummary, DataError> {
    check_shard_name(dir, name)?;
    let (positions_path, games_path) = shard_paths(dir, name);
    let refuse = |reason: String| DataError::InvalidRecord {
        path: positions_path.clone(),
        reason,
    };
    if !name.ends_with(MERGED_SUFFIX) {
        return Err(refuse(format!("a merged shard's name must end in {MERGED_SUFFIX:?}")));
    }
    if sources.is_empty() {
        return Err(refuse("nothing to merge".to_string()));
    }
    for (i, source) in sources.iter().enumerate() {
        check_shard_name(dir, source)?;
        if source == name || sources[..i].contains(source) {
            return Err(refuse(format!("source {source:?} is named twice")));
        }
    }
    if positions_path.exists() {
        return Err(DataError::AlreadyExists { path: positions_path });
    }

    let mut positions = Vec::with_capacity(sources.len());
    let mut games = Vec::with_capacity(sources.len());
    let mut newest = SystemTime::UNIX_EPOCH;
    for source in sources {
        let (p, g) = shard_paths(dir, source);
        let (p, g) = (ShardFile::open(&p)?, ShardFile::open_games(&g)?);
        let header = positions.first().map_or(p.header(), |first: &ShardFile| first.header());
        for file in [&p, &g] {
            if file.header() != header {
                return Err(DataError::Incompatible {
                    path: file.path().to_path_buf(),
                    reason: format!("its header differs from the other shards to merge: {:?}", file.header()),
                });
            }
        }
        let modified = fs::metadata(p.path())
            .and_then(|m| m.modified())
            .map_err(|e| DataError::io(p.path(), e))?;
        newest = newest.max(modified);
        positions.push(p);
        games.push(g);
    }
    let header = positions[0].header().clone();
    let merged_from = serde_json::to_string(sources).expect("names always serialize");

    // The games file stays locked until its positions file is in place, as a shard writer's does.
    let (game_rows, games_file) = write_merged(&games_path, &header, &merged_from, &games)?;
    let (position_rows, _) = write_merged(&positions_path, &header, &merged_from, &positions)?;
    drop(games_file);
    for path in [&games_path, &positions_path] {
        File::options()
            .write(true)
            .open(path)
            .and_then(|f| f.set_modified(newest))
            .map_err(|e| DataError::io(path, e))?;
    }
    for source in sources {
        remove_shard(dir, source).map_err(|(path, e)| DataError::io(&path, e))?;
    }
    ShardSummary::of_written(positions_path, games_path, game_rows, position_rows)
}

/// Writes the rows of `files`, in order, into one file at `path` (atomically); returns the rows written and the
/// file, still locked.
fn write_merged(
    path: &Path,
    header: &ShardHeader,
    merged_from: &str,
    files: &[ShardFile],
) -> Result<(usize, File), DataError> {
    let extra = vec![KeyValue::new(MERGED_FROM_KEY.to_string(), merged_from.to_string())];
    let properties = schema::writer_properties_with(header, extra);
    let mut failure = None;
    let mut rows = 0;
    let written = write_atomically_held(path, |out| {
        let copy = || -> Result<(), DataError> {
            // The first source's columns that every source has are the merged file's: the sources of a
            // generation that a newer zero finished lack the columns it added, and the merged file then lacks
            // them too (readers know what such a file means). A source with other types fails naming it.
            let first = files[0].arrow_schema();
            let kept: Vec<usize> = (0..first.fields().len())
                .filter(|&i| files.iter().all(|f| f.has_column(first.field(i).name())))
                .collect();
            let schema = Arc::new(first.project(&kept).map_err(|e| DataError::corrupt(path, e.into()))?);
            let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
            let mut writer =
                DigestedWriter::new(out, schema.clone(), properties).map_err(|e| DataError::corrupt(path, e))?;
            for file in files {
                for batch in file.batches(0..file.rows(), READ_BATCH_ROWS, &names)? {
                    let batch = batch?;
                    writer.write(&batch).map_err(|e| DataError::corrupt(file.path(), e))?;
                    rows += batch.num_rows();
                }
            }
            writer.close().map_err(|e| DataError::corrupt(path, e))
        };
        copy().map_err(|e| {
            failure = Some(e);
            io::Error::other("merging failed")
        })
    });
    match (written, failure) {
        (Ok(file), _) => Ok((rows, file)),
        (Err(_), Some(e)) => Err(e),
        (Err(e), None) => Err(DataError::io(path, e)),
    }
}

/// Deletes both files of shard `name` (the positions file first, so that a crash leaves at worst an orphan games
/// file); files already gone are fine.
fn remove_shard(dir: &Path, name: &str) -> Result<Vec<PathBuf>, (PathBuf, io::Error)> {
    let (positions, games) = shard_paths(dir, name);
    let mut removed = Vec::new();
    for path in [positions, games] {
        match fs::remove_file(&path) {
            Ok(()) => removed.push(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err((path, e)),
        }
    }
    Ok(removed)
}

/// Deletes the sources a complete merged shard of `dir` still has beside it (a merge killed while deleting
/// them); returns the removed paths. A merged shard whose footer cannot be read is left alone with its sources:
/// they still hold its rows.
pub fn remove_merged_sources(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(own_name) = shard_name(&path).filter(|name| name.ends_with(MERGED_SUFFIX)) else {
            continue;
        };
        let Ok(file) = ShardFile::open(&path) else { continue };
        let Some(Ok(sources)) = file
            .metadata_value(MERGED_FROM_KEY)
            .map(serde_json::from_str::<Vec<String>>)
        else {
            continue;
        };
        // The list is only trusted for shards of the merged one's run and generation: an edited or foreign
        // `merged_from` must not delete anything else.
        for source in sources
            .iter()
            .filter(|s| check_shard_name(dir, s).is_ok() && **s != own_name)
            .filter(|s| same_run_and_generation(dir, s, file.header()))
        {
            removed.extend(
                remove_shard(dir, source)
                    .map_err(|(path, e)| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?,
            );
        }
    }
    Ok(removed)
}

/// Whether what is left of shard `name` (its positions file, or else its games file) was written by `header`'s
/// run for its generation.
fn same_run_and_generation(dir: &Path, name: &str, header: &ShardHeader) -> bool {
    let (positions, games) = shard_paths(dir, name);
    let found = ShardFile::open(&positions).or_else(|_| ShardFile::open_games(&games));
    found.is_ok_and(|f| f.header().run == header.run && f.header().generation == header.generation)
}

/// Makes a data directory consistent after a crash: removes abandoned temporaries (names containing
/// [`TEMP_MARKER`] that no live writer holds, [`remove_if_abandoned`]), orphan games files (a games file whose
/// positions file was never renamed into place) and the sources a complete merged shard still has beside it
/// ([`crate::merge_shards`] killed while deleting them). Returns the removed paths, sorted. Followers may go on
/// writing meanwhile: their temporaries are locked, and so is a games file until its positions file is in place
/// ([`remove_if_unheld`]); a temporary of another host is never touched, nor a games file of a shard that
/// `others` says another host writes (its writer's lock may not show across machines).
pub fn clean_incomplete(dir: &Path, others: impl Fn(&str) -> bool) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let Some(file_name) = path.file_name().and_then(OsStr::to_str) else {
            continue;
        };
        if file_name.contains(TEMP_MARKER) {
            if remove_if_abandoned(&path)? {
                removed.push(path);
            }
            continue;
        }
        if let Some(name) = file_name.strip_suffix(GAMES_SUFFIX)
            && !others(name)
        {
            // Looked for once no writer holds the games file: by then its positions file is there or never comes.
            let positions = shard_paths(dir, name).0;
            if remove_if_unheld(&path, || positions.exists())? {
                removed.push(path);
            }
        }
    }
    removed.extend(remove_merged_sources(dir)?);
    removed.sort();
    Ok(removed)
}
