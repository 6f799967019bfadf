//! A small network overfits a small fixed set of real positions.
mod common;

use common::*;
use tch::Device;
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_model::NetworkConfig;
use zero_train::{DecayKind, OptimizerKind, TrainConfig, Trainer};

#[test]
fn a_small_network_overfits_a_small_set_of_positions() {
    tch::set_num_threads(1);
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let data = tempfile::tempdir().unwrap();
    let summary = write_playouts::<BaghChal>(data.path(), "fixed", &rules, 2, 32, 11);
    assert_eq!(summary.positions, 64);
    let config = TrainConfig {
        batch_size: 32,
        optimizer: OptimizerKind::AdamW,
        learning_rate: 3e-3,
        weight_decay: 0.0,
        warmup_steps: 10,
        decay: DecayKind::Constant,
        augment: false,
        ..quick_config()
    };
    let net = NetworkConfig {
        channels: 16,
        value_hidden: 32,
        moves_left: true,
        ..tiny_network()
    };
    let (index, _) = window::<BaghChal>(data.path(), &rules, &config);
    let mut trainer = Trainer::<BaghChal>::new(config, &net, rules, Device::Cpu).unwrap();
    let mut losses = Vec::new();
    trainer
        .train_steps(&index, 300, |m| {
            assert!(m.loss.is_finite() && m.grad_norm.is_finite());
            assert!(m.moves_left_loss.is_some());
            losses.push(m.loss);
        })
        .unwrap();
    let start: f64 = losses[..10].iter().sum::<f64>() / 10.0;
    let end: f64 = losses[losses.len() - 10..].iter().sum::<f64>() / 10.0;
    assert!(end < 0.5 * start, "loss went from {start:.3} to {end:.3}");
}
