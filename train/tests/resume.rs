//! Training resumed from a checkpoint continues exactly as if it had not stopped.
mod common;

use common::*;
use tch::{Device, Tensor};
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_train::{OptimizerKind, TrainConfig, Trainer};

fn weights(trainer: &Trainer<BaghChal>) -> Vec<(String, Tensor)> {
    let mut v: Vec<_> = trainer.var_store().variables().into_iter().collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn assert_identical(a: &[(String, Tensor)], b: &[(String, Tensor)], what: &str) {
    assert_eq!(a.len(), b.len());
    for ((na, ta), (nb, tb)) in a.iter().zip(b) {
        assert_eq!(na, nb);
        assert!(ta.equal(tb), "{what}: {na} differs after resuming");
    }
}

#[test]
fn resumed_training_equals_uninterrupted_training() {
    tch::set_num_threads(1);
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let data = tempfile::tempdir().unwrap();
    write_playouts::<BaghChal>(data.path(), "a", &rules, 6, 40, 1);
    write_playouts::<BaghChal>(data.path(), "b", &rules, 6, 40, 2);
    let net = tiny_network();
    // 6 = one chunk of 4 and half of the next: the resume lands inside a chunk.
    let n = 6;
    for optimizer in [OptimizerKind::Sgd, OptimizerKind::AdamW] {
        let config = TrainConfig {
            optimizer,
            nesterov: true,
            weight_decay: 1e-3,
            grad_clip_norm: 0.5,
            ..quick_config()
        };
        let (index, refused) = window::<BaghChal>(data.path(), &rules, &config);
        assert!(refused.is_empty(), "{refused:?}");

        let mut straight = Trainer::<BaghChal>::new(config.clone(), &net, rules.clone(), Device::Cpu).unwrap();
        straight.train_steps(&index, 2 * n, |_| {}).unwrap();

        let mut first = Trainer::<BaghChal>::new(config.clone(), &net, rules.clone(), Device::Cpu).unwrap();
        first.train_steps(&index, n, |_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("half.safetensors");
        first.save(&path).unwrap();
        assert!(dir.path().join("half.train.safetensors").exists());
        drop(first);
        let mut resumed = Trainer::<BaghChal>::resume(config.clone(), &net, rules.clone(), Device::Cpu, &path).unwrap();
        assert_eq!(resumed.step(), n);
        resumed.train_steps(&index, n, |_| {}).unwrap();

        assert_eq!(resumed.step(), straight.step());
        assert_identical(
            &weights(&straight),
            &weights(&resumed),
            &format!("{optimizer:?} weights"),
        );
        assert_identical(
            &straight.optimizer_state(),
            &resumed.optimizer_state(),
            &format!("{optimizer:?} optimizer state"),
        );
        // And training did change the weights (the comparison is not vacuous).
        let fresh = Trainer::<BaghChal>::new(config.clone(), &net, rules.clone(), Device::Cpu).unwrap();
        let moved = weights(&fresh)
            .iter()
            .zip(weights(&straight))
            .any(|((_, a), (_, b))| !a.equal(&b));
        assert!(moved);
    }
}

#[test]
fn a_checkpoint_of_another_architecture_is_refused_naming_it() {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.safetensors");
    let trainer = Trainer::<BaghChal>::new(quick_config(), &tiny_network(), rules.clone(), Device::Cpu).unwrap();
    trainer.save(&path).unwrap();
    let mut other = tiny_network();
    other.channels = 12;
    let err = Trainer::<BaghChal>::resume(quick_config(), &other, rules, Device::Cpu, &path)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("architecture"), "{err}");
}
