//! The libtorch-free bot: a bundle's `network.onnx` played through tract makes the same moves as the same
//! bundle on libtorch (both in f32) at the same simulations, in every game; a bundle exported before `network.onnx` existed
//! still plays (its checkpoint is written as ONNX on load); a damaged `network.onnx` is refused by name.

mod support;

use std::path::Path;
use support::{scratch, text, tiny_bundle, zero};
use zero_bot::{Bot, Bundle, Runtime};
use zero_games::checks::{CheckRng, positions_along_games};
use zero_games::{Encoding, GameKind, with_game};
use zero_search::Budget;

const POSITIONS: usize = 60;
const SIMULATIONS: u32 = 16;

/// Positions along short random games, each one not over.
fn positions<G: Encoding>(rules: &G::Rules) -> Vec<G> {
    positions_along_games(rules, POSITIONS, 30, &mut CheckRng::new(7))
}

/// Moves on which the two runtimes disagree, out of [`POSITIONS`].
fn disagreements<G: Encoding + zero_games::Heuristic>(bundle: &Bundle) -> Vec<String> {
    let mut torch = Bot::<G>::from_bundle_on(bundle, &bundle.search(Some(SIMULATIONS)), Runtime::Torch).unwrap();
    let mut onnx = Bot::<G>::from_bundle_on(bundle, &bundle.search(Some(SIMULATIONS)), Runtime::Onnx).unwrap();
    let rules = bundle.rules::<G>().unwrap();
    positions::<G>(&rules)
        .iter()
        .filter_map(|game| {
            let a = torch.think(game, Budget::Simulations(SIMULATIONS)).text;
            let b = onnx.think(game, Budget::Simulations(SIMULATIONS)).text;
            (a != b).then(|| format!("{}: torch {a}, onnx {b}", game.position()))
        })
        .collect()
}

#[test]
fn the_onnx_bot_plays_the_libtorch_bots_moves_in_every_game() {
    tch::set_num_threads(1);
    for game in ["bashni", "baghchal", "tours"] {
        let tmp = scratch(&format!("onnx-{game}"));
        let bundle = Bundle::open(&tiny_bundle(game, tmp.path(), SIMULATIONS)).unwrap();
        assert!(
            bundle.manifest.files.contains_key("network.onnx"),
            "{game}: no network.onnx"
        );
        let kind: GameKind = game.parse().unwrap();
        let differ = with_game!(kind, G => disagreements::<G>(&bundle));
        assert!(
            differ.is_empty(),
            "{game}: {} of {POSITIONS} moves differ: {differ:?}",
            differ.len()
        );
    }
}

/// A bundle without `network.onnx` in its manifest, as `zero export` wrote them before.
fn without_onnx(bundle: &Path) {
    let path = bundle.join("manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    manifest["files"].as_object_mut().unwrap().remove("network.onnx");
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    std::fs::remove_file(bundle.join("network.onnx")).unwrap();
}

#[test]
fn an_older_bundle_plays_on_onnx_and_a_damaged_onnx_file_is_refused() {
    let tmp = scratch("onnx-old");
    let bundle = tiny_bundle("baghchal", tmp.path(), 8);
    let damaged = tmp.path().join("damaged");
    std::fs::create_dir(&damaged).unwrap();
    for entry in std::fs::read_dir(&bundle).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), damaged.join(entry.file_name())).unwrap();
    }
    without_onnx(&bundle);
    let out = zero(&["bot", bundle.to_str().unwrap(), "--runtime", "onnx"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut bytes = std::fs::read(damaged.join("network.onnx")).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(damaged.join("network.onnx"), bytes).unwrap();
    let out = zero(&["bot", damaged.to_str().unwrap(), "--runtime", "onnx"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("checksum mismatch for network.onnx"),
        "{}",
        text(&out.stderr)
    );
    let out = zero(&["bot", damaged.to_str().unwrap(), "--runtime", "gpu"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("expected torch, torch-bf16 or onnx"),
        "{}",
        text(&out.stderr)
    );
}

const ONNXRUNTIME_SCRIPT: &str = r#"
import sys, numpy as np, onnxruntime as ort
model, inputs, outputs, n, p, h, w = sys.argv[1:8]
session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
x = np.fromfile(inputs, dtype=np.float32).reshape(int(n), int(p), int(h), int(w))
policy, wdl = session.run(["policy", "wdl"], {"input": x})
np.concatenate([policy, wdl], axis=1).astype(np.float32).tofile(outputs)
print(policy.shape[0], policy.shape[1], wdl.shape[1])
"#;

/// Encoded positions of game `G` and libtorch's outputs on them (f32): policy logits then WDL logits per row.
fn libtorch_rows<G: Encoding>(weights: &Path, count: usize) -> (Vec<f32>, Vec<f32>, [i64; 3]) {
    let rules = G::parse_rules(None, &[]).unwrap();
    let mut games = Vec::new();
    while games.len() < count {
        games.extend(positions::<G>(&rules));
    }
    games.truncate(count);
    let mut encoded = Vec::new();
    zero_games::encode_batch(games.iter(), &mut encoded);
    let checkpoint = zero_model::Checkpoint::load::<G>(weights, tch::Device::Cpu).unwrap();
    let input = zero_model::encode::batch_tensor::<G>(&encoded);
    let out = tch::no_grad(|| checkpoint.net.forward(&input, false));
    let rows = tch::Tensor::cat(&[out.policy, out.wdl], 1);
    (
        encoded,
        Vec::<f32>::try_from(rows.flatten(0, -1)).unwrap(),
        checkpoint.meta.input_shape,
    )
}

#[test]
fn onnx_runtime_gives_libtorchs_outputs_on_a_thousand_positions_of_every_game() {
    const COUNT: usize = 1000;
    let python = std::env::var("ZERO_VENV_PYTHON").expect("ZERO_VENV_PYTHON is not set: run scripts/setup.sh");
    for game in ["bashni", "baghchal", "tours"] {
        let tmp = scratch(&format!("onnxruntime-{game}"));
        let bundle = tiny_bundle(game, tmp.path(), 4);
        let kind: GameKind = game.parse().unwrap();
        let (encoded, want, [p, h, w]) =
            with_game!(kind, G => libtorch_rows::<G>(&bundle.join("network.safetensors"), COUNT));
        let inputs = tmp.path().join("inputs.bin");
        let outputs = tmp.path().join("outputs.bin");
        std::fs::write(
            &inputs,
            encoded.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
        )
        .unwrap();
        let out = std::process::Command::new(&python)
            .args(["-c", ONNXRUNTIME_SCRIPT])
            .arg(bundle.join("network.onnx"))
            .args([&inputs, &outputs])
            .args([COUNT as i64, p, h, w].map(|d| d.to_string()))
            .output()
            .expect("the venv's Python runs");
        assert!(
            out.status.success(),
            "{game}: onnxruntime failed: {}",
            text(&out.stderr)
        );
        let got: Vec<f32> = std::fs::read(&outputs)
            .unwrap()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got.len(), want.len(), "{game}: {}", text(&out.stdout));
        let worst = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        assert!(worst <= 1e-4, "{game}: ONNX Runtime differs from libtorch by {worst}");
        println!("{game}: ONNX Runtime vs libtorch on {COUNT} positions: max difference {worst:e}");
    }
}
