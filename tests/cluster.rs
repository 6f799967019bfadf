//! Followers that `zero run` launches itself (`[cluster]`), for real: local processes, and a Slurm job array on
//! a single-node Slurm cluster that the test starts (munged, slurmctld, slurmd) in a temporary directory. A
//! follower killed mid-generation is started again, a killed run adopts its live followers when it resumes,
//! every finished game is counted once, and nothing is left running or queued.

mod support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::{scratch, text};
use zero_rundir::followers::{LaunchRecord, read_heartbeats, read_launch_record};

/// A short Bagh Chal run with two followers, watched closely.
fn run_command(run_dir: &Path, launcher: &str, generations: u32) -> Command {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/baghchal-quick.toml");
    let mut command = Command::new(env!("CARGO_BIN_EXE_zero"));
    command.arg("run").arg(config).arg("--run-dir").arg(run_dir);
    let settings = [
        format!("run.generations={generations}"),
        "run.games_per_generation=24".to_string(),
        "run.eval_games=2".to_string(),
        "run.eval_openings=2".to_string(),
        "run.eval_equal_time_games=0".to_string(),
        "selfplay.games_in_flight=4".to_string(),
        "selfplay.workers=1".to_string(),
        format!("cluster.launcher=\"{launcher}\""),
        "cluster.followers=2".to_string(),
        "cluster.follower_workers=1".to_string(),
        "cluster.follower_batch_games=4".to_string(),
        "cluster.poll_seconds=0.3".to_string(),
        "cluster.restart_backoff_seconds=0.5".to_string(),
        "cluster.slurm.cpus_per_task=1".to_string(),
    ];
    for s in settings {
        command.args(["--set", &s]);
    }
    command
}

/// Waits up to `limit` for `done` to hold; panics naming `what` otherwise.
fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn record(run_dir: &Path) -> LaunchRecord {
    read_launch_record(run_dir).ok().flatten().unwrap_or_default()
}

/// The followers of `run_dir` that are processes on this machine.
fn follower_processes(run_dir: &Path) -> Vec<u32> {
    let wanted = run_dir.canonicalize().unwrap_or(run_dir.to_path_buf());
    let wanted = wanted.as_os_str().as_encoded_bytes().to_vec();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let args = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let args: Vec<&[u8]> = args.split(|b| *b == 0).collect();
            args.contains(&b"--follow".as_slice()) && args.contains(&wanted.as_slice())
        })
        .collect()
}

/// Every game of the run's shards, by id: none is there twice.
fn assert_each_game_once(run_dir: &Path) -> usize {
    let set = zero_data::ShardSet::scan(&run_dir.join("data")).unwrap();
    let mut seen = HashSet::new();
    for shard in set.shards() {
        let (_, games) = zero_data::read_games(&shard.games_path).unwrap();
        for game in games {
            assert!(
                seen.insert(game.game_id.clone()),
                "game {} is in the data twice",
                game.game_id
            );
        }
    }
    seen.len()
}

