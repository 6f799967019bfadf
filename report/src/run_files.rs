//! Facts of a run directory's layout that readers of a run need without the run crate (`docs/run.md`).

use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// Refuses a path that holds no run (no `state.json` or `config.toml`): commands that read a run say so
/// rather than report on, or create, an empty one.
pub fn require_run_dir(root: &Path) -> Result<()> {
    if !root.join("state.json").exists() && !root.join("config.toml").exists() {
        bail!(
            "{} is not a run directory (no state.json or config.toml)",
            root.display()
        );
    }
    Ok(())
}

/// Whether a process drives the run in `root` now: holds `run.lock` (a lock probed without waiting).
pub fn is_driven(root: &Path) -> bool {
    let Ok(lock) = std::fs::File::open(root.join("run.lock")) else {
        return false;
    };
    match lock.try_lock_shared() {
        Ok(()) => false,
        Err(std::fs::TryLockError::WouldBlock) => true,
        // A file system without locks: take the run as driven, as a follower did before it could tell.
        Err(std::fs::TryLockError::Error(_)) => true,
    }
}

/// The start of the names of generation `generation`'s shards.
pub fn shard_prefix(generation: u32) -> String {
    format!("g{generation:04}-")
}

/// The finished `.jsonl` files of `dir` and of its folders one level down, sorted (none if it cannot be read).
pub fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()) {
        if path.is_dir() {
            files.extend(
                std::fs::read_dir(&path)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path()),
            );
        } else {
            files.push(path);
        }
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl") && !zero_games::files::is_temporary(p));
    files.sort();
    files
}
