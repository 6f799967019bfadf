//! Followers as a Slurm job array: submitted with `sbatch`, watched with `squeue`, cancelled with `scancel`. A
//! task that left the queue ended on purpose only if its heartbeat says so (accounting through `sacct` is not
//! needed, so clusters without it work too).

use super::{FollowerCommand, JobState, Launcher, follower_log, heartbeat_verdict};
use crate::cluster::config::SlurmConfig;
use crate::error::{Context, Result, bail};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use zero_rundir::RunPaths;
use zero_rundir::followers::LaunchedFollower;

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
    /// Checks the set-up ([`preflight`]), then writes the batch script.
    pub fn new(command: FollowerCommand, settings: &SlurmConfig) -> Result<SlurmLauncher> {
        preflight(settings)?;
        SlurmLauncher::with_script(command, settings)
    }

    /// Writes the batch script every task of the array runs (`followers/follower.sbatch`).
    fn with_script(command: FollowerCommand, settings: &SlurmConfig) -> Result<SlurmLauncher> {
        let dir = RunPaths::new(&command.run_dir).followers_dir();
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
        zero_io::write_atomically(&script, text.as_bytes())?;
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
        let log = RunPaths::new(&self.command.run_dir)
            .followers_dir()
            .join("slurm-%A_%a.log");
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

/// The Slurm commands the launcher runs.
const SLURM_COMMANDS: [&str; 4] = ["sbatch", "squeue", "scancel", "sinfo"];

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Refuses, before the run spends any compute, a set-up that cannot work: Slurm's commands missing here, or a
/// partition the cluster does not have.
fn preflight(settings: &SlurmConfig) -> Result<()> {
    let missing: Vec<&str> = SLURM_COMMANDS.into_iter().filter(|p| !on_path(p)).collect();
    if !missing.is_empty() {
        bail!(
            "cluster.launcher = \"slurm\" runs {}, and this host has no {} on PATH: start the run where Slurm's \
             commands are (a login node, or inside an sbatch script), or use cluster.launcher = \"local\"",
            SLURM_COMMANDS.join(", "),
            missing.join(", ")
        );
    }
    let partition = &settings.partition;
    if !partition.is_empty() {
        let listed = slurm("sinfo", &["-h", "-o", "%R"].map(String::from))?;
        let partitions = known_partitions(&listed);
        if !partitions.iter().any(|p| p == partition) {
            bail!(
                "cluster.slurm.partition = {partition:?}: this cluster has no such partition (sinfo lists: {})",
                partitions.join(", ")
            );
        }
    }
    Ok(())
}

/// The partitions of `sinfo -h -o %R` output, each once.
fn known_partitions(sinfo: &str) -> Vec<String> {
    let mut partitions: Vec<String> = sinfo.split_whitespace().map(str::to_string).collect();
    partitions.sort();
    partitions.dedup();
    partitions
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

/// Whether follower `id` left no trace in the run directory: no log (Slurm creates it as the task starts, on
/// the node) and no heartbeat.
fn never_wrote(run_dir: &std::path::Path, id: &str) -> bool {
    !follower_log(run_dir, id).exists() && zero_rundir::followers::read_heartbeat(run_dir, id).is_none()
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
        // All states: a task that ended lately is still listed (for Slurm's MinJobAge), with how it ended.
        let args = ["-h", "-r", "-t", "all", "-o", "%i %T", "-j", &arrays.join(",")].map(String::from);
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
                Some(state @ ("FAILED" | "BOOT_FAIL")) if never_wrote(&self.command.run_dir, &job.follower_id) => {
                    JobState::Unstartable {
                        why: format!(
                            "Slurm says {state}, and it wrote neither its log {} nor a heartbeat: the node it ran \
                             on cannot write into the run directory, which must be on a filesystem that every node \
                             shares (docs/cluster.md); `scontrol show job {}` says more",
                            follower_log(&self.command.run_dir, &job.follower_id).display(),
                            job.job
                        ),
                    }
                }
                Some(other) => {
                    let (_, said) = heartbeat_verdict(&self.command.run_dir, &job.follower_id);
                    JobState::Ended {
                        clean: false,
                        why: format!("Slurm says {other}; {said}"),
                    }
                }
            })
            .collect())
    }

    fn cancel(&mut self, jobs: &[&LaunchedFollower]) -> Result<()> {
        if jobs.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = jobs.iter().map(|j| j.job.clone()).collect();
        slurm("scancel", &ids)?;
        // scancel only asks: the tasks end as their signal is handled (a follower finishes the file it writes).
        // Waiting for them lets the run tidy up after them, and nothing of theirs outlives the run.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            let states = self.poll(jobs)?;
            if states
                .iter()
                .all(|s| !matches!(s, JobState::Pending | JobState::Running))
            {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        Ok(())
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
        let launcher = SlurmLauncher::with_script(command, &settings).unwrap();
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
        assert_eq!(known_partitions("debug\ncpu\ndebug\n"), ["cpu", "debug"]);
        let queue = parse_squeue("12_0 RUNNING\n12_3 PENDING\n");
        assert_eq!(queue.get("12_3").map(String::as_str), Some("PENDING"));
        assert_eq!(queue.len(), 2);
    }

    #[test]
    fn a_follower_that_left_no_log_and_no_heartbeat_never_wrote_into_the_run() {
        let run = tempfile::tempdir().unwrap();
        assert!(never_wrote(run.path(), "slurm-7_0"));
        std::fs::create_dir_all(RunPaths::new(run.path()).followers_dir()).unwrap();
        std::fs::write(follower_log(run.path(), "slurm-7_0"), "zero: error: no such file\n").unwrap();
        assert!(!never_wrote(run.path(), "slurm-7_0"));
        let (clean, why) = heartbeat_verdict(run.path(), "slurm-7_0");
        assert!(!clean);
        assert!(why.ends_with("ends: zero: error: no such file"), "{why}");
    }
}
