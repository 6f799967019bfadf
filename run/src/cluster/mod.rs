//! Followers that the run launches itself (`[cluster]`): `zero selfplay --follow RUN_DIR` processes started
//! through a [`Launcher`] (local processes, or a Slurm job array), watched by a thread of the run, started again
//! when one fails (with a backoff and a limit, then a clear error) and stopped when the run ends. Their ids live
//! in the run directory's `cluster.json`, so a resumed run adopts the ones still alive instead of launching
//! twice. Local and Slurm followers share everything here but how a follower is started, looked at and
//! cancelled. docs/cluster.md has the contract of the shared run directory.

pub mod config;
mod local;
mod slurm;

use crate::error::{Result, bail};
pub use config::{ClusterConfig, LauncherKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use zero_rundir::followers::{self, LaunchRecord, LaunchedFollower, read_heartbeat, unix_now};

/// How a launched follower stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobState {
    /// Waiting for resources (Slurm).
    Pending,
    Running,
    /// Gone: `clean` when it stopped on purpose (its heartbeat says so, or it exited with status 0).
    Ended {
        clean: bool,
        why: String,
    },
    /// Failed in a way no restart mends (a node that cannot see the run directory): the run stops at once.
    Unstartable {
        why: String,
    },
}

/// How followers are started, looked at and cancelled.
pub trait Launcher: Send {
    /// Starts followers in `slots`; returns, for each, its job id and the id it writes its heartbeat under.
    fn launch(&mut self, slots: &[u32]) -> Result<Vec<(String, String)>>;
    /// The state of each follower, by job id.
    fn poll(&mut self, jobs: &[&LaunchedFollower]) -> Result<Vec<JobState>>;
    /// Stops followers.
    fn cancel(&mut self, jobs: &[&LaunchedFollower]) -> Result<()>;
}

/// What starting a follower needs: the program and the run it follows.
#[derive(Debug, Clone)]
pub struct FollowerCommand {
    /// The `zero` program (the front door where it is installed beside this one, so that a node finds its own
    /// libtorch), then the arguments.
    pub program: PathBuf,
    pub args: Vec<String>,
    pub run_dir: PathBuf,
}

impl FollowerCommand {
    pub fn for_run(config: &ClusterConfig, run_dir: &Path) -> Result<FollowerCommand> {
        let exe = std::env::current_exe()?;
        let front = exe.with_file_name("zero");
        let program = if front.is_file() { front } else { exe };
        let run_dir = std::fs::canonicalize(run_dir)?;
        let mut args = vec![
            "selfplay".to_string(),
            "--follow".to_string(),
            run_dir.display().to_string(),
            "--games".to_string(),
            config.follower_batch_games.to_string(),
        ];
        if config.follower_workers > 0 {
            args.extend(["--workers".to_string(), config.follower_workers.to_string()]);
        }
        Ok(FollowerCommand { program, args, run_dir })
    }
}

/// The launcher of `config`.
fn launcher(config: &ClusterConfig, command: FollowerCommand) -> Result<Box<dyn Launcher>> {
    Ok(match config.launcher {
        LauncherKind::Local => Box::new(local::LocalLauncher::new(command)),
        LauncherKind::Slurm => Box::new(slurm::SlurmLauncher::new(command, &config.slurm)?),
    })
}

/// The followers of a run while it is driven: a watching thread, stopped by [`Followers::finish`].
pub struct Followers {
    stop: Arc<AtomicBool>,
    watcher: Option<std::thread::JoinHandle<Result<()>>>,
}

impl Followers {
    /// Whether this watcher ends the process on SIGINT and SIGTERM (when it has followers to cancel first).
    pub fn watch_interrupts(&self) -> bool {
        self.watcher.is_some()
    }

