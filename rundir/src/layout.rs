//! Where everything in a run directory lives (`docs/run.md`): every path of the layout is named here and
//! nowhere else.
//!
//! ```text
//! RUN_DIR/
//!   config.toml        the resolved config (every default written out)
//!   version.txt        the zero version and git revision that made the run
//!   lease/             the lease of the process driving the run ([`crate::lease`]): NNNNNNNN.json, renewed
//!                      every second; another process takes the run over only once it is released or dead
//!   state.json         the next generation and phase (written atomically after each phase)
//!   data/              self-play shards: g0003-….parquet (+ .games.parquet), one finished game per shard while
//!                      the generation plays, merged into one g0003-…-merged shard once it is finished
//!   checkpoints/       gen-0004.safetensors (+ .train.safetensors: optimizer and data cursor)
//!   games/             evaluation games, one file per pairing: baselines/random-vs-greedy.jsonl (played once),
//!                      gen-0004/vs-random.jsonl, gen-0004/vs-gen3.jsonl
//!   equal-time/        the headline match at equal thinking time, kept out of the Elo pool:
//!                      gen-0004-ms100.jsonl
//!   openings.json      the evaluation openings, generated once
//!   metrics.jsonl      one line per training step
//!   generations.jsonl  one summary line per generation
//!   cluster.json       the followers the run launched ([`crate::followers`])
//!   followers/         the followers' heartbeats and logs ([`crate::followers`])
//!   report/            index.html and the plots
//!   tensorboard/       the TensorBoard event file
//!   zero.log           the run's log
//! ```

use crate::RunDirError;
use std::path::{Path, PathBuf};

/// The folder of the lease ([`crate::lease`]).
pub const LEASE_DIR: &str = "lease";
/// The folder of the followers' heartbeats and logs ([`crate::followers`]).
pub const HEARTBEAT_DIR: &str = "followers";
/// The run's log file.
pub const LOG_FILE: &str = "zero.log";

/// The paths of the run directory at `root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunPaths {
    root: PathBuf,
}

impl RunPaths {
    pub fn new(root: impl Into<PathBuf>) -> RunPaths {
        RunPaths { root: root.into() }
    }
    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.toml")
    }
    pub fn version_path(&self) -> PathBuf {
        self.root.join("version.txt")
    }
    pub fn state_path(&self) -> PathBuf {
        self.root.join("state.json")
    }
    pub fn metrics_path(&self) -> PathBuf {
        self.root.join("metrics.jsonl")
    }
    pub fn generations_path(&self) -> PathBuf {
        self.root.join("generations.jsonl")
    }
    pub fn openings_path(&self) -> PathBuf {
        self.root.join("openings.json")
    }
    pub fn log_path(&self) -> PathBuf {
        self.root.join(LOG_FILE)
    }
    pub fn data_dir(&self) -> PathBuf {
        self.root.join("data")
    }
    pub fn checkpoints_dir(&self) -> PathBuf {
        self.root.join("checkpoints")
    }
    pub fn games_dir(&self) -> PathBuf {
        self.root.join("games")
    }
    pub fn equal_time_dir(&self) -> PathBuf {
        self.root.join("equal-time")
    }
    pub fn report_dir(&self) -> PathBuf {
        self.root.join("report")
    }
    pub fn tensorboard_dir(&self) -> PathBuf {
        self.root.join("tensorboard")
    }
    pub fn lease_dir(&self) -> PathBuf {
        self.root.join(LEASE_DIR)
    }
    pub fn followers_dir(&self) -> PathBuf {
        self.root.join(HEARTBEAT_DIR)
    }
    /// The run's record of the followers it launched.
    pub fn launch_record_path(&self) -> PathBuf {
        self.root.join("cluster.json")
    }
    /// The lock file of zero versions before the lease, which a run removes.
    pub fn old_lock_path(&self) -> PathBuf {
        self.root.join("run.lock")
    }
    /// The folders a run makes when it starts.
    pub fn created_dirs(&self) -> [PathBuf; 5] {
        [
            self.data_dir(),
            self.checkpoints_dir(),
            self.games_dir(),
            self.equal_time_dir(),
            self.report_dir(),
        ]
    }
    /// The folders that hold finished games: evaluation matches, and the equal-time match.
    pub fn match_dirs(&self) -> [PathBuf; 2] {
        [self.games_dir(), self.equal_time_dir()]
    }
    /// Network `generation` (made by the training of generation `generation - 1`).
    pub fn checkpoint(&self, generation: u32) -> PathBuf {
        self.checkpoints_dir().join(format!("gen-{generation:04}.safetensors"))
    }
}

/// Refuses a path that holds no run (no `state.json` or `config.toml`): commands that read a run say so
/// rather than report on, or create, an empty one.
pub fn require_run_dir(root: &Path) -> Result<(), RunDirError> {
    let paths = RunPaths::new(root);
    if !paths.state_path().exists() && !paths.config_path().exists() {
        return Err(RunDirError::NotARunDir {
            path: root.to_path_buf(),
        });
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
