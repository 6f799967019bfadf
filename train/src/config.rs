//! The `[train]` table of a run config: data window, batch, losses, optimizer, schedule, checkpoints, threads.

use serde::{Deserialize, Serialize};
use zero_data::{ReplayConfig, WindowRule};

/// Which optimizer updates the weights (both implemented here, so that their state can be saved exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// Stochastic gradient descent with momentum (PyTorch's formulation), L2 weight decay added to the gradient.
    Sgd,
    /// Adam with decoupled weight decay (Loshchilov and Hutter).
    AdamW,
}

/// What the learning rate does after the warm-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecayKind {
    /// Half a cosine from `learning_rate` down to `learning_rate x final_lr_ratio` at `decay_steps`, flat after.
    Cosine,
    /// Multiplied by `step_decay_factor` every `step_decay_every` steps after the warm-up.
    Step,
    /// No decay.
    Constant,
}

/// How the replay window grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WindowKind {
    /// The newest `window_positions` positions.
    Fixed,
    /// KataGo-style sub-linear growth between `window_min_positions` and `window_max_positions`.
    Growing,
}

/// Everything the trainer needs besides the network's architecture. Every field has a default, so a config may
/// name only what it changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Seed of the fresh network's weights, of the sample order and of the augmentation.
    pub seed: u64,
    /// Positions per optimizer step.
    pub batch_size: usize,
    /// The sample stream is rebuilt with a seed derived from (seed, chunk) every this many steps, which makes the
    /// data a function of the step alone and so lets training resume exactly at any step.
    pub chunk_steps: u64,
    /// How the replay window is sized: `fixed` or `growing`.
    pub window: WindowKind,
    /// Size of a `fixed` window, in positions.
    pub window_positions: usize,
    /// A `growing` window takes every position up to this many.
    pub window_min_positions: usize,
    /// A `growing` window never exceeds this many positions.
    pub window_max_positions: usize,
    /// Growth exponent of a `growing` window, in (0, 1].
    pub window_exponent: f64,
    /// Training samples per newly written position (the run loop's steps = this x new positions / batch size).
    pub samples_per_position: f64,
    /// Rows in the shuffle buffer; memory grows with it, not with the window.
    pub shuffle_buffer: usize,
    /// Batches decoded ahead of the optimizer by the loader thread.
    pub prefetch_batches: usize,
    /// Refuse to start when the estimated memory of the data path (shuffle buffer and prefetched batches)
    /// exceeds this many MiB.
    pub memory_cap_mib: usize,
    /// Apply a random rule-preserving symmetry of the game to each sample (games without any train unchanged).
    pub augment: bool,
    /// Weight of the policy cross-entropy.
    pub policy_weight: f64,
    /// Weight of the win/draw/loss cross-entropy.
    pub value_weight: f64,
    /// Plies over which a result fades toward a draw in the value target: a position `k` plies from the end
    /// of a won (lost) game is taught `exp(-k / value_horizon)` win (loss) and the rest draw, so that a loss
    /// later is worth more than a loss sooner. 0 = off: every position is taught the plain result.
    pub value_horizon: f64,
    /// Share of the value target taken from the search's value at the position (the record's `root_value`)
    /// rather than the game's result: `(1 - w) x result + w x root value` (lc0's `q_ratio`). In a game drawn
    /// nearly every time the result says little about a position, where the search's value still tells the
    /// better positions from the worse. 0 = the result alone.
    pub root_value_weight: f64,
    /// Weight of the moves-left Huber loss (used only when the network has that head).
    pub moves_left_weight: f64,
    /// Plies are divided by this before the moves-left Huber loss (delta 1), so one unit is this many plies.
    pub moves_left_scale: f64,
    /// Weight of the short-horizon value's squared error (used only when the network has that head,
    /// `network.short_value`).
    pub short_value_weight: f64,
    /// Weight of the score's squared error (used only when the network has that head, `network.score`).
    pub score_weight: f64,
    /// `sgd` or `adamw`.
    pub optimizer: OptimizerKind,
    /// Peak learning rate, reached at the end of the warm-up.
    pub learning_rate: f64,
    /// SGD momentum.
    pub momentum: f64,
    /// Nesterov momentum for SGD.
    pub nesterov: bool,
    /// AdamW's first-moment decay.
    pub adam_beta1: f64,
    /// AdamW's second-moment decay.
    pub adam_beta2: f64,
    /// AdamW's epsilon.
    pub adam_eps: f64,
    /// Weight decay: L2 added to the gradient with SGD, decoupled with AdamW.
    pub weight_decay: f64,
    /// Steps of linear warm-up from 0 to `learning_rate`.
    pub warmup_steps: u64,
    /// `cosine`, `step` or `constant`.
    pub decay: DecayKind,
    /// Cosine: the step (counted from 0, warm-up included) where the rate reaches its final value.
    pub decay_steps: u64,
    /// Cosine: the final rate as a fraction of `learning_rate`.
    pub final_lr_ratio: f64,
    /// Step decay: steps between two multiplications.
    pub step_decay_every: u64,
    /// Step decay: the factor.
    pub step_decay_factor: f64,
    /// Clip the gradient's global L2 norm to this; 0 turns clipping off.
    pub grad_clip_norm: f64,
    /// Mixed precision (CUDA only): the forward pass under autocast (float16) with dynamic loss scaling; weights
    /// and optimizer state stay float32. Refused on the CPU.
    pub mixed_precision: bool,
    /// Device: auto, cpu, cuda or cuda:N.
    pub device: String,
    /// libtorch intra-op threads for training (1 was fastest on the 2-core development machine, see docs/train.md).
    pub threads: i32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            seed: 1,
            batch_size: 256,
            chunk_steps: 200,
            window: WindowKind::Growing,
            window_positions: 500_000,
            window_min_positions: 250_000,
            window_max_positions: 2_000_000,
            window_exponent: 0.75,
            samples_per_position: 4.0,
            shuffle_buffer: 50_000,
            prefetch_batches: 4,
            memory_cap_mib: 1024,
            augment: true,
            policy_weight: 1.0,
            value_weight: 1.0,
            value_horizon: 0.0,
            root_value_weight: 0.0,
            moves_left_weight: 0.1,
            moves_left_scale: 20.0,
            short_value_weight: 1.5,
            score_weight: 1.0,
            optimizer: OptimizerKind::Sgd,
            learning_rate: 0.02,
            momentum: 0.9,
            nesterov: true,
            adam_beta1: 0.9,
            adam_beta2: 0.999,
            adam_eps: 1e-8,
            weight_decay: 1e-4,
            warmup_steps: 200,
            decay: DecayKind::Cosine,
            decay_steps: 100_000,
            final_lr_ratio: 0.05,
            step_decay_every: 20_000,
            step_decay_factor: 0.3,
            grad_clip_norm: 10.0,
            mixed_precision: false,
            device: "auto".to_string(),
            threads: 1,
        }
    }
}