    /// Adopts the run's followers still alive, launches the missing ones and starts watching them; nothing when
    /// `cluster.followers` is 0 (followers a previous session launched are then cancelled).
    pub fn start(cluster: &ClusterConfig, run_dir: &Path) -> Result<Followers> {
        let cluster = cluster.clone();
        let previous = followers::read_launch_record(run_dir)?;
        if cluster.followers == 0 && previous.as_ref().is_none_or(|r| r.followers.is_empty()) {
            return Ok(Followers {
                stop: Arc::new(AtomicBool::new(true)),
                watcher: None,
            });
        }
        let command = FollowerCommand::for_run(&cluster, run_dir)?;
        let mut watch = Watch {
            launcher: launcher(&cluster, command)?,
            record: LaunchRecord {
                launcher: cluster.launcher.name().to_string(),
                ..LaunchRecord::default()
            },
            retry_at: Vec::new(),
            config: cluster,
            run_dir: run_dir.to_path_buf(),
        };
        watch.adopt(previous)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        // An interrupted run cancels its followers before it exits (rather than leave Slurm jobs to notice later).
        let interrupted = Arc::new(AtomicBool::new(false));
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(signal, interrupted.clone())?;
        }
        let watcher = std::thread::Builder::new()
            .name("followers".to_string())
            .spawn(move || watch.run(&stopping, &interrupted))?;
        Ok(Followers {
            stop,
            watcher: Some(watcher),
        })
    }

    /// Stops watching and cancels the followers still running; the error of a watch that gave up.
    pub fn finish(mut self) -> Result<()> {
        self.stop.store(true, Ordering::SeqCst);
        match self.watcher.take() {
            Some(handle) => handle
                .join()
                .unwrap_or_else(|_| bail!("the followers' watcher panicked")),
            None => Ok(()),
        }
    }
}

/// The watching thread's state.
struct Watch {
    launcher: Box<dyn Launcher>,
    record: LaunchRecord,
    /// Slots waiting for a restart, and when.
    retry_at: Vec<(u32, Instant)>,
    config: ClusterConfig,
    run_dir: PathBuf,
}

impl Watch {
    /// Keeps the followers of `previous` that are alive and were launched the same way, cancels those beyond
    /// `cluster.followers`, and launches the missing slots.
    fn adopt(&mut self, previous: Option<LaunchRecord>) -> Result<()> {
        if let Some(previous) = previous.filter(|p| p.launcher == self.config.launcher.name()) {
            let jobs: Vec<&LaunchedFollower> = previous.followers.iter().collect();
            let states = self.launcher.poll(&jobs)?;
            for (job, state) in previous.followers.iter().zip(states) {
                let alive = matches!(state, JobState::Running | JobState::Pending);
                if alive && job.slot < self.config.followers {
                    crate::log::say(format!(
                        "followers: adopted {} (slot {}) of the previous session",
                        job.job, job.slot
                    ));
                    self.record.followers.push(job.clone());
                } else if alive {
                    self.launcher.cancel(&[job])?;
                }
            }
        }
        let missing: Vec<u32> = (0..self.config.followers)
            .filter(|slot| !self.record.followers.iter().any(|f| f.slot == *slot))
            .collect();
        self.launch(&missing, 0)
    }

    /// Launches `slots`, each with `restarts` restarts behind it, and records them.
    fn launch(&mut self, slots: &[u32], restarts: u32) -> Result<()> {
        if slots.is_empty() {
            return self.save();
        }
        let launched = self.launcher.launch(slots)?;
        for (&slot, (job, follower_id)) in slots.iter().zip(launched) {
            crate::log::say(format!(
                "followers: launched {job} (slot {slot}, {})",
                self.config.launcher.name()
            ));
            self.record.followers.retain(|f| f.slot != slot);
            self.record.followers.push(LaunchedFollower {
                slot,
                job,
                follower_id,
                restarts,
                started_unix: unix_now(),
                state: "running".to_string(),
            });
        }
        self.record.followers.sort_by_key(|f| f.slot);
        self.save()
    }

    fn save(&self) -> Result<()> {
        followers::write_launch_record(&self.run_dir, &self.record)?;
        Ok(())
    }

    /// Watches until `stop`, then cancels what is left. On an interrupt (SIGINT, SIGTERM) it cancels them and
    /// ends the process as the signal would have (status 130 or 143; every file of the run is written atomically).
    fn run(mut self, stop: &AtomicBool, interrupted: &AtomicBool) -> Result<()> {
        let poll = Duration::from_secs_f64(self.config.poll_seconds);
        let mut outcome = Ok(());
        let mut next = Instant::now() + poll;
        while !stop.load(Ordering::SeqCst) {
            if interrupted.load(Ordering::SeqCst) {
                crate::log::say("followers: interrupted: cancelling them, then stopping");
                let _ = self.cancel_all();
                crate::exit_between_writes(130);
            }
            std::thread::sleep(Duration::from_millis(100).min(poll));
            if Instant::now() < next {
                continue;
            }
            next = Instant::now() + poll;
            if let Err(e) = self.look() {
                warn(format!("followers: {e:#}; stopping them"));
                self.record.gave_up = Some(format!("{e:#}"));
                outcome = Err(e);
                break;
            }
        }
        self.cancel_all()?;
        outcome
    }

