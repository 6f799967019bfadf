//! The records self-play writes and the trainer reads, and the byte quantization of network inputs.

use crate::error::RowError;
use serde::{Deserialize, Serialize};

/// One searched position. Actions are in the network's policy-index space (already mapped to the side to move's
/// view by the search), so the trainer needs no game state.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRecord {
    /// Unique per game.
    pub game_id: String,
    /// Complete moves played before this position.
    pub ply: u32,
    /// Actions played before it (a multi-jump capture is several actions of one move).
    pub step: u32,
    /// 0 = first player, 1 = second.
    pub side_to_move: u8,
    /// The position in the game's notation.
    pub position: String,
    /// Network input planes quantized to bytes by [`quantize`]: `round(v * 255)`, every plane value in [0, 1].
    pub input: Vec<u8>,
    pub legal_actions: Vec<u16>,
    /// Search policy target, sparse: the actions with a nonzero probability.
    pub policy_actions: Vec<u16>,
    /// Probabilities of `policy_actions`, same length.
    pub policy_probs: Vec<f32>,
    /// Search value at the root, side to move's view, in [-1, 1].
    pub root_value: f32,
    /// Value target from the side to move's view: the final result 1, 0, -1, or for a draw judged by
    /// `selfplay.draw_score` a score in [-1, 1].
    pub result: f32,
    /// Actions from here to the end of the game.
    pub plies_to_end: u32,
    /// Playout cap randomization: the position is a policy target only when true.
    pub full_search: bool,
    pub simulations: u32,
    /// The short-horizon value target, side to move's view, in [-1, 1]: the search values of the next plies
    /// exponentially weighted, the result standing in for the plies past the end (`docs/data.md`). Files written
    /// before it existed read their `result` here.
    pub short_value: f32,
    /// The game's score at its end (`Game::score`: Bagh Chal's goats captured over five), side to
    /// move's view, in [-1, 1]; 0 for games without a score. Files written before it existed read 0 here.
    pub score: f32,
}

impl PositionRecord {
    /// The values the trainer uses, to be checked.
    pub(crate) fn values(&self) -> RowValues<'_> {
        RowValues {
            legal_actions: &self.legal_actions,
            policy_actions: &self.policy_actions,
            policy_probs: &self.policy_probs,
            root_value: self.root_value,
            result: self.result,
            short_value: self.short_value,
            score: self.score,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub game_id: String,
    pub start_position: String,
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// 0 = first player, 1 = second, `None` for a draw.
    pub winner: Option<u8>,
    /// Why the game ended, e.g. "no-legal-move", "repetition", "resignation".
    pub reason: String,
    pub plies: u32,
    /// A would-be-resigned game played out to measure false resignations.
    pub resigned_false_check: bool,
}

/// What every row of a shard shares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardHeader {
    pub run: String,
    pub generation: u32,
    pub model_id: String,
    pub game: String,
    pub rules: String,
    pub encoding_version: u32,
    /// Planes, height, width.
    pub input_shape: [u32; 3],
    pub action_space: u32,
}

impl ShardHeader {
    /// Bytes of one quantized network input: planes x height x width.
    pub fn input_len(&self) -> usize {
        self.input_shape.iter().map(|&d| d as usize).product()
    }
}

/// The values of one position row that the trainer turns into tensors, checked by the writer before a row is
/// stored and by every reader after it is decoded: a shard damaged or edited outside zero must not reach the
/// network as a NaN, a target outside [-1, 1] or an index past its policy head.
pub(crate) struct RowValues<'a> {
    pub legal_actions: &'a [u16],
    pub policy_actions: &'a [u16],
    pub policy_probs: &'a [f32],
    pub root_value: f32,
    pub result: f32,
    pub short_value: f32,
    pub score: f32,
}

/// Slack on the sum of a row's policy probabilities: they are single floats summed from visit counts.
const POLICY_SUM_SLACK: f64 = 1e-3;

