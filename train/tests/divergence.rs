//! A diverging network stops training with a clear error before the optimizer applies the bad step, and a network
//! holding a NaN or an infinity never becomes a checkpoint.
mod common;

use common::*;
use tch::Device;
use zero_games::Game;
use zero_games::baghchal::BaghChal;
use zero_train::{TrainConfig, TrainError, Trainer};

fn all_finite(trainer: &Trainer<BaghChal>) -> bool {
    trainer
        .var_store()
        .variables()
        .values()
        .all(|t| t.isfinite().all().int64_value(&[]) == 1)
}

#[test]
fn a_learning_rate_that_blows_up_the_network_stops_training_with_a_clear_error() {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let data = tempfile::tempdir().unwrap();
    write_playouts::<BaghChal>(data.path(), "good", &rules, 3, 30, 1);
    let config = TrainConfig {
        learning_rate: 1e30,
        warmup_steps: 0,
        grad_clip_norm: 0.0,
        ..quick_config()
    };
    let (index, _) = window::<BaghChal>(data.path(), &rules, &config);
    let mut trainer = Trainer::<BaghChal>::new(config, &tiny_network(), rules, Device::Cpu).unwrap();
    let mut steps = 0;
    let err = trainer.train_steps(&index, 20, |_| steps += 1).unwrap_err();
    assert!(matches!(err, TrainError::Diverged { .. }), "{err}");
    let message = err.to_string();
    assert!(
        message.contains(&format!("diverged at step {}", steps + 1)),
        "{message}"
    );
    assert!(message.contains("train.learning_rate"), "{message}");
    assert_eq!(trainer.step(), steps as u64, "the failed step was not counted");
    assert!(all_finite(&trainer), "the failed step touched the parameters");
}

#[test]
fn a_network_holding_a_nan_is_never_saved() {
    let rules = BaghChal::parse_rules(None, &[]).unwrap();
    let trainer = Trainer::<BaghChal>::new(quick_config(), &tiny_network(), rules, Device::Cpu).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.safetensors");
    trainer.save(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(dir.path().join("n.train.safetensors")).unwrap();

    let (name, mut poisoned) = trainer.var_store().variables().into_iter().next().unwrap();
    tch::no_grad(|| {
        let _ = poisoned.fill_(f64::NAN);
    });
    for err in [
        trainer.save(&path).unwrap_err(),
        trainer.export_checkpoint(&path).unwrap_err(),
    ] {
        assert!(matches!(err, TrainError::Diverged { .. }), "{err}");
        assert!(err.to_string().contains(&name), "{err}");
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing was written"
    );
}