    /// One look: records each follower's state, schedules failed ones for a restart and starts those due.
    fn look(&mut self) -> Result<()> {
        let jobs: Vec<LaunchedFollower> = self.record.followers.clone();
        let live: Vec<&LaunchedFollower> = jobs.iter().filter(|f| is_watched(f)).collect();
        let states = self.launcher.poll(&live)?;
        for (job, state) in live.iter().zip(states) {
            let word = match &state {
                JobState::Pending => "pending",
                JobState::Running => "running",
                JobState::Ended { clean: true, .. } => "ended",
                JobState::Ended { clean: false, .. } | JobState::Unstartable { .. } => "failed",
            };
            if let JobState::Unstartable { why } = &state {
                bail!("follower {} (slot {}) could not start: {why}", job.job, job.slot);
            }
            if let JobState::Ended { clean, why } = &state {
                self.ended(job, *clean, why)?;
            }
            if let Some(f) = self.record.followers.iter_mut().find(|f| f.job == job.job) {
                f.state = word.to_string();
            }
        }
        let now = Instant::now();
        let due: Vec<(u32, Instant)> = self.retry_at.iter().copied().filter(|(_, at)| *at <= now).collect();
        self.retry_at.retain(|(_, at)| *at > now);
        for (slot, _) in due {
            let restarts = self
                .record
                .followers
                .iter()
                .find(|f| f.slot == slot)
                .map_or(0, |f| f.restarts);
            self.launch(&[slot], restarts)?;
        }
        self.save()
    }

    /// A follower ended: one that stopped on purpose starts again at once; a failed one after its backoff,
    /// unless it has failed too often.
    fn ended(&mut self, job: &LaunchedFollower, clean: bool, why: &str) -> Result<()> {
        let restarts = job.restarts + u32::from(!clean);
        if restarts > self.config.max_restarts {
            bail!(
                "follower {} (slot {}) failed {} times, the last time: {why} (cluster.max_restarts = {})",
                job.job,
                job.slot,
                restarts,
                self.config.max_restarts
            );
        }
        let delay = if clean {
            0.0
        } else {
            (self.config.restart_backoff_seconds * 2f64.powi(restarts as i32 - 1)).min(600.0)
        };
        let say: fn(String) = if clean { |line| crate::log::say(line) } else { warn };
        say(format!(
            "followers: {} (slot {}) {}: {why}; starting it again in {delay:.0} s",
            job.job,
            job.slot,
            if clean { "ended" } else { "failed" }
        ));
        if let Some(f) = self.record.followers.iter_mut().find(|f| f.job == job.job) {
            f.restarts = restarts;
        }
        self.retry_at
            .push((job.slot, Instant::now() + Duration::from_secs_f64(delay)));
        Ok(())
    }

    /// Cancels every follower still running or pending, and records it.
    fn cancel_all(&mut self) -> Result<()> {
        self.retry_at.clear();
        let jobs: Vec<LaunchedFollower> = self
            .record
            .followers
            .iter()
            .filter(|f| is_watched(f))
            .cloned()
            .collect();
        let refs: Vec<&LaunchedFollower> = jobs.iter().collect();
        let cancelled = self.launcher.cancel(&refs);
        for f in &mut self.record.followers {
            if is_watched(f) {
                f.state = "cancelled".to_string();
            }
        }
        self.save()?;
        cancelled
    }
}

fn warn(line: String) {
    tracing::warn!("{line}");
}

/// Whether a follower is still the launcher's concern (not already seen ended or cancelled).
fn is_watched(follower: &LaunchedFollower) -> bool {
    matches!(follower.state.as_str(), "running" | "pending")
}

/// The log of follower `id` (its stdout and stderr: the launcher's, or Slurm's `--output`).
pub(crate) fn follower_log(run_dir: &Path, id: &str) -> PathBuf {
    zero_rundir::RunPaths::new(run_dir)
        .followers_dir()
        .join(format!("{id}.log"))
}

/// Whether follower `id`, now gone, said it stopped on purpose; and what it said last (for one gone before its
/// first heartbeat, the last line of its log: the reason it could not start).
pub(crate) fn heartbeat_verdict(run_dir: &Path, id: &str) -> (bool, String) {
    match read_heartbeat(run_dir, id) {
        Some(beat) if beat.state.is_clean_end() => (true, format!("it said {:?}", beat.state)),
        Some(beat) => (false, format!("gone without a word after {} games", beat.games)),
        None => {
            let log = follower_log(run_dir, id);
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            match text.lines().rev().find(|l| !l.trim().is_empty()) {
                Some(last) => {
                    let last: String = last.trim().chars().take(300).collect();
                    (
                        false,
                        format!("gone before its first heartbeat; {} ends: {last}", log.display()),
                    )
                }
                None => (false, "gone before its first heartbeat".to_string()),
            }
        }
    }
}
