//! The libtorch-free build: `zero-play`, built from the `zero-bot` crate without its `torch` feature, links no
//! libtorch (its dynamic section names none) and plays an exported bundle over the line protocol, moving as
//! `zero bot` does on the same bundle.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{needed_libraries, run_with_input, scratch, text, tiny_bundle};

/// Builds `zero-play` without libtorch (the dev profile, beside the test binaries) and returns its path.
fn build_zero_play() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "build",
            "-p",
            "zero-bot",
            "--no-default-features",
            "--features",
            "onnx",
            "--bin",
            "zero-play",
            "--message-format",
            "short",
        ])
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "building zero-play failed: {}", text(&out.stderr));
    let exe = Path::new(env!("CARGO_BIN_EXE_zero")).with_file_name("zero-play");
    assert!(exe.is_file(), "no {}", exe.display());
    exe
}

/// The moves `exe ARGS` answers to `go` in each position, over the line protocol.
fn best_moves(exe: &Path, args: &[&str], positions: &[&str]) -> Vec<String> {
    let script: String = positions.iter().map(|p| format!("position {p}\ngo\n")).collect();
    let out = run_with_input(exe, args, &(script + "quit\n"));
    assert!(out.status.success(), "{}: {}", exe.display(), text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("bestmove ").map(str::to_string))
        .collect()
}

#[test]
fn zero_play_links_no_libtorch_and_plays_a_bundle_as_zero_bot_does() {
    let exe = build_zero_play();
    let libraries = needed_libraries(&exe);
    assert!(!libraries.is_empty(), "readelf found no NEEDED entries");
    assert!(
        !libraries.iter().any(|l| l.contains("torch") || l.contains("c10")),
        "zero-play links {libraries:?}"
    );
    let tmp = scratch("zero-play");
    let bundle = tiny_bundle("bashni", tmp.path(), 16);
    let bundle = bundle.to_str().unwrap();
    let positions = [
        "startpos",
        "startpos moves c3-d4",
        "startpos moves c3-d4 f6-e5",
        "startpos moves c3-b4 b6-a5",
    ];
    let lite = best_moves(&exe, &["bot", bundle], &positions);
    assert_eq!(lite.len(), positions.len(), "zero-play answered {lite:?}");
    let full = best_moves(
        Path::new(env!("CARGO_BIN_EXE_zero")),
        &["bot", bundle, "--runtime", "torch"],
        &positions,
    );
    assert_eq!(lite, full);
    let out = Command::new(&exe)
        .args(["bot", bundle, "--runtime", "torch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("this build has no libtorch"),
        "{}",
        text(&out.stderr)
    );
}
