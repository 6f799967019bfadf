//! Followers as processes on this machine.

use super::{FollowerCommand, JobState, Launcher, heartbeat_verdict};
use crate::error::{Context, Result};
use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use zero_rundir::RunPaths;
use zero_rundir::followers::LaunchedFollower;

pub struct LocalLauncher {
    command: FollowerCommand,
    /// The processes this session started, by job id (their PID); adopted ones are looked at through /proc.
    children: HashMap<String, Child>,
}

impl LocalLauncher {
    pub fn new(command: FollowerCommand) -> LocalLauncher {
        LocalLauncher {
            command,
            children: HashMap::new(),
        }
    }

    fn spawn(&mut self, slot: u32) -> Result<(String, String)> {
        let follower_id = format!("local-{slot}-{:08x}", zero_io::unique_token() as u32);
        let logs = RunPaths::new(&self.command.run_dir).followers_dir();
        std::fs::create_dir_all(&logs)?;
        let log_path = logs.join(format!("{follower_id}.log"));
        let log = std::fs::File::create(&log_path).with_context(|| format!("creating {}", log_path.display()))?;
        let child = Command::new(&self.command.program)
            .args(&self.command.args)
            .env("ZERO_FOLLOWER_ID", &follower_id)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .with_context(|| format!("starting {}", self.command.program.display()))?;
        let job = child.id().to_string();
        self.children.insert(job.clone(), child);
        Ok((job, follower_id))
    }
}

/// Whether process `pid`, not a child of this one, is alive and still a follower of `run_dir`.
fn adopted_is_alive(pid: &str, run_dir: &std::path::Path) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return false;
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let zombie = stat
        .rsplit(')')
        .next()
        .is_some_and(|rest| rest.trim_start().starts_with('Z'));
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    !zombie && args.contains(&b"--follow".as_slice()) && args.contains(&run_dir.as_os_str().as_encoded_bytes())
}

impl Launcher for LocalLauncher {
    fn launch(&mut self, slots: &[u32]) -> Result<Vec<(String, String)>> {
        slots.iter().map(|&slot| self.spawn(slot)).collect()
    }

    fn poll(&mut self, jobs: &[&LaunchedFollower]) -> Result<Vec<JobState>> {
        let mut states = Vec::new();
        for job in jobs {
            let state = match self.children.get_mut(&job.job) {
                Some(child) => match child.try_wait()? {
                    None => JobState::Running,
                    Some(status) => {
                        self.children.remove(&job.job);
                        let (said_clean, said) = heartbeat_verdict(&self.command.run_dir, &job.follower_id);
                        JobState::Ended {
                            clean: status.success() && said_clean,
                            why: format!("exited with {status}, {said}"),
                        }
                    }
                },
                None if adopted_is_alive(&job.job, &self.command.run_dir) => JobState::Running,
                None => {
                    let (clean, why) = heartbeat_verdict(&self.command.run_dir, &job.follower_id);
                    JobState::Ended { clean, why }
                }
            };
            states.push(state);
        }
        Ok(states)
    }

    fn cancel(&mut self, jobs: &[&LaunchedFollower]) -> Result<()> {
        for job in jobs {
            if let Ok(pid) = job.job.parse::<i32>()
                && (self.children.contains_key(&job.job) || adopted_is_alive(&job.job, &self.command.run_dir))
            {
                // SAFETY: kill(2) with a PID this launcher started (or checked to be its follower) and SIGTERM.
                unsafe {
                    libc::kill(pid, libc::SIGTERM);
                }
            }
        }
        // Reap the children; one that ignores SIGTERM for 10 s is killed.
        let deadline = Instant::now() + Duration::from_secs(10);
        for job in jobs {
            if let Some(mut child) = self.children.remove(&job.job) {
                while child.try_wait()?.is_none() {
                    if Instant::now() > deadline {
                        let _ = child.kill();
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
        Ok(())
    }
}
