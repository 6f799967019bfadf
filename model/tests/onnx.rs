//! The network written as ONNX and run by tract gives libtorch's outputs to 1e-4 on 1,000 positions of every
//! game, for each shape of network (gate, global pool, moves-left head on and off, Tours' convolutional policy
//! head); a model for another game, bytes that are no model and a model whose outputs are not finite are refused
//! with a clear error.

use tch::{Device, Kind, Tensor, nn};
use zero_games::baghchal::BaghChal;
use zero_games::bashni::Bashni;
use zero_games::checks::{CheckRng, positions_along_games};
use zero_games::tours::Tours;
use zero_games::{Encoding, Game, encode_batch};
use zero_model::encode::batch_tensor;
use zero_model::network::NetShape;
use zero_model::{Checkpoint, CheckpointMeta, NetworkConfig, PolicyHead, PolicyValueNet};
use zero_onnx::{OnnxEvaluator, checkpoint_file_to_onnx};

const POSITIONS: usize = 1000;
const TOLERANCE: f32 = 1e-4;

/// Positions of many short random games, start positions included.
fn positions<G: Game>(count: usize) -> Vec<G> {
    let rules = G::parse_rules(None, &[]).unwrap();
    positions_along_games(&rules, count, 60, &mut CheckRng::new(11))
}

/// A network whose batch-norm statistics a training-mode pass has moved off their defaults.
fn network<G: Encoding>(config: &NetworkConfig, sample: &Tensor) -> (nn::VarStore, PolicyValueNet) {
    tch::manual_seed(11);
    let vs = nn::VarStore::new(Device::Cpu);
    let net = PolicyValueNet::new(&vs.root(), config, NetShape::of::<G>());
    let _ = net.forward(sample, true);
    (vs, net)
}

/// The network saved as a checkpoint file and written as ONNX from that file.
fn to_onnx<G: Encoding>(vs: &nn::VarStore, config: &NetworkConfig) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("net.safetensors");
    let rules = G::parse_rules(None, &[]).unwrap();
    Checkpoint::save(vs, &CheckpointMeta::new::<G>(&rules, config), &path).unwrap();
    checkpoint_file_to_onnx(&path).unwrap()
}

fn floats(t: &Tensor) -> Vec<f32> {
    Vec::<f32>::try_from(t.to_kind(Kind::Float).flatten(0, -1)).unwrap()
}

fn max_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn parity<G: Encoding>(config: &NetworkConfig) {
    let games = positions::<G>(POSITIONS);
    let mut encoded = Vec::new();
    encode_batch(games.iter(), &mut encoded);
    let input = batch_tensor::<G>(&encoded);
    let (vs, net) = network::<G>(config, &input.narrow(0, 0, 64));
    let expected = tch::no_grad(|| net.forward(&input, false));
    let bytes = to_onnx::<G>(&vs, config);
    let onnx = OnnxEvaluator::<G>::from_bytes(&bytes, "parity").unwrap();
    assert_eq!(onnx.has_moves_left(), config.moves_left);
    assert_eq!(onnx.has_score(), config.score);
    // In batches of 100, as a search would send them (and the batch size is free in the model).
    let mut policy = Vec::new();
    let mut wdl = Vec::new();
    let mut moves_left = Vec::new();
    let mut score = Vec::new();
    let per_position = encoded.len() / POSITIONS;
    for chunk in encoded.chunks(100 * per_position) {
        let out = onnx.forward(chunk).unwrap();
        policy.extend(out.policy);
        wdl.extend(out.wdl);
        moves_left.extend(out.moves_left.unwrap_or_default());
        score.extend(out.score.unwrap_or_default());
    }
    let differences = [
        ("policy", max_difference(&policy, &floats(&expected.policy))),
        ("wdl", max_difference(&wdl, &floats(&expected.wdl))),
        (
            "moves_left",
            expected
                .moves_left
                .as_ref()
                .map_or(0.0, |m| max_difference(&moves_left, &floats(m))),
        ),
        (
            "score",
            (expected.score.as_ref()).map_or(0.0, |s| max_difference(&score, &floats(s))),
        ),
    ];
    for (head, difference) in differences {
        assert!(
            difference <= TOLERANCE,
            "{} {config:?}: {head} differs by {difference} between libtorch and ONNX",
            G::NAME
        );
    }
}

fn configs() -> Vec<NetworkConfig> {
    let base = NetworkConfig {
        blocks: 2,
        channels: 16,
        ..Default::default()
    };
    vec![
        base.clone(),
        NetworkConfig {
            squeeze_excitation: true,
            global_pool: true,
            moves_left: true,
            short_value: true,
            score: true,
            value_channels: 4,
            ..base.clone()
        },
        // The score output alone comes third, where the moves left would.
        NetworkConfig { score: true, ..base },
    ]
}

#[test]
fn onnx_through_tract_matches_libtorch_in_every_game() {
    tch::set_num_threads(1);
    for config in configs() {
        parity::<Bashni>(&config);
        parity::<BaghChal>(&config);
        parity::<Tours>(&config);
    }
    // The convolutional policy head, for the game that has an action map.
    let conv = NetworkConfig {
        policy_head: PolicyHead::Conv,
        policy_channels: 8,
        ..configs().remove(0)
    };
    parity::<Tours>(&conv);
}

#[test]
fn a_model_for_another_game_or_no_model_is_refused() {
    let config = configs().remove(0);
    let sample = {
        let mut encoded = Vec::new();
        encode_batch(positions::<BaghChal>(4).iter(), &mut encoded);
        batch_tensor::<BaghChal>(&encoded)
    };
    let (vs, _) = network::<BaghChal>(&config, &sample);
    let bytes = to_onnx::<BaghChal>(&vs, &config);
    let err = OnnxEvaluator::<Tours>::from_bytes(&bytes, "wrong")
        .err()
        .expect("refused");
    assert!(err.to_string().contains("tours"), "{err}");
    let err = OnnxEvaluator::<BaghChal>::from_bytes(b"not a model", "garbage")
        .err()
        .expect("refused");
    assert!(err.to_string().contains("invalid ONNX model"), "{err}");
    let truncated = &bytes[..bytes.len() / 2];
    let err = OnnxEvaluator::<BaghChal>::from_bytes(truncated, "cut")
        .err()
        .expect("refused");
    assert!(err.to_string().contains("invalid ONNX model"), "{err}");
}