/// Why a `[train]` setting was refused; the message names the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl From<&str> for ConfigError {
    fn from(message: &str) -> Self {
        ConfigError(message.to_string())
    }
}

impl TrainConfig {
    /// Checks the numbers; the message names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let positive_usize = [
            ("batch_size", self.batch_size),
            ("shuffle_buffer", self.shuffle_buffer),
            ("prefetch_batches", self.prefetch_batches),
        ];
        for (key, v) in positive_usize {
            if v == 0 {
                return Err(ConfigError(format!("train.{key} must be positive")));
            }
        }
        if self.chunk_steps == 0 {
            return Err("train.chunk_steps must be positive".into());
        }
        if self.threads < 1 {
            return Err(ConfigError(format!(
                "train.threads must be at least 1, got {}",
                self.threads
            )));
        }
        let non_negative = [
            ("samples_per_position", self.samples_per_position),
            ("policy_weight", self.policy_weight),
            ("value_weight", self.value_weight),
            ("value_horizon", self.value_horizon),
            ("moves_left_weight", self.moves_left_weight),
            ("short_value_weight", self.short_value_weight),
            ("score_weight", self.score_weight),
            ("learning_rate", self.learning_rate),
            ("weight_decay", self.weight_decay),
            ("grad_clip_norm", self.grad_clip_norm),
            ("final_lr_ratio", self.final_lr_ratio),
            ("step_decay_factor", self.step_decay_factor),
        ];
        for (key, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(ConfigError(format!(
                    "train.{key} must be a finite number >= 0, got {v}"
                )));
            }
        }
        if !(0.0..=1.0).contains(&self.root_value_weight) {
            return Err(ConfigError(format!(
                "train.root_value_weight must be in [0, 1], got {}",
                self.root_value_weight
            )));
        }
        if !self.moves_left_scale.is_finite() || self.moves_left_scale <= 0.0 {
            return Err("train.moves_left_scale must be positive".into());
        }
        for (key, v) in [
            ("momentum", self.momentum),
            ("adam_beta1", self.adam_beta1),
            ("adam_beta2", self.adam_beta2),
        ] {
            if !(0.0..1.0).contains(&v) {
                return Err(ConfigError(format!("train.{key} must be in [0, 1), got {v}")));
            }
        }
        if !self.adam_eps.is_finite() || self.adam_eps <= 0.0 {
            return Err("train.adam_eps must be positive".into());
        }
        if !(self.window_exponent.is_finite() && self.window_exponent > 0.0 && self.window_exponent <= 1.0) {
            return Err(ConfigError(format!(
                "train.window_exponent must be in (0, 1], got {}",
                self.window_exponent
            )));
        }
        if self.window_min_positions > self.window_max_positions {
            return Err("train.window_min_positions exceeds train.window_max_positions".into());
        }
        if self.decay == DecayKind::Step && self.step_decay_every == 0 {
            return Err("train.step_decay_every must be positive with decay = \"step\"".into());
        }
        self.device
            .parse::<zero_model::DeviceChoice>()
            .map_err(|e| ConfigError(format!("train.device: {e}")))?;
        Ok(())
    }

    /// The window rule of the data crate.
    pub fn window_rule(&self) -> WindowRule {
        match self.window {
            WindowKind::Fixed => WindowRule::Fixed {
                positions: self.window_positions,
            },
            WindowKind::Growing => WindowRule::Growing {
                min_positions: self.window_min_positions,
                max_positions: self.window_max_positions,
                exponent: self.window_exponent,
            },
        }
    }

    /// The data crate's replay config; its seed is replaced per chunk by the loader.
    pub fn replay(&self) -> ReplayConfig {
        ReplayConfig {
            window: self.window_rule(),
            samples_per_position: self.samples_per_position,
            shuffle_buffer: self.shuffle_buffer,
            seed: self.seed,
        }
    }

    /// Optimizer steps that consume `samples_for(new_positions)` samples (rounded up to whole batches): what a
    /// run loop trains after self-play wrote `new_positions` positions.
    pub fn steps_for_new_positions(&self, new_positions: u64) -> u64 {
        let samples = self.replay().samples_for(new_positions) as u64;
        samples.div_ceil(self.batch_size as u64)
    }

    /// Estimated bytes of the data path: the shuffle buffer (each buffered sample holds its quantized input plus
    /// about 200 bytes of action lists, scalars and vector headers) and the prefetched float batches (input,
    /// policy target and legal mask), plus one Arrow read batch of 1 024 rows.
    pub fn data_memory_bytes(&self, input_len: usize, action_space: usize) -> u64 {
        let row = input_len as u64 + 200;
        let buffer = self.shuffle_buffer as u64 * row;
        let batch = self.batch_size as u64 * (input_len as u64 * 4 + action_space as u64 * 5 + 16);
        // The loader holds one batch being built plus the channel's.
        let prefetched = (self.prefetch_batches as u64 + 1) * batch;
        let read_batch = zero_data::READ_BATCH_ROWS as u64 * row;
        buffer + prefetched + read_batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_bad_values_name_the_key() {
        TrainConfig::default().validate().unwrap();
        let bad = TrainConfig {
            momentum: 1.5,
            ..TrainConfig::default()
        };
        assert!(bad.validate().unwrap_err().to_string().contains("train.momentum"));
        let bad = TrainConfig {
            batch_size: 0,
            ..TrainConfig::default()
        };
        assert!(bad.validate().unwrap_err().to_string().contains("train.batch_size"));
        for w in [-0.1, 1.5, f64::NAN] {
            let bad = TrainConfig {
                root_value_weight: w,
                ..TrainConfig::default()
            };
            assert!(
                bad.validate()
                    .unwrap_err()
                    .to_string()
                    .contains("train.root_value_weight"),
                "{w}"
            );
        }
    }

    #[test]
    fn steps_for_new_positions_round_up_to_batches() {
        let c = TrainConfig {
            batch_size: 100,
            samples_per_position: 2.0,
            ..TrainConfig::default()
        };
        assert_eq!(c.steps_for_new_positions(1000), 20);
        assert_eq!(c.steps_for_new_positions(1001), 21);
    }
}