/// `zero status --json`: the producers of self-play and the heartbeats.
fn status(run_dir: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(["status", "--json"])
        .arg(run_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn producers(status: &serde_json::Value) -> HashSet<String> {
    let generations = status["selfplay"].as_array().unwrap();
    generations
        .iter()
        .flat_map(|g| g["producers"].as_array().unwrap().iter())
        .map(|p| p["producer"].as_str().unwrap().to_string())
        .collect()
}

fn start(command: &mut Command, log: &Path) -> Child {
    let out = std::fs::File::create(log).unwrap();
    command.stdout(out.try_clone().unwrap()).stderr(out).spawn().unwrap()
}

#[test]
fn local_followers_are_restarted_adopted_by_a_resumed_run_and_stopped() {
    let tmp = scratch("cluster-local");
    let run_dir = tmp.path().join("run");
    let mut run = start(&mut run_command(&run_dir, "local", 4), &tmp.path().join("first.log"));
    wait_for("two followers' heartbeats", Duration::from_secs(120), || {
        read_heartbeats(&run_dir).0.len() >= 2 && record(&run_dir).followers.len() == 2
    });
    // A follower killed mid-generation is started again, and the restart is counted.
    let victim = record(&run_dir).followers[0].clone();
    let pid: i32 = victim.job.parse().unwrap();
    // SAFETY: kill(2) of a follower process the run started, by the PID it recorded.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    wait_for("the killed follower's restart", Duration::from_secs(60), || {
        let f = &record(&run_dir).followers[0];
        f.restarts == 1 && f.job != victim.job
    });
    // The run killed: its followers live on for a while, and the resumed run adopts them.
    run.kill().unwrap();
    run.wait().unwrap();
    let alive: Vec<String> = record(&run_dir).followers.iter().map(|f| f.job.clone()).collect();
    assert!(
        !follower_processes(&run_dir).is_empty(),
        "the followers died with the run"
    );
    let resumed = Command::new(env!("CARGO_BIN_EXE_zero"))
        .arg("run")
        .arg("--run-dir")
        .arg(&run_dir)
        .output()
        .unwrap();
    let said = text(&resumed.stdout);
    assert!(resumed.status.success(), "{said}\n{}", text(&resumed.stderr));
    assert!(
        alive
            .iter()
            .any(|job| said.contains(&format!("followers: adopted {job} "))),
        "no follower of {alive:?} adopted:\n{said}"
    );
    // Nothing left running; every game counted once; the status names the run and its followers.
    wait_for("the followers to stop", Duration::from_secs(15), || {
        follower_processes(&run_dir).is_empty()
    });
    assert!(
        record(&run_dir).followers.iter().all(|f| f.state != "running"),
        "{:?}",
        record(&run_dir)
    );
    let games = assert_each_game_once(&run_dir);
    let status = status(&run_dir);
    let producers = producers(&status);
    // The killed follower may have died before its first game; its successor and the other follower played.
    let followers = producers.iter().filter(|p| p.starts_with("follow-")).count();
    assert!(producers.contains("run") && followers >= 2, "{producers:?}");
    let counted: u64 = status["selfplay"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["producers"].as_array().unwrap().iter())
        .map(|p| p["games"].as_u64().unwrap())
        .sum();
    assert_eq!(counted as usize, games);
    assert_eq!(status["driven"], false);
    assert!(status["followers"].as_array().unwrap().len() >= 3);
}

#[test]
fn an_interrupted_run_cancels_its_followers_before_it_exits() {
    let tmp = scratch("cluster-interrupt");
    let run_dir = tmp.path().join("run");
    let mut run = start(&mut run_command(&run_dir, "local", 50), &tmp.path().join("run.log"));
    wait_for("two followers' heartbeats", Duration::from_secs(120), || {
        read_heartbeats(&run_dir).0.len() >= 2
    });
    let pid = run.id() as i32;
    // SAFETY: kill(2) of the run this test started.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let started = Instant::now();
    let status = run.wait().unwrap();
    // Normally under 2 s. The limit is a hang guard with room for fsyncs on a disk busy beside the test (it was
    // 20 s); that the followers were cancelled rather than waited for, their heartbeats below show.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the run took {:?} to stop",
        started.elapsed()
    );
    assert_eq!(
        status.code(),
        Some(130),
        "{}",
        std::fs::read_to_string(tmp.path().join("run.log")).unwrap()
    );
    assert!(
        follower_processes(&run_dir).is_empty(),
        "followers outlived the interrupted run"
    );
    assert!(
        record(&run_dir).followers.iter().all(|f| f.state == "cancelled"),
        "{:?}",
        record(&run_dir)
    );
    // The run and its followers ended between writes: nothing half-written is left for a later session.
    let temporaries: Vec<PathBuf> = walk(&run_dir)
        .into_iter()
        .filter(|p| zero_io::is_temporary(p))
        .collect();
    assert!(temporaries.is_empty(), "{temporaries:?}");
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// A single-node Slurm cluster in a temporary directory, stopped when dropped.
struct SlurmCluster {
    dir: PathBuf,
    conf: PathBuf,
}

