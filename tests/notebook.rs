//! What a notebook user does with a run directory, run as written: every Python and SQL block of
//! docs/data.md's "Reading from Python and DuckDB" section, in pandas and DuckDB, against a real `zero run`
//! (whose progress, piped, comes as plain lines), and its TensorBoard event file read by TensorBoard itself.

use std::path::Path;
use std::process::Command;

fn zero() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_zero"));
    cmd.env_remove("LD_LIBRARY_PATH");
    cmd
}

/// The fenced blocks of `lang` in the section of `doc` that starts with `heading`.
fn blocks(doc: &str, heading: &str, lang: &str) -> Vec<String> {
    let start = doc
        .find(heading)
        .unwrap_or_else(|| panic!("docs/data.md has no {heading:?}"));
    let section = &doc[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let fence = format!("```{lang}\n");
    section
        .split(&fence)
        .skip(1)
        .map(|rest| rest[..rest.find("```").expect("a closed block")].to_string())
        .collect()
}

/// Runs the docs' Python, then each SQL statement in DuckDB, in `run_dir`; prints one line per statement.
const HARNESS: &str = r#"
import os, sys
import duckdb
os.chdir(sys.argv[1])
python, sql = sys.argv[2], sys.argv[3]
scope = {}
exec(python, scope)
assert len(scope["positions"]) > 0 and len(scope["games"]) > 0, "no rows"
metrics = scope["metrics"]
assert {"generation", "elapsed_seconds", "unix_time", "step", "loss"} <= set(metrics.columns), metrics.columns
assert (metrics.generation == 1).all() and metrics.elapsed_seconds.is_monotonic_increasing, metrics.head()
assert len(scope["losses"]) == 1 and len(scope["generations"]) == 1
assert scope["first_moves"].notna().all() and len(scope["first_moves"]) > 0, scope["first_moves"]
assert scope["x"].shape == tuple(scope["header"]["input_shape"])
statements = [s for s in sql.split(";") if any(l.strip() and not l.strip().startswith("--") for l in s.splitlines())]
for statement in statements:
    rows = duckdb.sql(statement).fetchall()
    print(len(rows), " ".join(statement.split())[:70])
"#;

#[test]
fn every_query_of_the_data_docs_runs_on_a_real_run_directory() {
    let dir = tempfile::tempdir().unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/baghchal-quick.toml");
    let settings = [
        "run.generations=1",
        "run.games_per_generation=16",
        "run.eval_games=2",
        "run.eval_openings=2",
        "run.eval_equal_time_games=0",
        "selfplay.games_in_flight=4",
    ];
    let mut run = zero();
    run.arg("run").arg(&config).arg("--run-dir").arg(dir.path());
    for s in settings {
        run.args(["--set", s]);
    }
    // stderr is a pipe here, as under nohup: progress comes as plain timed lines (every change, with 0 s).
    let out = run.env("ZERO_PROGRESS_SECONDS", "0").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.contains("] self-play ") && l.contains("/16 games"))
            && !stderr.contains('\x1b'),
        "no plain progress line:\n{stderr}"
    );
    // The run's log holds its summary lines and diagnostics with their times.
    let log = std::fs::read_to_string(dir.path().join("zero.log")).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains("INFO zero_run::summary: generation   1:")),
        "{log}"
    );
    assert!(
        log.lines().all(|l| l.starts_with("20") && l.contains('Z')),
        "each line has its time: {log}"
    );
    let actions = zero().args(["actions", "baghchal"]).output().unwrap();
    assert!(actions.status.success());
    std::fs::write(dir.path().join("actions.tsv"), &actions.stdout).unwrap();

    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/data.md")).unwrap();
    let heading = "## Reading from Python and DuckDB";
    let (python, sql) = (blocks(&doc, heading, "python"), blocks(&doc, heading, "sql"));
    assert!(!python.is_empty() && !sql.is_empty(), "the section lost its blocks");
    let interpreter = std::env::var("ZERO_VENV_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let out = Command::new(&interpreter)
        .args(["-c", HARNESS])
        .arg(dir.path())
        .arg(python.concat())
        .arg(sql.concat())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {interpreter} (scripts/setup.sh installs pandas and duckdb): {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    tensorboard_reads_the_events(&interpreter, dir.path());
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "one line per SQL statement:\n{stdout}");
    for line in lines {
        let (rows, statement) = line.split_once(' ').unwrap();
        // Only the resignation check may find nothing: a 16-game run rarely plays one out.
        assert!(
            rows != "0" || statement.contains("resigned_false_check"),
            "no rows from: {statement}"
        );
    }
}

/// TensorBoard's own reader finds one `train/loss` point per training step and the generation's numbers.
fn tensorboard_reads_the_events(interpreter: &str, run_dir: &Path) {
    let script = r#"
import json, sys
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
run = sys.argv[1]
events = EventAccumulator(run + "/tensorboard", size_guidance={"scalars": 0})
events.Reload()
tags = set(events.Tags()["scalars"])
steps = [json.loads(l) for l in open(run + "/metrics.jsonl")]
loss = events.Scalars("train/loss")
assert [e.step for e in loss] == [r["step"] for r in steps], "one point per step"
assert all(abs(e.value - r["loss"]) < 1e-4 * max(1, abs(r["loss"])) for e, r in zip(loss, steps))
assert abs(loss[0].wall_time - steps[0]["unix_time"]) < 1e-3
for tag in ["train/lr", "train/value_loss", "generation/draw_rate", "phases/train/seconds", "ratings/network/elo",
            "scores/greedy/score"]:
    assert tag in tags, (tag, sorted(tags))
assert not any(t.startswith("ratings/gen") for t in tags), sorted(tags)
generations = [json.loads(l) for l in open(run + "/generations.jsonl")]
elo = events.Scalars("ratings/network/elo")
assert [e.step for e in elo] == [g["generation"] for g in generations]
for point, g in zip(elo, generations):
    own = next(r["elo"] for r in g["ratings"] if r["player"] == g["network"])
    assert abs(point.value - own) < 1e-3 * max(1, abs(own)), (point.value, own)
assert [e.step for e in events.Scalars("generation/draw_rate")] == [1]
print("OK", len(tags))
"#;
    let out = Command::new(interpreter)
        .args(["-c", script])
        .arg(run_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.starts_with("OK"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
