//! Shared by the bundle tests: tiny checkpoints, exported bundles, running the `zero` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tch::{Device, nn};
use zero_games::{Encoding, GameKind, with_game};
use zero_model::network::NetShape;
use zero_model::{Checkpoint, CheckpointMeta, NetworkConfig, PolicyValueNet};

/// A fresh directory for one test, removed when the returned guard drops.
pub fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("zero-bundle-test-{name}-"))
        .tempdir()
        .unwrap()
}

pub fn tiny_config() -> NetworkConfig {
    NetworkConfig {
        blocks: 1,
        channels: 8,
        squeeze_excitation: true,
        global_pool: true,
        value_hidden: 16,
        ..Default::default()
    }
}

/// A small random network of `game`, with batch-norm statistics moved off their defaults by one training pass.
pub fn tiny_checkpoint(game: &str, path: &Path, generation: u32, seed: i64) {
    let kind: GameKind = game.parse().unwrap();
    with_game!(kind, G => save_tiny::<G>(path, generation, seed));
}

fn save_tiny<G: Encoding>(path: &Path, generation: u32, seed: i64) {
    // One libtorch generator per process, tests in threads: the same seed gives the same network only under a lock.
    static SEEDED: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _seeded = SEEDED.lock().unwrap_or_else(|e| e.into_inner());
    tch::manual_seed(seed);
    let config = tiny_config();
    let vs = nn::VarStore::new(Device::Cpu);
    let shape = NetShape::of::<G>();
    let net = PolicyValueNet::new(&vs.root(), &config, shape);
    let input = tch::Tensor::randn(
        [4, shape.planes, shape.height, shape.width],
        (tch::Kind::Float, Device::Cpu),
    );
    let _ = net.forward(&input, true);
    let rules = G::parse_rules(None, &[]).unwrap();
    let mut meta = CheckpointMeta::new::<G>(&rules, &config);
    meta.generation = generation;
    meta.step = 100 * generation as u64;
    meta.parent_run = Some("run-test".to_string());
    Checkpoint::save(&vs, &meta, path).unwrap();
}

pub fn zero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zero"))
        .args(args)
        .output()
        .expect("zero runs")
}

/// Runs `exe ARGS` with `input` on its stdin, and returns its output once it has ended.
pub fn run_with_input(exe: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(exe)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the program starts");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exports a tiny network of `game` into `dir/bundle` and returns the bundle's path.
pub fn tiny_bundle(game: &str, dir: &Path, sims: u32) -> PathBuf {
    let ckpt = dir.join("net.safetensors");
    tiny_checkpoint(game, &ckpt, 1, 7);
    let bundle = dir.join("bundle");
    let out = zero(&[
        "export",
        ckpt.to_str().unwrap(),
        "--out",
        bundle.to_str().unwrap(),
        "--sims",
        &sims.to_string(),
    ]);
    assert!(out.status.success(), "export failed: {}", text(&out.stderr));
    bundle
}

/// The shared libraries a binary asks for (`NEEDED` in its dynamic section).
pub fn needed_libraries(exe: &Path) -> Vec<String> {
    let out = Command::new("readelf")
        .arg("-d")
        .arg(exe)
        .output()
        .expect("readelf runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter(|line| line.contains("(NEEDED)"))
        .filter_map(|line| line.split('[').nth(1).map(|s| s.trim_end_matches(']').to_string()))
        .collect()
}
