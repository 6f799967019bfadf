//! The residual policy/value network, configured from TOML (the `[network]` table of a run's config).
//!
//! Shape: a 3x3 convolution stem, `blocks` residual blocks of two 3x3 convolutions with batch norm (each with an
//! optional squeeze-excitation gate), then three heads:
//! - policy: 1x1 convolution to `policy_channels`, then either flattened and a linear layer to the game's action
//!   space (`policy_head = "linear"`), or a 1x1 convolution to the game's action planes whose logits are gathered
//!   by the game's action map (`"conv"`, [`zero_games::Encoding::policy_cell`]); logits, the softmax taken over
//!   the legal actions only, see [`crate::encode`];
//! - value: 1x1 convolution to `value_channels`, flattened (or, with `global_pool`, the mean and max of each
//!   channel over the board), a hidden layer, and three logits: win, draw, loss for the side to move;
//! - moves left (optional): from the same value features, the expected number of plies to the end;
//! - short-horizon value (optional, training only): from the same value features, a `tanh` estimate of the
//!   search values of the next few plies (`docs/train.md`), an auxiliary target that play never asks for;
//! - score (optional): from the same value features, a `tanh` estimate of the game's final score
//!   ([`zero_games::Game::score`]), which a search may weigh into its values (`score_utility`).
//!
//! For play, [`PolicyValueNet::fold_batch_norm`] folds each batch norm into the convolution before it (the same
//! function with one operation fewer per layer); training always runs the layers as they are.

use tch::nn::{self, ModuleT};
use tch::{Kind, Tensor};
pub use zero_checkpoint::{NetShape, NetworkConfig, PolicyHead};

/// The batch norms' epsilon (tch's default, named here because folding needs it too).
const NORM_EPS: f64 = 1e-5;

/// The heads' outputs for a batch.
#[derive(Debug)]
pub struct NetOutput {
    /// `[N, actions]` policy logits over the whole action space (mask before the softmax).
    pub policy: Tensor,
    /// `[N, 3]` logits of win, draw, loss for the side to move.
    pub wdl: Tensor,
    /// `[N]` predicted plies to the end, when the network has that head.
    pub moves_left: Option<Tensor>,
    /// `[N]` the short-horizon value in [-1, 1], side to move's view: only in training mode, when the network has
    /// that head.
    pub short_value: Option<Tensor>,
    /// `[N]` the predicted final score in [-1, 1], side to move's view, when the network has that head.
    pub score: Option<Tensor>,
}

/// A convolution without bias and the batch norm after it; once folded, one convolution with a bias.
#[derive(Debug)]
struct ConvNorm {
    conv: nn::Conv2D,
    norm: nn::BatchNorm,
    padding: i64,
    /// The norm folded into the convolution: its weights (in the convolution's format and memory layout) and
    /// bias. Used only outside training, where the norm is a fixed affine map per channel.
    folded: Option<(Tensor, Tensor)>,
}

