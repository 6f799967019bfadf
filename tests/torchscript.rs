//! The bundle's TorchScript module, run by Python's torch (`torch.jit.load`), gives the Rust network's outputs.

mod support;

use std::process::Command;
use support::{scratch, tiny_bundle};
use tch::{Device, Kind, Tensor, nn::ModuleT};
use zero_games::{Encoding, GameKind, with_game};
use zero_model::Checkpoint;

const PYTHON_SCRIPT: &str = r#"
import sys, torch
module, inputs, outputs, n, p, h, w = sys.argv[1:8]
net = torch.jit.load(module)
net.eval()
data = open(inputs, "rb").read()
x = torch.frombuffer(bytearray(data), dtype=torch.float32).reshape(int(n), int(p), int(h), int(w))
with torch.no_grad():
    y = net(x)
open(outputs, "wb").write(y.contiguous().numpy().tobytes())
print(tuple(y.shape))
"#;

fn python() -> String {
    std::env::var("ZERO_VENV_PYTHON").expect(
        "ZERO_VENV_PYTHON is not set: run scripts/setup.sh, which writes it into .cargo/config.toml (the Python \
         of the set-up venv, with torch)",
    )
}

/// A batch of random inputs and the network's outputs on them, computed in Rust.
fn expected<G: Encoding>(weights: &std::path::Path) -> (Vec<i64>, Vec<f32>, Vec<f32>, Vec<i64>) {
    let ckpt = Checkpoint::load::<G>(weights, Device::Cpu).unwrap();
    let [p, h, w] = ckpt.meta.input_shape;
    tch::manual_seed(11);
    // A batch size other than the one traced with (2).
    let x = Tensor::randn([5, p, h, w], (Kind::Float, Device::Cpu));
    let y = tch::no_grad(|| ckpt.net.forward_t(&x, false));
    let xs: Vec<f32> = Vec::try_from(x.flatten(0, -1)).unwrap();
    let ys: Vec<f32> = Vec::try_from(y.flatten(0, -1)).unwrap();
    (vec![5, p, h, w], xs, ys, y.size())
}

fn check_game(game: &str) {
    let tmp = scratch(&format!("torchscript-{game}"));
    let dir = tmp.path();
    let bundle = tiny_bundle(game, dir, 4);
    let kind: GameKind = game.parse().unwrap();
    let weights = bundle.join("network.safetensors");
    let (shape, xs, want, out_shape) = with_game!(kind, G => expected::<G>(&weights));
    let inputs = dir.join("inputs.bin");
    let outputs = dir.join("outputs.bin");
    std::fs::write(&inputs, xs.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let mut command = Command::new(python());
    command
        .arg("-c")
        .arg(PYTHON_SCRIPT)
        .arg(bundle.join("network.pt"))
        .arg(&inputs)
        .arg(&outputs);
    for d in &shape {
        command.arg(d.to_string());
    }
    let out = command.output().expect("the venv's Python runs");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(printed, format!("({}, {})", out_shape[0], out_shape[1]));
    let bytes = std::fs::read(&outputs).unwrap();
    let got: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(got.len(), want.len());
    let worst = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(
        worst <= 1e-5,
        "{game}: TorchScript in Python differs from Rust by {worst}"
    );
}

#[test]
fn torchscript_module_in_python_equals_the_rust_forward_pass() {
    for game in ["bashni", "baghchal", "tours"] {
        check_game(game);
    }
}
