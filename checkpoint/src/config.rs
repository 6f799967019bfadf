//! The network's architecture as configs write it and checkpoints record it ([`NetworkConfig`]), and what a
//! game asks of it ([`NetShape`]). The layers themselves are built in `zero-model` (tch) and written as ONNX in
//! `zero-onnx`, both from these.

use serde::{Deserialize, Serialize};

/// The architecture, as written in configs and recorded in checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the trunk.
    pub channels: i64,
    /// A squeeze-excitation gate in each block.
    pub squeeze_excitation: bool,
    /// Channel reduction of the squeeze-excitation gate.
    pub se_ratio: i64,
    /// Value head reads per-channel mean and max over the board instead of every square.
    pub global_pool: bool,
    /// How the policy head turns its features into the action space's logits: a linear layer over the whole
    /// board ([`PolicyHead::Linear`], the default) or one 1x1 convolution to the game's action planes
    /// ([`PolicyHead::Conv`], only for a game with a spatial action map, [`NetShape::policy_planes`]).
    pub policy_head: PolicyHead,
    /// Channels of the policy head's first 1x1 convolution.
    pub policy_channels: i64,
    /// Channels of the value head's 1x1 convolution.
    pub value_channels: i64,
    /// Width of the value head's hidden layer.
    pub value_hidden: i64,
    /// Predict the plies left to the end of the game as well.
    pub moves_left: bool,
    /// An auxiliary head trained on the short-horizon value (KataGo's short-term value target: the search values
    /// of the next few plies, exponentially weighted, `docs/train.md`). Training only: play never computes it.
    pub short_value: bool,
    /// A head predicting the game's final score ([`zero_games::Game::score`]: Bagh Chal's goats captured), a
    /// `tanh` in [-1, 1], side to move's view. Play reads it where a search weighs the score
    /// (`selfplay.search.score_utility`); a game without a score only trains it toward 0.
    pub score: bool,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            blocks: 4,
            channels: 32,
            squeeze_excitation: false,
            se_ratio: 4,
            global_pool: false,
            policy_head: PolicyHead::Linear,
            policy_channels: 4,
            value_channels: 2,
            value_hidden: 64,
            moves_left: false,
            short_value: false,
            score: false,
        }
    }
}

/// The policy head's last layer (`network.policy_head` in a config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PolicyHead {
    /// A linear layer from every square's `policy_channels` to every action: `policy_channels x squares x
    /// actions` multiply-adds, most of a small network's work where the action space is large (Tours: 4 096).
    #[default]
    Linear,
    /// A 1x1 convolution from `policy_channels` to the game's action planes, each action's logit read at its
    /// plane and square (AlphaZero's chess head, lc0's policy map): `policy_channels x planes x squares`.
    Conv,
}

/// What the network is built for: a game's input and action space.
#[derive(Debug, Clone, Copy)]
pub struct NetShape {
    pub planes: i64,
    pub height: i64,
    pub width: i64,
    pub actions: i64,
    /// Planes of the game's spatial action map ([`zero_games::Encoding::POLICY_PLANES`]); 0 when it has none.
    pub policy_planes: i64,
    /// Each action's index in the action planes, flattened `[planes, height, width]`
    /// ([`zero_games::Encoding::policy_cell`]).
    pub policy_cell: fn(usize) -> usize,
}

impl NetShape {
    pub fn of<G: zero_games::Encoding>() -> NetShape {
        NetShape {
            planes: G::INPUT_PLANES as i64,
            height: G::BOARD_HEIGHT as i64,
            width: G::BOARD_WIDTH as i64,
            actions: G::ACTION_SPACE as i64,
            policy_planes: G::POLICY_PLANES as i64,
            policy_cell: |a| G::policy_cell(a as zero_games::Action),
        }
    }

    pub fn squares(&self) -> i64 {
        self.height * self.width
    }

    /// The action planes' index of every action in turn: what a convolutional policy head gathers its logits by.
    pub fn policy_map(&self) -> Vec<i64> {
        (0..self.actions as usize)
            .map(|a| (self.policy_cell)(a) as i64)
            .collect()
    }
}

