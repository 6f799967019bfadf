//! Followers as a Slurm job array: submitted with `sbatch`, watched with `squeue`, cancelled with `scancel`. A
//! task that left the queue ended on purpose only if its heartbeat says so (accounting through `sacct` is not
//! needed, so clusters without it work too).

use super::{FollowerCommand, JobState, Launcher, heartbeat_verdict};
use crate::cluster::config::SlurmConfig;
use anyhow::{Context, Result, bail};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use zero_report::followers::{HEARTBEAT_DIR, LaunchedFollower};

pub struct SlurmLauncher {
    command: FollowerCommand,
    settings: SlurmConfig,
    script: PathBuf,
}

/// `text` quoted for the shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

impl SlurmLauncher {
    /// Writes the batch script every task of the array runs (`followers/follower.sbatch`).
    pub fn new(command: FollowerCommand, settings: &SlurmConfig) -> Result<SlurmLauncher> {
        let dir = command.run_dir.join(HEARTBEAT_DIR);
        std::fs::create_dir_all(&dir)?;
        let script = dir.join("follower.sbatch");
        let call: Vec<String> = std::iter::once(command.program.display().to_string())
            .chain(command.args.iter().cloned())
            .map(|a| quoted(&a))
            .collect();
        let text = format!(
            "#!/bin/sh\n# Written by zero run: one self-play follower of {} (docs/cluster.md).\n\
             export ZERO_FOLLOWER_ID=\"slurm-${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}\"\nexec {}\n",
            command.run_dir.display(),
            call.join(" ")
        );
        zero_games::files::write_atomically(&script, text.as_bytes())?;
        Ok(SlurmLauncher {
            command,
            settings: settings.clone(),
            script,
        })
    }

    /// The `sbatch` arguments of an array of `slots`.
    fn sbatch_args(&self, slots: &[u32]) -> Vec<String> {
        let s = &self.settings;
        let name = self
            .command
            .run_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let log = self.command.run_dir.join(HEARTBEAT_DIR).join("slurm-%A_%a.log");
        let array: Vec<String> = slots.iter().map(u32::to_string).collect();
        let mut args = vec![
            "--parsable".to_string(),
            format!("--array={}", array.join(",")),
            format!("--job-name=zero-follow-{name}"),
            format!("--output={}", log.display()),
            format!("--cpus-per-task={}", s.cpus_per_task),
        ];
        for (flag, value) in [
            ("--partition", &s.partition),
            ("--account", &s.account),
            ("--time", &s.time_limit),
        ] {
            if !value.is_empty() {
                args.push(format!("{flag}={value}"));
            }
        }
        if s.gpus_per_task > 0 {
            args.push(format!("--gpus-per-task={}", s.gpus_per_task));
        }
        args.extend(s.extra_args.iter().cloned());
        args.push(self.script.display().to_string());
        args
    }
}

/// Runs a Slurm command; its stdout, or an error with its stderr.
fn slurm(program: &str, args: &[String]) -> Result<String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .with_context(|| format!("running {program} (is Slurm installed and on PATH?)"))?;
    if !out.status.success() {
        bail!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The state of each array task in `squeue -h -r -o "%i %T"` output, by task id (`JOB_TASK`).
fn parse_squeue(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter_map(|line| line.split_once(' '))
        .map(|(id, state)| (id.trim().to_string(), state.trim().to_string()))
        .collect()
}

impl Launcher for SlurmLauncher {
    fn launch(&mut self, slots: &[u32]) -> Result<Vec<(String, String)>> {
        let out = slurm("sbatch", &self.sbatch_args(slots))?;
        // `--parsable` prints `JOBID` or `JOBID;CLUSTER`.
        let job = out.trim().split(';').next().unwrap_or_default().to_string();
        if job.is_empty() || !job.chars().all(|c| c.is_ascii_digit()) {
            bail!("sbatch answered {out:?}, not a job id");
        }
        Ok(slots
            .iter()
            .map(|slot| (format!("{job}_{slot}"), format!("slurm-{job}_{slot}")))
            .collect())
    }

    fn poll(&mut self, jobs: &[&LaunchedFollower]) -> Result<Vec<JobState>> {
        if jobs.is_empty() {
            return Ok(Vec::new());
        }
        let mut arrays: Vec<&str> = jobs
            .iter()
            .map(|j| j.job.split('_').next().unwrap_or_default())
            .collect();
        arrays.sort();
        arrays.dedup();
        let args = ["-h", "-r", "-o", "%i %T", "-j", &arrays.join(",")].map(String::from);
        let queue = match slurm("squeue", &args) {
            Ok(text) => parse_squeue(&text),
            // Jobs long gone are no longer known to squeue: none of them is queued.
            Err(e) if e.to_string().contains("Invalid job id") => HashMap::new(),
            Err(e) => return Err(e),
        };
        Ok(jobs
            .iter()
            .map(|job| match queue.get(&job.job).map(String::as_str) {
                Some("PENDING" | "CONFIGURING" | "REQUEUED" | "RESIZING" | "SUSPENDED") => JobState::Pending,
                Some("RUNNING" | "COMPLETING" | "STAGE_OUT" | "SIGNALING") => JobState::Running,
                Some("COMPLETED") | None => {
                    let (clean, why) = heartbeat_verdict(&self.command.run_dir, &job.follower_id);
                    JobState::Ended { clean, why }
                }
                Some(other) => JobState::Ended {
                    clean: false,
                    why: format!("Slurm says {other}"),
                },
            })
            .collect())
    }

    fn cancel(&mut self, jobs: &[&LaunchedFollower]) -> Result<()> {
        if jobs.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = jobs.iter().map(|j| j.job.clone()).collect();
        slurm("scancel", &ids).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbatch_gets_the_users_settings_and_squeue_lines_are_read_by_task() {
        let dir = tempfile::tempdir().unwrap();
        let command = FollowerCommand {
            program: "/opt/zero/bin/zero".into(),
            args: vec!["selfplay".into(), "--follow".into(), "/runs/it's".into()],
            run_dir: dir.path().to_path_buf(),
        };
        let settings = SlurmConfig {
            partition: "cpu".into(),
            time_limit: "2:00:00".into(),
            gpus_per_task: 1,
            extra_args: vec!["--qos=low".into()],
            ..SlurmConfig::default()
        };
        let launcher = SlurmLauncher::new(command, &settings).unwrap();
        let args = launcher.sbatch_args(&[0, 3]);
        for want in [
            "--array=0,3",
            "--partition=cpu",
            "--time=2:00:00",
            "--gpus-per-task=1",
            "--qos=low",
        ] {
            assert!(args.iter().any(|a| a == want), "{want} missing from {args:?}");
        }
        assert!(!args.iter().any(|a| a.starts_with("--account")), "{args:?}");
        let script = std::fs::read_to_string(&launcher.script).unwrap();
        assert!(
            script.contains("exec '/opt/zero/bin/zero' 'selfplay' '--follow' '/runs/it'\\''s'"),
            "{script}"
        );
        let queue = parse_squeue("12_0 RUNNING\n12_3 PENDING\n");
        assert_eq!(queue.get("12_3").map(String::as_str), Some("PENDING"));
        assert_eq!(queue.len(), 2);
    }
}
