//! The learning-rate schedule and gradient clipping behave as configured.
use tch::{Kind, Tensor};
use zero_train::optimizer::clip_grad_norm;
use zero_train::{DecayKind, LrSchedule, TrainConfig};

fn schedule(decay: DecayKind) -> LrSchedule {
    LrSchedule::of(&TrainConfig {
        learning_rate: 0.1,
        warmup_steps: 10,
        decay,
        decay_steps: 110,
        final_lr_ratio: 0.1,
        step_decay_every: 20,
        step_decay_factor: 0.5,
        ..TrainConfig::default()
    })
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn warm_up_is_linear_then_cosine_decays_to_its_floor() {
    let s = schedule(DecayKind::Cosine);
    for step in 0..10 {
        assert!(close(s.lr_at(step), 0.1 * (step + 1) as f64 / 10.0), "step {step}");
    }
    assert!(close(s.lr_at(10), 0.1));
    // Half-way through the 100 decay steps: the mean of peak and floor.
    assert!(close(s.lr_at(60), (0.1 + 0.01) / 2.0));
    assert!(close(s.lr_at(110), 0.01));
    assert!(close(s.lr_at(10_000), 0.01));
    for step in 10..110 {
        assert!(s.lr_at(step + 1) <= s.lr_at(step));
    }
}

#[test]
fn step_decay_multiplies_at_each_boundary_and_constant_stays() {
    let s = schedule(DecayKind::Step);
    assert!(close(s.lr_at(10), 0.1));
    assert!(close(s.lr_at(29), 0.1));
    assert!(close(s.lr_at(30), 0.05));
    assert!(close(s.lr_at(50), 0.025));
    let c = schedule(DecayKind::Constant);
    assert!(close(c.lr_at(5), 0.06));
    assert!(close(c.lr_at(1_000_000), 0.1));
}

fn with_grad(values: &[f32]) -> Tensor {
    let p = Tensor::zeros([values.len() as i64], (Kind::Float, tch::Device::Cpu)).set_requires_grad(true);
    let target = Tensor::from_slice(values);
    // d/dp of sum(p * target) is target.
    (&p * &target).sum(Kind::Float).backward();
    p
}

fn grad_norm(params: &[Tensor]) -> f64 {
    params
        .iter()
        .map(|p| p.grad().square().sum(Kind::Float).double_value(&[]))
        .sum::<f64>()
        .sqrt()
}

#[test]
fn clipping_scales_the_global_norm_down_to_the_limit_and_leaves_small_gradients() {
    // Global norm of (3, 0) and (0, 4) is 5.
    let params = [with_grad(&[3.0, 0.0]), with_grad(&[0.0, 4.0])];
    let before = clip_grad_norm(&params, 1.0);
    assert!((before - 5.0).abs() < 1e-6);
    assert!((grad_norm(&params) - 1.0).abs() < 1e-5);
    // Direction kept: (0.6, 0) and (0, 0.8).
    assert!((params[0].grad().double_value(&[0]) - 0.6).abs() < 1e-5);
    assert!((params[1].grad().double_value(&[1]) - 0.8).abs() < 1e-5);

    let small = [with_grad(&[0.3, 0.4])];
    assert!((clip_grad_norm(&small, 1.0) - 0.5).abs() < 1e-6);
    assert!((grad_norm(&small) - 0.5).abs() < 1e-6);
    // 0 turns clipping off.
    let off = [with_grad(&[30.0, 40.0])];
    assert!((clip_grad_norm(&off, 0.0) - 50.0).abs() < 1e-4);
    assert!((grad_norm(&off) - 50.0).abs() < 1e-4);
}
