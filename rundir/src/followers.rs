//! The files through which a run and its self-play followers see each other across machines (docs/cluster.md):
//! each follower's heartbeat (`followers/ID.json`, written by that follower alone) and the run's record of the
//! followers it launched (`cluster.json`, written by the process driving the run alone). Both are replaced
//! atomically (a rename within their directory, atomic on NFS too), so a reader sees a whole file or the last one.

use crate::layout::RunPaths;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub use crate::unix_now;

/// What a follower is doing, as it last said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FollowerState {
    /// Playing games (or waiting between batches).
    Running,
    /// Stopped because the run has done all its generations.
    Finished,
    /// Stopped because no process drove the run for its patience.
    Stopped,
}

impl FollowerState {
    /// Whether a follower that said this and then ended ended on purpose (not killed, not failed).
    pub fn is_clean_end(self) -> bool {
        self != FollowerState::Running
    }
}

/// A follower's heartbeat: who and where it is, what it has done, and when it last said so.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Heartbeat {
    /// The follower's id: `slurm-JOB_TASK` under Slurm, the launcher's id for a local follower, else
    /// `HOST-PID-TOKEN`.
    pub id: String,
    pub host: String,
    pub pid: u32,
    pub started_unix: f64,
    /// When it wrote this (its own clock: clocks of different hosts differ).
    pub last_unix: f64,
    /// The generation its latest games counted towards.
    pub generation: u32,
    /// Games and positions written since it started.
    pub games: u64,
    pub positions: u64,
    pub state: FollowerState,
}

/// The heartbeat file of follower `id` in `run_dir`.
pub fn heartbeat_path(run_dir: &Path, id: &str) -> PathBuf {
    RunPaths::new(run_dir).followers_dir().join(format!("{id}.json"))
}

/// Writes a follower's heartbeat, atomically.
pub fn write_heartbeat(run_dir: &Path, beat: &Heartbeat) -> std::io::Result<()> {
    zero_io::create_dir_durably(&RunPaths::new(run_dir).followers_dir())?;
    let text = serde_json::to_string_pretty(beat).expect("a heartbeat serializes");
    zero_io::write_atomically(&heartbeat_path(run_dir, &beat.id), text.as_bytes())
}

/// The heartbeat of follower `id`, if it has written a readable one.
pub fn read_heartbeat(run_dir: &Path, id: &str) -> Option<Heartbeat> {
    let text = std::fs::read_to_string(heartbeat_path(run_dir, id)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Every follower's heartbeat in `run_dir`, by id; files that cannot be read are named in the second list.
pub fn read_heartbeats(run_dir: &Path) -> (Vec<Heartbeat>, Vec<String>) {
    let (mut beats, mut bad) = (Vec::new(), Vec::new());
    let entries = std::fs::read_dir(RunPaths::new(run_dir).followers_dir())
        .into_iter()
        .flatten()
        .flatten();
    for path in entries.map(|e| e.path()) {
        if path.extension().is_none_or(|e| e != "json") || zero_io::is_temporary(&path) {
            continue;
        }
        match std::fs::read_to_string(&path).map(|t| serde_json::from_str::<Heartbeat>(&t)) {
            Ok(Ok(beat)) => beats.push(beat),
            Ok(Err(e)) => bad.push(format!("{}: {e}", path.display())),
            Err(e) => bad.push(format!("{}: {e}", path.display())),
        }
    }
    beats.sort_by(|a, b| a.id.cmp(&b.id));
    (beats, bad)
}

/// One follower the run launched: its slot, its id with the launcher, and how often it was restarted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaunchedFollower {
    /// Its slot, `0..cluster.followers`; a restarted follower keeps its slot.
    pub slot: u32,
    /// The launcher's id: a process id (`local`) or a Slurm job array task (`1234_0`).
    pub job: String,
    /// The id it writes its heartbeat under.
    pub follower_id: String,
    /// Restarts after a failure (a follower that ended on purpose is started again without counting).
    pub restarts: u32,
    pub started_unix: f64,
    /// The launcher's last word on it: `running`, `pending`, `ended`, `failed`, `cancelled`.
    pub state: String,
}

/// The run's record of its followers (`cluster.json`): what `zero run` adopts on resume instead of launching twice.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct LaunchRecord {
    /// `local` or `slurm`.
    pub launcher: String,
    pub followers: Vec<LaunchedFollower>,
    /// Why the run stopped relaunching, when it gave up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gave_up: Option<String>,
}

/// The run's record of its followers, if it has one.
pub fn read_launch_record(run_dir: &Path) -> Result<Option<LaunchRecord>, crate::RunDirError> {
    let path = RunPaths::new(run_dir).launch_record_path();
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| crate::RunDirError::Damaged { path, source }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(crate::RunDirError::Read { path, source }),
    }
}

/// Writes the run's record of its followers, atomically.
pub fn write_launch_record(run_dir: &Path, record: &LaunchRecord) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(record).expect("a launch record serializes");
    zero_io::write_atomically(&RunPaths::new(run_dir).launch_record_path(), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heartbeats_and_the_launch_record_round_trip_and_bad_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let beat = Heartbeat {
            id: "slurm-12_1".into(),
            host: "node7".into(),
            pid: 42,
            started_unix: 1.0,
            last_unix: 2.0,
            generation: 3,
            games: 16,
            positions: 900,
            state: FollowerState::Running,
        };
        write_heartbeat(dir.path(), &beat).unwrap();
        std::fs::write(dir.path().join("followers/torn.json"), "{\"id\": ").unwrap();
        let (beats, bad) = read_heartbeats(dir.path());
        assert_eq!(beats, vec![beat.clone()]);
        assert!(bad.len() == 1 && bad[0].contains("torn.json"), "{bad:?}");
        assert_eq!(read_heartbeat(dir.path(), "slurm-12_1"), Some(beat));
        assert_eq!(read_launch_record(dir.path()).unwrap(), None);
        let record = LaunchRecord {
            launcher: "slurm".into(),
            followers: vec![LaunchedFollower {
                slot: 0,
                job: "12_0".into(),
                follower_id: "slurm-12_0".into(),
                restarts: 1,
                started_unix: 5.0,
                state: "running".into(),
            }],
            gave_up: None,
        };
        write_launch_record(dir.path(), &record).unwrap();
        assert_eq!(read_launch_record(dir.path()).unwrap(), Some(record));
        std::fs::write(RunPaths::new(dir.path()).launch_record_path(), "[").unwrap();
        assert!(
            read_launch_record(dir.path())
                .unwrap_err()
                .to_string()
                .contains("cluster.json")
        );
    }
}