fn checked(command: &mut Command, what: &str) {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// `scripts/slurm-local.sh ACTION DIR`.
fn slurm_local(action: &str, dir: &Path) -> Command {
    let mut command = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-local.sh"));
    command.arg(action).arg(dir).stdin(Stdio::null());
    command
}

impl SlurmCluster {
    /// Starts the cluster (scripts/slurm-local.sh, which fails saying why where Slurm is not installed: this test
    /// is never skipped).
    fn start(dir: &Path) -> SlurmCluster {
        checked(&mut slurm_local("start", dir), "starting a single-node Slurm cluster");
        SlurmCluster {
            conf: dir.join("slurm.conf"),
            dir: dir.to_path_buf(),
        }
    }

    /// A Slurm command of this cluster.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf).stdin(Stdio::null());
        command
    }

    fn queue(&self) -> String {
        text(
            &self
                .command("squeue")
                .args(["-h", "-r", "-o", "%i %T"])
                .output()
                .unwrap()
                .stdout,
        )
    }
}

impl Drop for SlurmCluster {
    fn drop(&mut self) {
        let _ = slurm_local("stop", &self.dir).output();
    }
}

/// A run whose set-up cannot work stops with an error naming it before it has played a game.
fn assert_refused_before_any_game(command: &mut Command, run_dir: &Path, said: &str) {
    let out = command.output().unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success() && stderr.contains(said), "{stderr}");
    let data = std::fs::read_dir(run_dir.join("data")).map_or(0, |d| d.count());
    assert_eq!(data, 0, "it played before refusing");
}

#[test]
fn a_slurm_run_without_slurms_commands_is_refused_before_any_compute() {
    let tmp = scratch("cluster-no-slurm");
    let run_dir = tmp.path().join("run");
    let empty = tmp.path().join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let mut command = run_command(&run_dir, "slurm", 1);
    command.env("PATH", &empty);
    assert_refused_before_any_game(
        &mut command,
        &run_dir,
        "this host has no sbatch, squeue, scancel, sinfo on PATH",
    );
}

#[test]
fn slurm_followers_are_resubmitted_when_cancelled_and_leave_nothing_queued() {
    let tmp = scratch("cluster-slurm");
    let cluster = SlurmCluster::start(&tmp.path().join("slurm"));
    // A partition the cluster does not have is named before any compute.
    let refused = tmp.path().join("refused");
    let mut command = run_command(&refused, "slurm", 1);
    command
        .env("SLURM_CONF", &cluster.conf)
        .args(["--set", "cluster.slurm.partition=\"gpu\""]);
    assert_refused_before_any_game(
        &mut command,
        &refused,
        "cluster.slurm.partition = \"gpu\": this cluster has no such partition (sinfo lists: debug)",
    );
    let run_dir = tmp.path().join("run");
    let mut command = run_command(&run_dir, "slurm", 4);
    command.env("SLURM_CONF", &cluster.conf);
    let mut run = start(&mut command, &tmp.path().join("run.log"));
    wait_for("two Slurm followers' heartbeats", Duration::from_secs(180), || {
        read_heartbeats(&run_dir).0.len() >= 2
    });
    let victim = record(&run_dir).followers[0].clone();
    assert!(victim.job.contains('_'), "not an array task: {victim:?}");
    checked(cluster.command("scancel").arg(&victim.job), "scancel");
    wait_for("the cancelled task's resubmission", Duration::from_secs(90), || {
        let f = &record(&run_dir).followers[0];
        f.restarts == 1 && f.job != victim.job
    });
    let status = run.wait().unwrap();
    let log = std::fs::read_to_string(tmp.path().join("run.log")).unwrap();
    assert!(status.success(), "{log}");
    assert!(log.contains(&format!("{} (slot 0) failed", victim.job)), "{log}");
    wait_for("an empty queue", Duration::from_secs(30), || {
        cluster.queue().trim().is_empty()
    });
    assert_each_game_once(&run_dir);
    let producers = producers(&self::status(&run_dir));
    assert!(
        producers.iter().filter(|p| p.starts_with("follow-")).count() >= 2,
        "{producers:?}"
    );
}
