//! The `[cluster]` table: self-play followers that `zero run` launches, watches, restarts and stops itself,
//! as local processes or as a Slurm job array (docs/cluster.md).

use serde::{Deserialize, Serialize};

pub use crate::error::ConfigError;

/// Who starts the followers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LauncherKind {
    /// Processes on this machine.
    Local,
    /// A Slurm job array (`sbatch`), watched with `squeue`.
    Slurm,
}

impl LauncherKind {
    pub fn name(self) -> &'static str {
        match self {
            LauncherKind::Local => "local",
            LauncherKind::Slurm => "slurm",
        }
    }
}

/// The `[cluster]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClusterConfig {
    /// `local` or `slurm`.
    pub launcher: LauncherKind,
    /// Followers to keep playing beside the run's own self-play (0: none).
    pub followers: u32,
    /// Self-play worker threads of each follower (0: the run's `selfplay.workers`).
    pub follower_workers: usize,
    /// Games a follower plays between looks at the run's newest network.
    pub follower_batch_games: usize,
    /// Restarts of one follower after failures before the run gives up on followers with an error.
    pub max_restarts: u32,
    /// Seconds before a failed follower is started again, doubled at each of its restarts (at most 600).
    pub restart_backoff_seconds: f64,
    /// Seconds between looks at the followers.
    pub poll_seconds: f64,
    /// What a Slurm job of followers asks for.
    pub slurm: SlurmConfig,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            launcher: LauncherKind::Local,
            followers: 0,
            follower_workers: 0,
            follower_batch_games: 16,
            max_restarts: 5,
            restart_backoff_seconds: 10.0,
            poll_seconds: 10.0,
            slurm: SlurmConfig::default(),
        }
    }
}

/// The `[cluster.slurm]` table: what a user writes in an `sbatch` script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlurmConfig {
    /// `--partition` (empty: the cluster's default).
    pub partition: String,
    /// `--account` (empty: the user's default).
    pub account: String,
    /// `--time`, as Slurm writes it (`2:00:00`, `1-00:00:00`; empty: the partition's limit). A follower that
    /// reaches it is started again.
    pub time_limit: String,
    /// `--cpus-per-task`.
    pub cpus_per_task: u32,
    /// `--gpus-per-task` (0: none).
    pub gpus_per_task: u32,
    /// Further `sbatch` arguments, each one word (`--qos=low`, `--constraint=avx512`).
    pub extra_args: Vec<String>,
}

impl Default for SlurmConfig {
    fn default() -> Self {
        SlurmConfig {
            partition: String::new(),
            account: String::new(),
            time_limit: String::new(),
            cpus_per_task: 2,
            gpus_per_task: 0,
            extra_args: Vec::new(),
        }
    }
}

impl ClusterConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.follower_batch_games == 0 {
            return Err(ConfigError(
                "cluster.follower_batch_games must be at least 1".to_string(),
            ));
        }
        for (key, value, least) in [
            ("cluster.restart_backoff_seconds", self.restart_backoff_seconds, 0.0),
            ("cluster.poll_seconds", self.poll_seconds, 0.1),
        ] {
            if !(value.is_finite() && value >= least && value <= 3600.0) {
                return Err(ConfigError(format!(
                    "{key} must be between {least} and 3600, not {value}"
                )));
            }
        }
        if self.followers > 1000 {
            return Err(ConfigError(format!(
                "cluster.followers must be at most 1000, not {}",
                self.followers
            )));
        }
        if self.slurm.cpus_per_task == 0 {
            return Err(ConfigError(
                "cluster.slurm.cpus_per_task must be at least 1".to_string(),
            ));
        }
        let words = [&self.slurm.partition, &self.slurm.account, &self.slurm.time_limit];
        if let Some(bad) = words
            .into_iter()
            .chain(&self.slurm.extra_args)
            .find(|w| w.contains(char::is_whitespace))
        {
            return Err(ConfigError(format!(
                "cluster.slurm: {bad:?} must be one word (no spaces or newlines)"
            )));
        }
        if let Some(bad) = self.slurm.extra_args.iter().find(|a| !a.starts_with('-')) {
            return Err(ConfigError(format!(
                "cluster.slurm.extra_args: {bad:?} is not an option (options start with -)"
            )));
        }
        Ok(())
    }
}
