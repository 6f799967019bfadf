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
        short_value: true,
        score: true,
        ..tiny_network()
    };
    let (index, _) = window::<BaghChal>(data.path(), &rules, &config);
    let mut trainer = Trainer::<BaghChal>::new(config, &net, rules, Device::Cpu).unwrap();
    let (mut losses, mut short, mut score) = (Vec::new(), Vec::new(), Vec::new());
    trainer
        .train_steps(&index, 300, |m| {
            assert!(m.loss.is_finite() && m.grad_norm.is_finite());
            assert!(m.moves_left_loss.is_some());
            losses.push(m.loss);
            short.push(m.short_value_loss.expect("a short-horizon value loss"));
            score.push(m.score_loss.expect("a score loss"));
        })
        .unwrap();
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let (start, end) = (mean(&losses[..10]), mean(&losses[losses.len() - 10..]));
    assert!(end < 0.5 * start, "loss went from {start:.3} to {end:.3}");
    let (start, end) = (mean(&short[..10]), mean(&short[short.len() - 10..]));
    assert!(
        end < 0.5 * start,
        "short-horizon value loss went from {start:.3} to {end:.3}"
    );
    let (start, end) = (mean(&score[..10]), mean(&score[score.len() - 10..]));
    assert!(end < 0.5 * start, "score loss went from {start:.3} to {end:.3}");
}
