//! The residual policy/value network, configured from TOML (the `[network]` table of a run's config).
//!
//! Shape: a 3x3 convolution stem, `blocks` residual blocks of two 3x3 convolutions with batch norm (each with an
//! optional squeeze-excitation gate), then three heads:
//! - policy: 1x1 convolution to `policy_channels`, flattened, a linear layer to the game's action space
//!   (logits; the softmax is taken over the legal actions only, see [`crate::encode`]);
//! - value: 1x1 convolution to `value_channels`, flattened (or, with `global_pool`, the mean and max of each
//!   channel over the board), a hidden layer, and three logits: win, draw, loss for the side to move;
//! - moves left (optional): from the same value features, the expected number of plies to the end.

use tch::nn::{self, ModuleT};
use tch::{Kind, Tensor};
pub use zero_checkpoint::{NetShape, NetworkConfig};

/// The heads' outputs for a batch.
#[derive(Debug)]
pub struct NetOutput {
    /// `[N, actions]` policy logits over the whole action space (mask before the softmax).
    pub policy: Tensor,
    /// `[N, 3]` logits of win, draw, loss for the side to move.
    pub wdl: Tensor,
    /// `[N]` predicted plies to the end, when the network has that head.
    pub moves_left: Option<Tensor>,
}

#[derive(Debug)]
struct ResidualBlock {
    conv1: nn::Conv2D,
    norm1: nn::BatchNorm,
    conv2: nn::Conv2D,
    norm2: nn::BatchNorm,
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
            conv1: conv3x3(p / "conv1", c, c),
            norm1: nn::batch_norm2d(p / "norm1", c, Default::default()),
            conv2: conv3x3(p / "conv2", c, c),
            norm2: nn::batch_norm2d(p / "norm2", c, Default::default()),
            gate,
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        let mut y = x
            .apply(&self.conv1)
            .apply_t(&self.norm1, train)
            .relu()
            .apply(&self.conv2)
            .apply_t(&self.norm2, train);
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

fn conv3x3(p: nn::Path, cin: i64, cout: i64) -> nn::Conv2D {
    nn::conv2d(
        p,
        cin,
        cout,
        3,
        nn::ConvConfig {
            padding: 1,
            bias: false,
            ..Default::default()
        },
    )
}

fn conv1x1(p: nn::Path, cin: i64, cout: i64) -> nn::Conv2D {
    nn::conv2d(
        p,
        cin,
        cout,
        1,
        nn::ConvConfig {
            bias: false,
            ..Default::default()
        },
    )
}

/// The policy/value network. Its variables live in the `VarStore` it was built in.
#[derive(Debug)]
pub struct PolicyValueNet {
    config: NetworkConfig,
    shape: NetShape,
    stem: nn::Conv2D,
    stem_norm: nn::BatchNorm,
    blocks: Vec<ResidualBlock>,
    policy_conv: nn::Conv2D,
    policy_norm: nn::BatchNorm,
    policy_fc: nn::Linear,
    value_conv: nn::Conv2D,
    value_norm: nn::BatchNorm,
    value_fc1: nn::Linear,
    value_fc2: nn::Linear,
    moves_left: Option<(nn::Linear, nn::Linear)>,
}

impl PolicyValueNet {
    /// Builds the network's layers under `root` (panics only on an invalid config; call
    /// [`NetworkConfig::validate`] on user input first).
    pub fn new(root: &nn::Path, config: &NetworkConfig, shape: NetShape) -> Self {
        config.validate().expect("network config validated by the caller");
        let c = config.channels;
        let features = config.value_features(shape);
        PolicyValueNet {
            stem: conv3x3(root / "stem", shape.planes, c),
            stem_norm: nn::batch_norm2d(root / "stem_norm", c, Default::default()),
            blocks: (0..config.blocks)
                .map(|i| ResidualBlock::new(&(root / format!("block{i}")), c, config))
                .collect(),
            policy_conv: conv1x1(root / "policy_conv", c, config.policy_channels),
            policy_norm: nn::batch_norm2d(root / "policy_norm", config.policy_channels, Default::default()),
            policy_fc: nn::linear(
                root / "policy_fc",
                config.policy_channels * shape.squares(),
                shape.actions,
                Default::default(),
            ),
            value_conv: conv1x1(root / "value_conv", c, config.value_channels),
            value_norm: nn::batch_norm2d(root / "value_norm", config.value_channels, Default::default()),
            value_fc1: nn::linear(root / "value_fc1", features, config.value_hidden, Default::default()),
            value_fc2: nn::linear(root / "value_fc2", config.value_hidden, 3, Default::default()),
            moves_left: config.moves_left.then(|| {
                (
                    nn::linear(
                        root / "moves_left_fc1",
                        features,
                        config.value_hidden,
                        Default::default(),
                    ),
                    nn::linear(root / "moves_left_fc2", config.value_hidden, 1, Default::default()),
                )
            }),
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

    /// Runs the network on `[N, planes, height, width]` inputs.
    pub fn forward(&self, input: &Tensor, train: bool) -> NetOutput {
        let mut x = input.apply(&self.stem).apply_t(&self.stem_norm, train).relu();
        for block in &self.blocks {
            x = block.forward_t(&x, train);
        }
        let policy = x
            .apply(&self.policy_conv)
            .apply_t(&self.policy_norm, train)
            .relu()
            .flatten(1, -1)
            .apply(&self.policy_fc);
        let v = x.apply(&self.value_conv).apply_t(&self.value_norm, train).relu();
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
        NetOutput {
            policy,
            wdl,
            moves_left,
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