impl ConvNorm {
    /// A `kernel` x `kernel` convolution (padded to keep the board's size) named `conv` under `p`, and its norm
    /// named `norm`.
    fn new(p: &nn::Path, conv: &str, norm: &str, cin: i64, cout: i64, kernel: i64) -> Self {
        let padding = kernel / 2;
        let conv = nn::conv2d(
            p / conv,
            cin,
            cout,
            kernel,
            nn::ConvConfig {
                padding,
                bias: false,
                ..Default::default()
            },
        );
        ConvNorm {
            conv,
            norm: nn::batch_norm2d(
                p / norm,
                cout,
                nn::BatchNormConfig {
                    eps: NORM_EPS,
                    ..Default::default()
                },
            ),
            padding,
            folded: None,
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        match (&self.folded, train) {
            (Some((weight, bias)), false) => x.conv2d(weight, Some(bias), [1, 1], [self.padding; 2], [1, 1], 1),
            _ => x.apply(&self.conv).apply_t(&self.norm, train),
        }
    }

    /// `norm(conv(x)) = scale * (W x - mean) + beta` per output channel, with `scale = gamma / sqrt(var + eps)`:
    /// the convolution with weights `scale * W` and bias `beta - scale * mean`. Computed in f32 whatever the
    /// network's format, then stored in it.
    fn fold(&mut self) {
        let _no_grad = tch::no_grad_guard();
        let kind = self.conv.ws.kind();
        let f32_of = |t: &Tensor| t.to_kind(Kind::Float);
        let channels = self.norm.running_mean.size()[0];
        let options = (Kind::Float, self.conv.ws.device());
        let gamma = self
            .norm
            .ws
            .as_ref()
            .map_or_else(|| Tensor::ones([channels], options), f32_of);
        let beta = self
            .norm
            .bs
            .as_ref()
            .map_or_else(|| Tensor::zeros([channels], options), f32_of);
        let scale = (f32_of(&self.norm.running_var) + NORM_EPS).rsqrt() * gamma;
        let bias = beta - f32_of(&self.norm.running_mean) * &scale;
        // empty_like keeps the weights' memory layout (channels-last on the CPU, see the evaluator).
        let mut weight = Tensor::empty_like(&self.conv.ws);
        weight.copy_(&(f32_of(&self.conv.ws) * scale.view([-1, 1, 1, 1])));
        self.folded = Some((weight, bias.to_kind(kind)));
    }
}

#[derive(Debug)]
struct ResidualBlock {
    first: ConvNorm,
    second: ConvNorm,
    gate: Option<(nn::Linear, nn::Linear)>,
}

impl ResidualBlock {
    fn new(p: &nn::Path, c: i64, cfg: &NetworkConfig) -> Self {
        let gate = cfg.squeeze_excitation.then(|| {
            let r = c / cfg.se_ratio;
            (
                nn::linear(p / "se1", c, r, Default::default()),
                nn::linear(p / "se2", r, c, Default::default()),
            )
        });
        ResidualBlock {
            first: ConvNorm::new(p, "conv1", "norm1", c, c, 3),
            second: ConvNorm::new(p, "conv2", "norm2", c, c, 3),
            gate,
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        let mut y = self.second.forward_t(&self.first.forward_t(x, train).relu(), train);
        if let Some((squeeze, excite)) = &self.gate {
            // The mean in f32 (an exact sum of 64 squares), back in the network's format for the layers after.
            let s = y
                .mean_dim(&[2i64, 3][..], false, Kind::Float)
                .to_kind(y.kind())
                .apply(squeeze)
                .relu()
                .apply(excite)
                .sigmoid();
            y = &y * s.unsqueeze(-1).unsqueeze(-1);
        }
        (y + x).relu()
    }
}

/// The policy head's last layer, from its features `[N, policy_channels, height, width]` to the logits.
#[derive(Debug)]
enum PolicyOut {
    Linear(nn::Linear),
    /// The 1x1 convolution to the action planes (its variables a convolution's, as the ONNX graph writes it), and
    /// each action's index in its output laid out square by square, `[N, squares, planes]` flattened (on the
    /// device).
    Conv {
        planes: nn::Conv2D,
        map: Tensor,
    },
}

impl PolicyOut {
    fn new(root: &nn::Path, config: &NetworkConfig, shape: NetShape) -> Self {
        match config.policy_head {
            PolicyHead::Linear => PolicyOut::Linear(nn::linear(
                root / "policy_fc",
                config.policy_channels * shape.squares(),
                shape.actions,
                Default::default(),
            )),
            PolicyHead::Conv => {
                let (squares, planes) = (shape.squares(), shape.policy_planes);
                // The map gives `plane * squares + square`; the product below writes square by square.
                let map: Vec<i64> = (shape.policy_map().into_iter())
                    .map(|cell| cell % squares * planes + cell / squares)
                    .collect();
                PolicyOut::Conv {
                    planes: nn::conv2d(
                        root / "policy_planes",
                        config.policy_channels,
                        planes,
                        1,
                        Default::default(),
                    ),
                    map: Tensor::from_slice(&map).to_device(root.device()),
                }
            }
        }
    }