impl RowValues<'_> {
    /// Why the row cannot be trained on, or `Ok` when it can.
    pub(crate) fn check(&self, action_space: u32) -> Result<(), RowError> {
        if self.policy_actions.len() != self.policy_probs.len() {
            return Err(RowError::PolicyLengths {
                actions: self.policy_actions.len(),
                probabilities: self.policy_probs.len(),
            });
        }
        if let Some(&action) = self
            .legal_actions
            .iter()
            .chain(self.policy_actions)
            .find(|&&a| u32::from(a) >= action_space)
        {
            return Err(RowError::Action { action, action_space });
        }
        let values = [
            ("result", self.result),
            ("root value", self.root_value),
            ("short value", self.short_value),
            ("score", self.score),
        ];
        for (name, value) in values {
            if !(-1.0..=1.0).contains(&value) {
                return Err(RowError::Value { name, value });
            }
        }
        let mut total = 0.0f64;
        for &p in self.policy_probs {
            if !(0.0..=1.0).contains(&p) {
                return Err(RowError::Probability(p));
            }
            total += f64::from(p);
        }
        if total > 1.0 + POLICY_SUM_SLACK {
            return Err(RowError::PolicySum(total));
        }
        Ok(())
    }
}

/// Quantizes network input planes to bytes: `round(v * 255)`. Plane values are in [0, 1] (binary planes and
/// normalized counters), so one byte keeps binary planes exact and counters to 1/255; values outside are clamped.
pub fn quantize(planes: &[f32]) -> Vec<u8> {
    planes
        .iter()
        .map(|&v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

/// The inverse of [`quantize`]: writes `byte / 255` into `out`, which must have the input's length.
///
/// # Panics
/// If the lengths differ (a programming error, not a data error: the reader checks input lengths).
pub fn dequantize(bytes: &[u8], out: &mut [f32]) {
    assert_eq!(
        bytes.len(),
        out.len(),
        "dequantize: {} bytes into {} floats",
        bytes.len(),
        out.len()
    );
    for (o, &b) in out.iter_mut().zip(bytes) {
        *o = f32::from(b) * (1.0 / 255.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(actions: &'a [u16], probs: &'a [f32], value: f32) -> RowValues<'a> {
        RowValues {
            legal_actions: actions,
            policy_actions: actions,
            policy_probs: probs,
            root_value: value,
            result: value,
            short_value: value,
            score: value,
        }
    }

    #[test]
    fn a_row_is_refused_for_each_value_the_trainer_cannot_use() {
        assert_eq!(row(&[0, 9], &[0.25, 0.75], -1.0).check(10), Ok(()));
        let refused = [
            (
                row(&[0, 10], &[0.5, 0.5], 0.0),
                "action 10 outside the action space of 10",
            ),
            (row(&[0, 1], &[0.5], 0.0), "2 policy actions but 1 probabilities"),
            (row(&[0], &[1.0], f32::NAN), "result NaN is not a number in [-1, 1]"),
            (row(&[0], &[1.0], 5.0), "result 5 is not a number in [-1, 1]"),
            (
                row(&[0], &[f32::NAN], 0.0),
                "policy probability NaN is not a number in [0, 1]",
            ),
            (
                row(&[0], &[-0.5], 0.0),
                "policy probability -0.5 is not a number in [0, 1]",
            ),
            (
                row(&[0, 1], &[0.75, 0.75], 0.0),
                "policy probabilities sum to 1.5, above 1",
            ),
        ];
        for (values, reason) in refused {
            assert_eq!(values.check(10).unwrap_err().to_string(), reason);
        }
        let mut root = row(&[0], &[1.0], 0.0);
        root.root_value = f32::INFINITY;
        assert_eq!(
            root.check(10).unwrap_err().to_string(),
            "root value inf is not a number in [-1, 1]"
        );
        let mut short = row(&[0], &[1.0], 0.0);
        short.short_value = -1.5;
        assert_eq!(
            short.check(10).unwrap_err().to_string(),
            "short value -1.5 is not a number in [-1, 1]"
        );
        let mut score = row(&[0], &[1.0], 0.0);
        score.score = f32::NAN;
        assert_eq!(
            score.check(10).unwrap_err().to_string(),
            "score NaN is not a number in [-1, 1]"
        );
    }

    #[test]
    fn quantization_keeps_binary_planes_exact_and_counters_to_half_a_step() {
        let planes = [0.0, 1.0, 0.5, 0.25, 1.0 / 3.0, -0.1, 1.5];
        let bytes = quantize(&planes);
        assert_eq!(bytes, [0, 255, 128, 64, 85, 0, 255]);
        let mut back = [0.0; 7];
        dequantize(&bytes, &mut back);
        assert_eq!(&back[..2], &[0.0, 1.0]);
        for (v, b) in planes[2..5].iter().zip(&back[2..5]) {
            assert!((v - b).abs() <= 0.5 / 255.0 + 1e-7);
        }
    }
}