/// Why a network config cannot be built: the key, its value and the bound it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkConfigError {
    #[error("network.{key} must be positive, got {value}")]
    NotPositive { key: &'static str, value: i64 },
    #[error("network.se_ratio {se_ratio} leaves no channels of {channels}")]
    NoSqueezeChannels { se_ratio: i64, channels: i64 },
    #[error("network.{key} must be at most {max}, got {value}")]
    TooLarge { key: &'static str, value: i64, max: i64 },
    #[error(
        "network.policy_head = \"conv\" needs a game with a spatial action map; this game has none (use \"linear\")"
    )]
    ConvPolicyWithoutMap,
}

impl NetworkConfig {
    /// Checks the numbers before any layer is built.
    pub fn validate(&self) -> Result<(), NetworkConfigError> {
        let positive = [
            ("channels", self.channels),
            ("se_ratio", self.se_ratio),
            ("policy_channels", self.policy_channels),
            ("value_channels", self.value_channels),
            ("value_hidden", self.value_hidden),
        ];
        for (key, value) in positive {
            if value <= 0 {
                return Err(NetworkConfigError::NotPositive { key, value });
            }
        }
        if self.squeeze_excitation && self.channels / self.se_ratio == 0 {
            return Err(NetworkConfigError::NoSqueezeChannels {
                se_ratio: self.se_ratio,
                channels: self.channels,
            });
        }
        // Upper bounds, so that a typo or an edited checkpoint is refused here instead of allocating gigabytes.
        let bounded = [
            ("blocks", self.blocks as i64, 64),
            ("channels", self.channels, 1024),
            ("se_ratio", self.se_ratio, 1024),
            ("policy_channels", self.policy_channels, 256),
            ("value_channels", self.value_channels, 256),
            ("value_hidden", self.value_hidden, 4096),
        ];
        for (key, value, max) in bounded {
            if value > max {
                return Err(NetworkConfigError::TooLarge { key, value, max });
            }
        }
        Ok(())
    }

    /// [`NetworkConfig::validate`], and that the game of `shape` can have this policy head.
    pub fn validate_for(&self, shape: NetShape) -> Result<(), NetworkConfigError> {
        self.validate()?;
        if self.policy_head == PolicyHead::Conv && shape.policy_planes == 0 {
            return Err(NetworkConfigError::ConvPolicyWithoutMap);
        }
        Ok(())
    }

    /// Floating-point operations (2 per multiply-add) of one evaluation; batch norm and activations, a few
    /// percent, are not counted.
    pub fn flops_per_eval(&self, shape: NetShape) -> u64 {
        let hw = shape.squares();
        let c = self.channels;
        let conv3 = |cin: i64, cout: i64| 2 * 9 * cin * cout * hw;
        let mut flops = conv3(shape.planes, c);
        for _ in 0..self.blocks {
            flops += 2 * conv3(c, c);
            if self.squeeze_excitation {
                let r = c / self.se_ratio;
                flops += 2 * (c * r + r * c);
            }
        }
        flops += 2 * c * self.policy_channels * hw;
        flops += match self.policy_head {
            PolicyHead::Linear => 2 * self.policy_channels * hw * shape.actions,
            PolicyHead::Conv => 2 * self.policy_channels * shape.policy_planes * hw,
        };
        let value_features = self.value_features(shape);
        flops += 2 * c * self.value_channels * hw + 2 * value_features * self.value_hidden + 2 * self.value_hidden * 3;
        if self.moves_left {
            flops += 2 * value_features * self.value_hidden + 2 * self.value_hidden;
        }
        flops as u64
    }

    /// Inputs of the value head's hidden layer: every square of its channels, or their mean and max.
    pub fn value_features(&self, shape: NetShape) -> i64 {
        if self.global_pool {
            2 * self.value_channels
        } else {
            self.value_channels * shape.squares()
        }
    }
}
