//! Checkpoints round-trip exactly, and every kind of mismatch or damage is refused before any weight is used.

use std::path::PathBuf;
use tch::{Device, Kind, Tensor, nn};
use zero_games::baghchal::BaghChal;
use zero_games::encode_batch;
use zero_games::tours::Tours;
use zero_games::{Encoding, Game};
use zero_model::encode::batch_tensor;
use zero_model::network::NetShape;
use zero_model::{Checkpoint, CheckpointError, CheckpointMeta, NetworkConfig, PolicyHead, PolicyValueNet};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zero-model-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn small() -> NetworkConfig {
    NetworkConfig {
        blocks: 2,
        channels: 8,
        squeeze_excitation: true,
        global_pool: true,
        moves_left: true,
        short_value: true,
        score: true,
        ..Default::default()
    }
}

fn sample_input<G: Encoding>() -> Tensor {
    let rules = G::parse_rules(None, &[]).unwrap();
    let start = G::start(&rules);
    let mut buf = Vec::new();
    encode_batch([&start, &start.transformed(1)], &mut buf);
    batch_tensor::<G>(&buf)
}

/// A trained-looking network: one training-mode pass moves the batch-norm statistics off their defaults.
fn network<G: Encoding>(config: &NetworkConfig) -> (nn::VarStore, PolicyValueNet) {
    let vs = nn::VarStore::new(Device::Cpu);
    let net = PolicyValueNet::new(&vs.root(), config, NetShape::of::<G>());
    let _ = net.forward(&sample_input::<G>(), true);
    (vs, net)
}

fn save<G: Encoding>(vs: &nn::VarStore, config: &NetworkConfig, path: &std::path::Path) -> CheckpointMeta {
    let rules = G::parse_rules(None, &[]).unwrap();
    let mut meta = CheckpointMeta::new::<G>(&rules, config);
    meta.step = 1234;
    meta.generation = 3;
    meta.parent_run = Some("run-test".to_string());
    Checkpoint::save(vs, &meta, path).unwrap();
    meta
}

