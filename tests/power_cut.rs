//! A run under failed calls and power cuts (`scripts/fs-faults.py`, with its LD_PRELOAD shim
//! `scripts/fsfault.c`): after each case the run is resumed, and every file it had written and synced, every
//! finished game and every checkpoint must still be there, no game counted twice.
//!
//! Both cases failed before their fixes: a power cut took away the directories the run creates (a new run
//! directory, `data/`, `checkpoints/`...), whose entries were never synced, with every file in them; and a failed
//! unlink of a merged shard's source left it beside the merged shard, where the next merge took it for an
//! unmerged one and its games were counted twice.

use std::process::Command;

#[test]
fn a_run_keeps_what_it_had_finished_through_failed_calls_and_power_cuts() {
    let work = tempfile::Builder::new().prefix("zero-power-cut-").tempdir().unwrap();
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fs-faults.py"))
        .arg("--work-dir")
        .arg(work.path())
        .args(["--zero", env!("CARGO_BIN_EXE_zero")])
        .args([
            "--case",
            "fail:unlink:1:/data/",
            "--case",
            "cut:250",
            "--case",
            "cut:500",
            "--case",
            "cut:750",
        ])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // Each case reached its call: the run failed or was cut where asked, not past its end.
    for (row, cases) in [("fail unlink", "1"), ("power cut", "3")] {
        let line = stdout.lines().find(|l| l.starts_with(row)).unwrap_or_default();
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.get(2..4), Some(&[cases, cases][..]), "{stdout}");
    }
    assert!(stdout.contains("ok: every case resumed"), "{stdout}");
}
