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

/// The host a follower's shard name gives (`g0003-follow-HOST-PID-TOKEN-…`), none for the run's own shards.
pub fn follower_shard_host(shard_name: &str) -> Option<&str> {
    let follower = shard_name.split_once('-')?.1.strip_prefix("follow-")?;
    follower.split('-').next().filter(|h| !h.is_empty())
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
    files.retain(|p| p.extension().is_some_and(|e| e == "jsonl") && !zero_io::is_temporary(p));
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_shard_names_its_host_and_the_runs_own_do_not() {
        assert_eq!(
            follower_shard_host("g0003-follow-node7-4411-0aa1b2c3-00004-00000"),
            Some("node7")
        );
        assert_eq!(follower_shard_host("g0003-000012-00000"), None);
        assert_eq!(follower_shard_host("g0003-000000-00000-merged"), None);
        assert_eq!(follower_shard_host("g0003-follow-"), None);
    }
}