#[test]
fn saved_and_loaded_network_gives_identical_outputs_and_metadata() {
    let dir = scratch("roundtrip");
    let path = dir.join("net.safetensors");
    let config = small();
    let (vs, net) = network::<BaghChal>(&config);
    let meta = save::<BaghChal>(&vs, &config, &path);
    let input = sample_input::<BaghChal>();
    let before = net.forward(&input, false);

    let loaded = Checkpoint::load::<BaghChal>(&path, Device::Cpu).unwrap();
    assert_eq!(loaded.meta.step, 1234);
    assert_eq!(loaded.meta.generation, 3);
    assert_eq!(loaded.meta.network, config);
    assert_eq!(loaded.meta.rules, meta.rules);
    assert_eq!(zero_model::read_meta(&path).unwrap(), loaded.meta);
    let after = loaded.net.forward(&input, false);
    assert!(after.policy.equal(&before.policy));
    assert!(after.wdl.equal(&before.wdl));
    assert!(after.moves_left.unwrap().equal(&before.moves_left.unwrap()));
    assert!(after.score.unwrap().equal(&before.score.unwrap()));
    // The short-horizon value head is saved and loaded with the rest, and answers in training mode only.
    assert!(before.short_value.is_none() && after.short_value.is_none());
    let (trained, loaded) = (net.forward(&input, true), loaded.net.forward(&input, true));
    assert!(loaded.short_value.unwrap().equal(&trained.short_value.unwrap()));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_checkpoint_for_another_game_or_architecture_is_refused() {
    let dir = scratch("mismatch");
    let path = dir.join("net.safetensors");
    let config = small();
    let (vs, _) = network::<BaghChal>(&config);
    save::<BaghChal>(&vs, &config, &path);

    match Checkpoint::load::<Tours>(&path, Device::Cpu) {
        Err(CheckpointError::Mismatch {
            what, expected, found, ..
        }) => {
            assert_eq!(what, "game");
            assert_eq!(expected, "tours");
            assert_eq!(found, "baghchal");
        }
        other => panic!("expected a game mismatch, got {:?}", other.err()),
    }

    let other_config = NetworkConfig {
        channels: 16,
        ..small()
    };
    let mut other_vs = nn::VarStore::new(Device::Cpu);
    let _other = PolicyValueNet::new(&other_vs.root(), &other_config, NetShape::of::<BaghChal>());
    let err = Checkpoint::load_into::<BaghChal>(&mut other_vs, &other_config, &path).unwrap_err();
    assert!(err.to_string().contains("architecture"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn truncated_or_corrupted_checkpoints_are_detected() {
    let dir = scratch("damage");
    let path = dir.join("net.safetensors");
    let config = small();
    let (vs, _) = network::<BaghChal>(&config);
    save::<BaghChal>(&vs, &config, &path);
    let bytes = std::fs::read(&path).unwrap();

    for cut in [0, 7, bytes.len() / 2, bytes.len() - 1] {
        let truncated = dir.join(format!("cut{cut}.safetensors"));
        std::fs::write(&truncated, &bytes[..cut]).unwrap();
        let err = Checkpoint::load::<BaghChal>(&truncated, Device::Cpu)
            .err()
            .expect("truncated file refused");
        assert!(matches!(err, CheckpointError::Corrupt { .. }), "cut at {cut}: {err}");
        assert!(
            err.to_string().contains(&format!("cut{cut}")),
            "error names the file: {err}"
        );
    }

    let mut flipped = bytes.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x40; // a bit inside the last tensor's data
    let corrupt = dir.join("flipped.safetensors");
    std::fs::write(&corrupt, &flipped).unwrap();
    let err = Checkpoint::load::<BaghChal>(&corrupt, Device::Cpu)
        .err()
        .expect("corrupted file refused");
    assert!(err.to_string().contains("checksum"), "{err}");

    let missing = Checkpoint::load::<BaghChal>(&dir.join("absent.safetensors"), Device::Cpu)
        .err()
        .unwrap();
    assert!(matches!(missing, CheckpointError::Io { .. }));

    // A plain safetensors file without zero's metadata is not a checkpoint.
    let plain = dir.join("plain.safetensors");
    vs.save(&plain).unwrap();
    let err = Checkpoint::load::<BaghChal>(&plain, Device::Cpu).err().unwrap();
    assert!(err.to_string().contains("metadata"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn outputs_have_the_shapes_of_the_game() {
    let config = NetworkConfig {
        blocks: 1,
        channels: 8,
        ..Default::default()
    };
    let (_vs, net) = network::<Tours>(&config);
    let out = net.forward(&sample_input::<Tours>(), false);
    assert_eq!(out.policy.size(), vec![2, Tours::ACTION_SPACE as i64]);
    assert_eq!(out.wdl.size(), vec![2, 3]);
    assert!(out.moves_left.is_none());
    let probs = out
        .wdl
        .softmax(-1, Kind::Float)
        .sum_dim_intlist(&[1i64][..], false, Kind::Float);
    assert!(probs.allclose(&Tensor::ones([2], (Kind::Float, Device::Cpu)), 1e-5, 1e-6, false));
}

#[test]
fn the_convolutional_policy_head_reads_each_action_at_its_plane_and_round_trips() {
    let config = NetworkConfig {
        policy_head: PolicyHead::Conv,
        ..small()
    };
    let (vs, net) = network::<Tours>(&config);
    // The action planes' weights zeroed and each plane's bias set to its number: every action's logit is then
    // its plane's number, wherever the map puts it.
    tch::no_grad(|| {
        let vars = vs.variables();
        let _ = vars["policy_planes.weight"].shallow_clone().zero_();
        let planes = Tours::POLICY_PLANES as i64;
        vars["policy_planes.bias"]
            .shallow_clone()
            .copy_(&Tensor::arange(planes, (Kind::Float, Device::Cpu)));
    });
    let input = sample_input::<Tours>();
    let out = net.forward(&input, false);
    assert_eq!(out.policy.size(), vec![2, Tours::ACTION_SPACE as i64]);
    let logits = Vec::<f32>::try_from(out.policy.get(0)).unwrap();
    for (action, logit) in logits.iter().enumerate() {
        let plane = Tours::policy_cell(action as zero_games::Action) / (Tours::BOARD_HEIGHT * Tours::BOARD_WIDTH);
        assert_eq!(*logit, plane as f32, "action {action}");
    }

    let dir = scratch("conv-head");
    let path = dir.join("net.safetensors");
    save::<Tours>(&vs, &config, &path);
    let loaded = Checkpoint::load::<Tours>(&path, Device::Cpu).unwrap();
    assert_eq!(loaded.meta.network.policy_head, PolicyHead::Conv);
    assert!(loaded.net.forward(&input, false).policy.equal(&out.policy));
    std::fs::remove_dir_all(dir).unwrap();

    // A game without an action map is refused the head, by name, before any layer is built.
    let err = config.validate_for(NetShape::of::<BaghChal>()).unwrap_err();
    assert!(err.to_string().contains("network.policy_head"), "{err}");
    assert_eq!(small().validate_for(NetShape::of::<BaghChal>()), Ok(()));
}
