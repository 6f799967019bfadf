//! libtorch works from Rust on this machine: a small network trains (forward, backward, an optimizer step
//! lowers the loss) and its weights, batch-norm statistics included, survive a safetensors round trip exactly.

use tch::nn::{self, ModuleT, OptimizerConfig};
use tch::{Device, Kind, Tensor};

fn small_net(vs: &nn::Path) -> nn::SequentialT {
    nn::seq_t()
        .add(nn::conv2d(
            vs / "conv",
            3,
            8,
            3,
            nn::ConvConfig {
                padding: 1,
                ..Default::default()
            },
        ))
        .add(nn::batch_norm2d(vs / "bn", 8, Default::default()))
        .add_fn(|x| x.relu().flatten(1, -1))
        .add(nn::linear(vs / "head", 8 * 4 * 4, 2, Default::default()))
}

#[test]
fn forward_backward_and_a_step_lowers_the_loss() {
    tch::manual_seed(7);
    let vs = nn::VarStore::new(Device::Cpu);
    let net = small_net(&vs.root());
    let input = Tensor::randn([16, 3, 4, 4], (Kind::Float, Device::Cpu));
    let target = Tensor::randint(2, [16], (Kind::Int64, Device::Cpu));
    let mut opt = nn::Sgd {
        momentum: 0.9,
        ..Default::default()
    }
    .build(&vs, 0.05)
    .unwrap();

    let loss_of = |net: &nn::SequentialT| net.forward_t(&input, true).cross_entropy_for_logits(&target);
    let first = loss_of(&net);
    let first_value = first.double_value(&[]);
    assert!(first_value.is_finite());
    opt.zero_grad();
    first.backward();
    let grad_norm: f64 = vs
        .trainable_variables()
        .iter()
        .map(|v| v.grad().square().sum(Kind::Float).double_value(&[]))
        .sum();
    assert!(grad_norm > 0.0 && grad_norm.is_finite(), "gradient norm {grad_norm}");
    opt.step();
    for _ in 0..20 {
        opt.backward_step(&loss_of(&net));
    }
    let last = loss_of(&net).double_value(&[]);
    assert!(last < first_value * 0.8, "loss went from {first_value} to {last}");
}

#[test]
fn safetensors_round_trip_gives_identical_outputs() {
    tch::manual_seed(11);
    let vs = nn::VarStore::new(Device::Cpu);
    let net = small_net(&vs.root());
    let input = Tensor::randn([5, 3, 4, 4], (Kind::Float, Device::Cpu));
    // A training-mode pass moves the batch-norm running statistics away from their initial values, so the
    // round trip must carry buffers too, not only trainable weights.
    let _ = net.forward_t(&input, true);
    let expected = net.forward_t(&input, false);

    let dir = std::env::temp_dir().join(format!("zero-libtorch-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("weights.safetensors");
    vs.save(&path).unwrap();

    tch::manual_seed(99); // different initial weights, overwritten by the load
    let mut other = nn::VarStore::new(Device::Cpu);
    let other_net = small_net(&other.root());
    assert!(
        other_net
            .forward_t(&input, false)
            .ne_tensor(&expected)
            .any()
            .int64_value(&[])
            == 1
    );
    other.load(&path).unwrap();
    let got = other_net.forward_t(&input, false);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(got.equal(&expected), "outputs differ after the round trip");
}
