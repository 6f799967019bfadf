//! `zero run` as a user drives it: a second process is kept out of a run directory, a run killed with SIGKILL in
//! the middle of self-play resumes without losing a finished game, and the finished run has its checkpoints,
//! summaries and report.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SETTINGS: &[&str] = &[
    "--set",
    "run.generations=2",
    "--set",
    "run.games_per_generation=60",
    "--set",
    "run.eval_games=4",
    "--set",
    "run.eval_openings=4",
    "--set",
    "selfplay.games_in_flight=4",
];

fn zero() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_zero"));
    cmd.env_remove("LD_LIBRARY_PATH");
    cmd
}

fn start(dir: &Path) -> Child {
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/baghchal-quick.toml");
    zero()
        .arg("run")
        .arg(config)
        .arg("--run-dir")
        .arg(dir)
        .args(SETTINGS)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("zero runs")
}

/// Finished self-play games on disk (complete shards: a positions file beside each games file).
fn finished_games(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir.join("data")) else {
        return Vec::new();
    };
    let mut shards: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".games.parquet"))
        .filter(|p| {
            p.with_file_name(p.file_name().unwrap().to_string_lossy().replace(".games", ""))
                .exists()
        })
        .collect();
    shards.sort();
    shards
}

#[test]
fn a_killed_run_resumes_without_losing_games_and_a_second_process_is_refused() {
    let dir = std::env::temp_dir().join(format!("zero-run-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut first = start(&dir);

    // Wait for some finished games of generation 0, then look at the lock, then kill -9.
    let deadline = Instant::now() + Duration::from_secs(300);
    while finished_games(&dir).len() < 5 {
        assert!(Instant::now() < deadline, "no self-play games appeared");
        assert!(
            first.try_wait().unwrap().is_none(),
            "the run ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let second = zero().arg("run").arg("--run-dir").arg(&dir).output().unwrap();
    assert!(!second.status.success());
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        err.contains("in use by another process") && err.contains("pid"),
        "{err}"
    );

    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    let before = finished_games(&dir);
    assert!(!before.is_empty());

    let resumed = zero().arg("run").arg("--run-dir").arg(&dir).output().unwrap();
    assert!(
        resumed.status.success(),
        "resume failed: {}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let after = finished_games(&dir);
    for shard in &before {
        assert!(after.contains(shard), "finished game {} was lost", shard.display());
    }
    let gen0 = after
        .iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("g0000-"))
        .count();
    assert!(gen0 >= 60, "generation 0 has {gen0} games, expected its 60");
    for file in [
        "checkpoints/gen-0001.safetensors",
        "checkpoints/gen-0002.safetensors",
        "report/index.html",
    ] {
        assert!(dir.join(file).exists(), "{file} missing");
    }
    let summaries = std::fs::read_to_string(dir.join("generations.jsonl")).unwrap();
    assert_eq!(summaries.lines().count(), 2, "{summaries}");
    let state = std::fs::read_to_string(dir.join("state.json")).unwrap();
    assert!(state.contains("\"generation\": 2"), "{state}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("data"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".zero-tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    // A finished run resumed again does nothing more, and says where its report is.
    let again = zero().arg("run").arg("--run-dir").arg(&dir).output().unwrap();
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("report/index.html"));
    // A different config for the same directory is refused, naming the keys that may not change...
    let other = zero()
        .arg("run")
        .arg("--run-dir")
        .arg(&dir)
        .args(["--set", "network.blocks=9"])
        .output()
        .unwrap();
    assert!(!other.status.success());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("different config (network.blocks differ"), "{err}");
    // ... while how long the run goes on may change, and the run records it.
    let extended = zero()
        .arg("run")
        .arg("--run-dir")
        .arg(&dir)
        .args(["--set", "run.generations=1"])
        .output()
        .unwrap();
    assert!(
        extended.status.success(),
        "{}",
        String::from_utf8_lossy(&extended.stderr)
    );
    let recorded = std::fs::read_to_string(dir.join("config.toml")).unwrap();
    assert!(recorded.contains("generations = 1"), "{recorded}");
    // The evaluation games: the baselines' pairing played once, each generation's own pairings.
    for file in [
        "games/baselines/random-vs-greedy.jsonl",
        "games/gen-0001/vs-random.jsonl",
        "games/gen-0002/vs-gen1.jsonl",
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(text.lines().count(), 4, "{file}");
    }
    assert!(!dir.join("games/gen-0001/vs-gen0.jsonl").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
