//! `zero`, the front door, loads no libtorch: the rules, records and report commands run in it, every other command is
//! handed to `zero-torch` beside it, with the libtorch found wherever it is, or an error saying where it looked.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{needed_libraries, scratch, text};

fn front() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_zero"))
}

/// `exe ARGS` with `ZERO_LIBTORCH` set to `libtorch` (or unset).
fn run(exe: &Path, args: &[&str], libtorch: Option<&Path>) -> Output {
    let mut command = Command::new(exe);
    command
        .args(args)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("ZERO_LIBTORCH");
    if let Some(dir) = libtorch {
        command.env("ZERO_LIBTORCH", dir);
    }
    // A binary copied a moment ago may still be open for writing in a child another test thread forked meanwhile
    // (until that child execs): Linux then refuses to run it (ETXTBSY) for a moment.
    for _ in 0..50 {
        match command.output() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            result => return result.expect("the binary runs"),
        }
    }
    panic!("{} stayed busy", exe.display())
}

#[test]
fn the_front_door_links_no_libtorch_and_zero_torch_does() {
    let front_libs = needed_libraries(&front());
    assert!(
        !front_libs.iter().any(|l| l.contains("torch") || l.contains("c10")),
        "{front_libs:?}"
    );
    let torch_libs = needed_libraries(&front().with_file_name("zero-torch"));
    assert!(torch_libs.iter().any(|l| l.starts_with("libtorch")), "{torch_libs:?}");
}

#[test]
fn rules_and_records_commands_never_look_for_libtorch() {
    let nowhere = Path::new("/nonexistent/libtorch");
    let out = run(&front(), &["moves", "baghchal"], Some(nowhere));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 21);
    let out = run(&front(), &["-q", "perft", "tours", "--depth", "2"], Some(nowhere));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&front(), &["show", "bashni"], Some(nowhere));
    assert!(
        out.status.success() && text(&out.stdout).contains("to move: white"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_runs_records_and_report_are_written_without_libtorch() {
    let tmp = scratch("front-run");
    let run_dir = tmp.path().join("run");
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/baghchal-quick.toml");
    let mut args = vec![
        "-q",
        "run",
        config.to_str().unwrap(),
        "--run-dir",
        run_dir.to_str().unwrap(),
    ];
    for setting in [
        "run.generations=1",
        "run.games_per_generation=4",
        "run.eval_games=2",
        "run.eval_openings=2",
    ] {
        args.extend(["--set", setting]);
    }
    args.extend([
        "--set",
        "run.eval_equal_time_games=0",
        "--set",
        "selfplay.games_in_flight=4",
    ]);
    let out = run(&front(), &args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let nowhere = Path::new("/nonexistent/libtorch");
    let out = run(
        &front(),
        &["games", run_dir.to_str().unwrap(), "--out", "-"],
        Some(nowhere),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).matches("[GameType \"baghchal\"]").count() >= 4,
        "{}",
        text(&out.stdout)
    );
    let out = run(&front(), &["report", run_dir.to_str().unwrap()], Some(nowhere));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("report: ") && run_dir.join("report/index.html").is_file());
    // A plot that cannot be written is named (the audit of issue 103 found a read-only directory reported as
    // "Drawing backend error" with no file): here a directory stands where the plot goes.
    let plot = std::fs::read_dir(run_dir.join("report"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .expect("a plot was drawn");
    std::fs::remove_file(&plot).unwrap();
    std::fs::create_dir(&plot).unwrap();
    let out = run(&front(), &["report", run_dir.to_str().unwrap()], Some(nowhere));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!("writing {}", plot.display())),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn other_commands_reach_zero_torch_through_the_libtorch_found() {
    let out = run(&front(), &["-V"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("libtorch 2.13"), "{}", text(&out.stdout));
    // The help is the whole program's, under the name the user typed.
    let out = run(&front(), &["--help"], None);
    assert!(text(&out.stdout).contains("Usage: zero [OPTIONS]") && text(&out.stdout).contains("  train "));
    // ZERO_LIBTORCH decides alone: the set-up's libtorch named there works, a wrong one is named.
    let libtorch = PathBuf::from(std::env::var("LIBTORCH").expect("the set-up's LIBTORCH (.cargo/config.toml)"));
    let out = run(&front(), &["-V"], Some(&libtorch));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&front(), &["-V"], Some(Path::new("/nonexistent/libtorch")));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim(),
        "zero: error: ZERO_LIBTORCH=/nonexistent/libtorch: no libtorch.so there or in its lib/"
    );
}

#[test]
fn an_installed_copy_works_and_a_missing_zero_torch_is_named() {
    let tmp = scratch("front-install");
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(front(), bin.join("zero")).unwrap();
    let out = run(&bin.join("zero"), &["train", "--help"], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("zero-torch is missing") && stderr.contains(&bin.display().to_string()),
        "{stderr}"
    );
    assert!(run(&bin.join("zero"), &["moves", "tours"], None).status.success());
    std::fs::copy(front().with_file_name("zero-torch"), bin.join("zero-torch")).unwrap();
    let out = run(&bin.join("zero"), &["train", "--help"], None);
    assert!(
        out.status.success() && text(&out.stdout).contains("Usage: zero train"),
        "{}",
        text(&out.stderr)
    );
}