    fn forward(&self, features: &Tensor) -> Tensor {
        match self {
            PolicyOut::Linear(fc) => features.flatten(1, -1).apply(fc),
            PolicyOut::Conv { planes, map } => {
                // The 1x1 convolution as one matrix product over every square of the batch: as fast as libtorch's
                // convolution in f32, 1.08-1.17 times it in bf16 at self-play's batch of 256 (`zero bench nn`).
                let (n, c) = (features.size()[0], features.size()[1]);
                let per_square = features.permute([0, 2, 3, 1]).reshape([-1, c]);
                (per_square.linear(&planes.ws.flatten(1, -1), planes.bs.as_ref()))
                    .view([n, -1])
                    .index_select(1, map)
            }
        }
    }
}

/// The policy/value network. Its variables live in the `VarStore` it was built in.
#[derive(Debug)]
pub struct PolicyValueNet {
    config: NetworkConfig,
    shape: NetShape,
    stem: ConvNorm,
    blocks: Vec<ResidualBlock>,
    policy_conv: ConvNorm,
    policy_out: PolicyOut,
    value_conv: ConvNorm,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
    moves_left: Option<(nn::Linear, nn::Linear)>,
    short_value: Option<(nn::Linear, nn::Linear)>,
    score: Option<(nn::Linear, nn::Linear)>,
}

impl PolicyValueNet {
    /// Builds the network's layers under `root` (panics only on an invalid config; call
    /// [`NetworkConfig::validate_for`] on user input first).
    pub fn new(root: &nn::Path, config: &NetworkConfig, shape: NetShape) -> Self {
        config
            .validate_for(shape)
            .expect("network config validated by the caller");
        let c = config.channels;
        let features = config.value_features(shape);
        let hidden_head = |name: &str| {
            (
                nn::linear(
                    root / format!("{name}_fc1"),
                    features,
                    config.value_hidden,
                    Default::default(),
                ),
                nn::linear(root / format!("{name}_fc2"), config.value_hidden, 1, Default::default()),
            )
        };
        PolicyValueNet {
            stem: ConvNorm::new(root, "stem", "stem_norm", shape.planes, c, 3),
            blocks: (0..config.blocks)
                .map(|i| ResidualBlock::new(&(root / format!("block{i}")), c, config))
                .collect(),
            policy_conv: ConvNorm::new(root, "policy_conv", "policy_norm", c, config.policy_channels, 1),
            policy_out: PolicyOut::new(root, config, shape),
            value_conv: ConvNorm::new(root, "value_conv", "value_norm", c, config.value_channels, 1),
            value_fc1: nn::linear(root / "value_fc1", features, config.value_hidden, Default::default()),
            value_fc2: nn::linear(root / "value_fc2", config.value_hidden, 3, Default::default()),
            moves_left: config.moves_left.then(|| hidden_head("moves_left")),
            short_value: config.short_value.then(|| hidden_head("short_value")),
            score: config.score.then(|| hidden_head("score")),
            config: config.clone(),
            shape,
        }
    }

    pub fn config(&self) -> &NetworkConfig {
        &self.config
    }

    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// Folds every batch norm into the convolution before it, for a network that only plays from now on: the
    /// forward pass outside training then runs one convolution with a bias where it ran a convolution and a
    /// norm (the same function up to rounding). Call it again after the variables change (their format, their
    /// layout or their values); training ignores the folded weights.
    pub fn fold_batch_norm(&mut self) {
        let blocks = self.blocks.iter_mut().flat_map(|b| [&mut b.first, &mut b.second]);
        for layer in [&mut self.stem, &mut self.policy_conv, &mut self.value_conv]
            .into_iter()
            .chain(blocks)
        {
            layer.fold();
        }
    }

    /// Runs the network on `[N, planes, height, width]` inputs.
    pub fn forward(&self, input: &Tensor, train: bool) -> NetOutput {
        let mut x = self.stem.forward_t(input, train).relu();
        for block in &self.blocks {
            x = block.forward_t(&x, train);
        }
        let policy = self.policy_out.forward(&self.policy_conv.forward_t(&x, train).relu());
        let v = self.value_conv.forward_t(&x, train).relu();
        let features = if self.config.global_pool {
            let mean = v.mean_dim(&[2i64, 3][..], false, Kind::Float).to_kind(v.kind());
            let max = v.flatten(2, -1).amax(&[2i64][..], false);
            Tensor::cat(&[mean, max], 1)
        } else {
            v.flatten(1, -1)
        };
        let wdl = features.apply(&self.value_fc1).relu().apply(&self.value_fc2);
        let moves_left = self
            .moves_left
            .as_ref()
            .map(|(fc1, fc2)| features.apply(fc1).relu().apply(fc2).softplus().squeeze_dim(1));
        let short_value = (self.short_value.as_ref())
            .filter(|_| train)
            .map(|(fc1, fc2)| features.apply(fc1).relu().apply(fc2).tanh().squeeze_dim(1));
        let score = (self.score.as_ref()).map(|(fc1, fc2)| features.apply(fc1).relu().apply(fc2).tanh().squeeze_dim(1));
        NetOutput {
            policy,
            wdl,
            moves_left,
            short_value,
            score,
        }
    }
}

impl ModuleT for PolicyValueNet {
    /// The policy logits and the win/draw/loss logits concatenated, `[N, actions + 3]`: one tensor, as
    /// TorchScript tracing needs.
    fn forward_t(&self, xs: &Tensor, train: bool) -> Tensor {
        let out = self.forward(xs, train);
        Tensor::cat(&[out.policy, out.wdl], 1)
    }
}
