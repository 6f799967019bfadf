//! A training batch: samples decoded, dequantized and augmented into flat arrays (on the loader thread), then
//! turned into tensors on the training device.

use crate::augment::Augmenter;
use tch::{Device, Kind, Tensor};
use zero_data::TrainingSample;

/// One batch in host memory.
#[derive(Debug, Clone, PartialEq)]
pub struct HostBatch {
    pub size: usize,
    /// `[N, planes, height, width]` input, dequantized.
    pub input: Vec<f32>,
    /// `[N, actions]`, 1 where the action is legal (all 1 on a row without legal actions, to keep it finite).
    pub legal: Vec<u8>,
    /// `[N, actions]` search policy target, 0 off its support.
    pub policy: Vec<f32>,
    /// `[N]` 1 for rows with a policy target.
    pub has_policy: Vec<f32>,
    /// `[N, 3]` win/draw/loss target for the side to move (one-hot for a plain result).
    pub wdl_target: Vec<f32>,
    /// `[N, 3]` win/draw/loss of the search's value at the position (`root_value`), for `train.root_value_weight`.
    pub root_wdl: Vec<f32>,
    /// `[N]` plies from the position to the end of the game.
    pub plies_to_end: Vec<f32>,
    /// `[N]` the short-horizon value target, side to move's view.
    pub short_value: Vec<f32>,
    /// `[N]` the game's final score, side to move's view.
    pub score: Vec<f32>,
    /// The symmetry applied to each row.
    pub symmetries: Vec<u8>,
}

/// The win/draw/loss target of a stored result (or search value) for the side to move: 1, 0 and -1 are a win,
/// a draw and a loss; a value between (a draw judged by the material left, `selfplay.draw_score`, or a search
/// value) puts `|r|` on the win or the loss and the rest on the draw, so its expected value is `r`.
pub fn wdl_target(result: f32) -> [f32; 3] {
    let r = result.clamp(-1.0, 1.0);
    [r.max(0.0), 1.0 - r.abs(), (-r).max(0.0)]
}

impl HostBatch {
    /// Builds a batch from `samples`, applying symmetry `symmetries[i]` to row `i`.
    pub fn build(samples: &[TrainingSample], symmetries: &[usize], augmenter: &Augmenter, action_space: usize) -> Self {
        let n = samples.len();
        let input_len = samples.first().map_or(0, |s| s.input.len());
        let mut batch = HostBatch {
            size: n,
            input: vec![0.0; n * input_len],
            legal: vec![0; n * action_space],
            policy: vec![0.0; n * action_space],
            has_policy: Vec::with_capacity(n),
            wdl_target: Vec::with_capacity(3 * n),
            root_wdl: Vec::with_capacity(3 * n),
            plies_to_end: Vec::with_capacity(n),
            short_value: Vec::with_capacity(n),
            score: Vec::with_capacity(n),
            symmetries: Vec::with_capacity(n),
        };
        let mut turned = vec![0u8; input_len];
        for (row, (sample, &sym)) in samples.iter().zip(symmetries).enumerate() {
            augmenter.transform_planes(&sample.input, sym, &mut turned);
            zero_data::dequantize(&turned, &mut batch.input[row * input_len..(row + 1) * input_len]);
            let legal = &mut batch.legal[row * action_space..(row + 1) * action_space];
            if sample.legal_actions.is_empty() {
                legal.fill(1);
            }
            for &a in &sample.legal_actions {
                legal[augmenter.transform_action(a, sym) as usize] = 1;
            }
            let policy = &mut batch.policy[row * action_space..(row + 1) * action_space];
            for (&a, &p) in sample.policy_actions.iter().zip(&sample.policy_probs) {
                let index = augmenter.transform_action(a, sym) as usize;
                policy[index] = p;
                // A target on an action missing from the legal list would meet a log-probability of -inf.
                legal[index] = 1;
            }
            let has_policy = sample.has_policy && !sample.policy_actions.is_empty();
            batch.has_policy.push(if has_policy { 1.0 } else { 0.0 });
            batch.wdl_target.extend(wdl_target(sample.result));
            batch.root_wdl.extend(wdl_target(sample.root_value));
            batch.plies_to_end.push(sample.plies_to_end as f32);
            batch.short_value.push(sample.short_value);
            batch.score.push(sample.score);
            batch.symmetries.push(sym as u8);
        }
        batch
    }

    /// The batch as tensors on `device`; `shape` is `[planes, height, width]`.
    pub fn to_tensors(&self, shape: [i64; 3], device: Device) -> BatchTensors {
        let n = self.size as i64;
        let actions = (self.legal.len() / self.size.max(1)) as i64;
        BatchTensors {
            input: Tensor::from_slice(&self.input)
                .view([n, shape[0], shape[1], shape[2]])
                .to_device(device),
            legal: Tensor::from_slice(&self.legal)
                .view([n, actions])
                .to_kind(Kind::Bool)
                .to_device(device),
            policy: Tensor::from_slice(&self.policy).view([n, actions]).to_device(device),
            has_policy: Tensor::from_slice(&self.has_policy).to_device(device),
            wdl_target: Tensor::from_slice(&self.wdl_target).view([n, 3]).to_device(device),
            root_wdl: Tensor::from_slice(&self.root_wdl).view([n, 3]).to_device(device),
            plies_to_end: Tensor::from_slice(&self.plies_to_end).to_device(device),
            short_value: Tensor::from_slice(&self.short_value).to_device(device),
            score: Tensor::from_slice(&self.score).to_device(device),
        }
    }
}

/// A batch on the training device.
#[derive(Debug)]
pub struct BatchTensors {
    pub input: Tensor,
    pub legal: Tensor,
    pub policy: Tensor,
    pub has_policy: Tensor,
    /// `[N, 3]` win/draw/loss probabilities.
    pub wdl_target: Tensor,
    /// `[N, 3]` the search value's win/draw/loss.
    pub root_wdl: Tensor,
    pub plies_to_end: Tensor,
    pub short_value: Tensor,
    pub score: Tensor,
}

#[cfg(test)]
mod tests {
    use super::*;
    use zero_games::Game;
    use zero_games::bashni::Bashni;

    fn sample(result: f32, root_value: f32) -> TrainingSample {
        TrainingSample {
            input: vec![0; zero_games::input_len::<Bashni>()],
            legal_actions: vec![3],
            has_policy: true,
            policy_actions: vec![3],
            policy_probs: vec![1.0],
            root_value,
            result,
            plies_to_end: 7,
            short_value: root_value / 2.0,
            score: -result / 5.0,
        }
    }

    #[test]
    fn each_row_carries_the_result_and_the_search_value_as_win_draw_loss() {
        let samples = [sample(1.0, -0.5), sample(0.25, 0.0)];
        let augmenter = Augmenter::new::<Bashni>(false);
        let batch = HostBatch::build(&samples, &[0, 0], &augmenter, Bashni::ACTION_SPACE);
        assert_eq!(batch.wdl_target, [1.0, 0.0, 0.0, 0.25, 0.75, 0.0]);
        assert_eq!(batch.root_wdl, [0.0, 0.5, 0.5, 0.0, 1.0, 0.0]);
        assert_eq!(batch.plies_to_end, [7.0, 7.0]);
        assert_eq!(batch.short_value, [-0.25, 0.0]);
        assert_eq!(batch.score, [-0.2, -0.05]);
    }
}
