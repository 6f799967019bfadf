//! The training loss: policy cross-entropy against the search target, win/draw/loss cross-entropy against the
//! result, an optional moves-left Huber loss and optional squared errors of the short-horizon value and the
//! score, each weighted by the config.

use crate::batch::BatchTensors;
use crate::config::TrainConfig;
use tch::{Kind, Reduction, Tensor};
use zero_model::NetOutput;
use zero_model::encode::masked_log_softmax;

/// The loss terms of one batch: `total` carries the graph; the parts are plain numbers for the metrics.
#[derive(Debug)]
pub struct Losses {
    pub total: Tensor,
    pub policy: f64,
    pub value: f64,
    pub moves_left: Option<f64>,
    pub short_value: Option<f64>,
    pub score: Option<f64>,
}

/// Weights and scale of the loss terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossWeights {
    pub policy: f64,
    pub value: f64,
    /// `TrainConfig::value_horizon`: 0 = the plain result.
    pub value_horizon: f64,
    /// `TrainConfig::root_value_weight`: 0 = the result alone.
    pub root_value_weight: f64,
    pub moves_left: f64,
    pub moves_left_scale: f64,
    pub short_value: f64,
    pub score: f64,
}

impl LossWeights {
    pub fn of(config: &TrainConfig) -> Self {
        LossWeights {
            policy: config.policy_weight,
            value: config.value_weight,
            value_horizon: config.value_horizon,
            root_value_weight: config.root_value_weight,
            moves_left: config.moves_left_weight,
            moves_left_scale: config.moves_left_scale,
            short_value: config.short_value_weight,
            score: config.score_weight,
        }
    }
}

/// The win/draw/loss cross-entropy against the batch's targets. With a horizon `h > 0` the target of a
/// decided game, `k` plies from its end, is `exp(-k / h)` on its result and the rest on a draw: the value then
/// tells a quick loss from a slow one (in a game one side nearly always wins, the plain target is the same
/// everywhere and a search cannot choose). A root-value weight `w > 0` then moves `w` of the target onto the
/// search's own value of the position (its win/draw/loss as a stored result's).
fn value_loss(logits: &Tensor, batch: &BatchTensors, horizon: f64, root_value_weight: f64) -> Tensor {
    let mut target = batch.wdl_target.shallow_clone();
    if horizon > 0.0 {
        let draw = Tensor::from_slice(&[0.0f32, 1.0, 0.0])
            .to_device(logits.device())
            .view([1, 3]);
        let certainty = (&batch.plies_to_end / -horizon).exp().unsqueeze(1);
        target = &target * &certainty + draw * (1.0 - &certainty);
    }
    if root_value_weight > 0.0 {
        target = target * (1.0 - root_value_weight) + &batch.root_wdl * root_value_weight;
    }
    let log_probs = logits.log_softmax(1, Kind::Float);
    -(target * log_probs)
        .sum_dim_intlist(&[1i64][..], false, Kind::Float)
        .mean(Kind::Float)
}

/// The weighted loss of `output` on `batch` (averages over the batch; the policy term over the rows that have a
/// policy target only, and 0 when none has).
pub fn compute(output: &NetOutput, batch: &BatchTensors, weights: LossWeights) -> Losses {
    let policy_logits = output.policy.to_kind(Kind::Float);
    // Illegal actions get -inf log-probability and a zero target; zero them before the product (0 x -inf = NaN).
    let log_probs = masked_log_softmax(&policy_logits, &batch.legal).masked_fill(&batch.legal.logical_not(), 0.0);
    let per_row = -(&batch.policy * log_probs).sum_dim_intlist(&[1i64][..], false, Kind::Float);
    let rows = batch.has_policy.sum(Kind::Float).clamp_min(1.0);
    let policy = (per_row * &batch.has_policy).sum(Kind::Float) / rows;

    let value = value_loss(
        &output.wdl.to_kind(Kind::Float),
        batch,
        weights.value_horizon,
        weights.root_value_weight,
    );

    let mut total = &policy * weights.policy + &value * weights.value;
    let moves_left = output.moves_left.as_ref().map(|predicted| {
        let scale = weights.moves_left_scale;
        let loss =
            (predicted.to_kind(Kind::Float) / scale).huber_loss(&(&batch.plies_to_end / scale), Reduction::Mean, 1.0);
        let value = loss.double_value(&[]);
        total = &total + loss * weights.moves_left;
        value
    });
    let mut squared_error = |predicted: &Option<Tensor>, target: &Tensor, weight: f64| {
        predicted.as_ref().map(|predicted| {
            let loss = predicted.to_kind(Kind::Float).mse_loss(target, Reduction::Mean);
            let value = loss.double_value(&[]);
            total = &total + loss * weight;
            value
        })
    };
    let short_value = squared_error(&output.short_value, &batch.short_value, weights.short_value);
    let score = squared_error(&output.score, &batch.score, weights.score);
    Losses {
        policy: policy.double_value(&[]),
        value: value.double_value(&[]),
        moves_left,
        short_value,
        score,
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::Device;

    /// A batch of two rows, a win 0 plies from the end and a loss 40 plies from it; only the value fields matter.
    fn batch() -> BatchTensors {
        let empty = Tensor::zeros([2, 1], (Kind::Float, Device::Cpu));
        BatchTensors {
            input: empty.shallow_clone(),
            legal: empty.to_kind(Kind::Bool),
            policy: empty,
            has_policy: Tensor::zeros([2], (Kind::Float, Device::Cpu)),
            wdl_target: Tensor::from_slice(&[1.0f32, 0.0, 0.0, 0.0, 0.0, 1.0]).view([2, 3]),
            root_wdl: Tensor::from_slice(&[0.0f32, 1.0, 0.0, 0.0, 1.0, 0.0]).view([2, 3]),
            plies_to_end: Tensor::from_slice(&[0.0f32, 40.0]),
            short_value: Tensor::from_slice(&[0.5f32, -0.5]),
            score: Tensor::from_slice(&[-0.25f32, 1.0]),
        }
    }

    fn loss_at(logits: [[f32; 3]; 2], horizon: f64) -> f64 {
        let flat: Vec<f32> = logits.iter().flatten().copied().collect();
        value_loss(&Tensor::from_slice(&flat).view([2, 3]), &batch(), horizon, 0.0).double_value(&[])
    }

    #[test]
    fn without_a_horizon_the_target_is_the_plain_result() {
        let confident = [[9.0, 0.0, 0.0], [0.0, 0.0, 9.0]];
        assert!(loss_at(confident, 0.0) < 0.01);
        assert!((loss_at([[0.0; 3]; 2], 0.0) - 3f64.ln()).abs() < 1e-5);
    }

    #[test]
    fn a_horizon_fades_a_distant_result_toward_a_draw() {
        // Row 2 is a loss 40 plies away: with h = 10 its target is e^-4 = 1.8% loss and 98.2% draw.
        let near_draw = [[9.0, 0.0, 0.0], [0.0, 4.0, 0.0]];
        let sure_loss = [[9.0, 0.0, 0.0], [0.0, 0.0, 9.0]];
        assert!(loss_at(near_draw, 10.0) < loss_at(sure_loss, 10.0));
        assert!(loss_at(sure_loss, 0.0) < loss_at(near_draw, 0.0));
        // The row at the end keeps its plain target whatever the horizon.
        let end_only = |h| {
            let logits = Tensor::from_slice(&[9.0f32, 0.0, 0.0]).view([1, 3]);
            let mut b = batch();
            b.wdl_target = Tensor::from_slice(&[1.0f32, 0.0, 0.0]).view([1, 3]);
            b.plies_to_end = Tensor::from_slice(&[0.0f32]);
            value_loss(&logits, &b, h, 0.0).double_value(&[])
        };
        assert!((end_only(10.0) - end_only(0.0)).abs() < 1e-6);
    }

    #[test]
    fn a_judged_draw_aims_the_value_at_its_score() {
        // A draw judged +0.5 for the side to move: half a win, half a draw; its best logits beat a plain draw's.
        let mut b = batch();
        b.wdl_target = Tensor::from_slice(&crate::batch::wdl_target(0.5)).view([1, 3]);
        b.plies_to_end = Tensor::from_slice(&[30.0f32]);
        let loss =
            |logits: [f32; 3]| value_loss(&Tensor::from_slice(&logits).view([1, 3]), &b, 0.0, 0.0).double_value(&[]);
        assert!(loss([5.0, 5.0, 0.0]) < loss([0.0, 5.0, 0.0]));
        assert!(loss([5.0, 5.0, 0.0]) < loss([5.0, 0.0, 0.0]));
        assert_eq!(crate::batch::wdl_target(-1.0), [0.0, 0.0, 1.0]);
        assert_eq!(crate::batch::wdl_target(0.0), [0.0, 1.0, 0.0]);
    }

    #[test]
    fn the_short_value_and_score_heads_add_their_weighted_squared_errors() {
        let zeros = |shape: &[i64]| Tensor::zeros(shape, (Kind::Float, Device::Cpu));
        let output = |short: Option<[f32; 2]>, score: Option<[f32; 2]>| NetOutput {
            policy: zeros(&[2, 1]),
            wdl: zeros(&[2, 3]),
            moves_left: None,
            short_value: short.map(|s| Tensor::from_slice(&s)),
            score: score.map(|s| Tensor::from_slice(&s)),
        };
        let mut weights = LossWeights::of(&TrainConfig::default());
        (weights.short_value, weights.score) = (2.0, 3.0);
        let plain = compute(&output(None, None), &batch(), weights);
        assert_eq!((plain.short_value, plain.score), (None, None));
        // Short values 0.5 and -0.5: errors of 0.5 and 0 square to a mean of 0.125. Scores -0.25 and 1: errors of
        // 0.25 and 0.5, a mean square of 0.15625.
        let short = compute(&output(Some([0.0, -0.5]), None), &batch(), weights);
        let score = compute(&output(None, Some([0.0, 0.5])), &batch(), weights);
        let both = compute(&output(Some([0.0, -0.5]), Some([0.0, 0.5])), &batch(), weights);
        assert!((short.short_value.unwrap() - 0.125).abs() < 1e-6);
        assert!((score.score.unwrap() - 0.15625).abs() < 1e-6);
        let added = |losses: &Losses| losses.total.double_value(&[]) - plain.total.double_value(&[]);
        assert!((added(&short) - 2.0 * 0.125).abs() < 1e-6, "{}", added(&short));
        assert!((added(&score) - 3.0 * 0.15625).abs() < 1e-6, "{}", added(&score));
        assert!((added(&both) - added(&short) - added(&score)).abs() < 1e-6);
    }

    #[test]
    fn a_root_value_weight_moves_the_target_toward_the_search_value() {
        // Both rows' search valued a draw (the batch's root_wdl) where the games were won and lost.
        let flat = |logits: [[f32; 3]; 2]| Tensor::from_slice(&logits.concat()).view([2, 3]);
        let loss = |logits, w| value_loss(&flat(logits), &batch(), 0.0, w).double_value(&[]);
        let results = [[9.0, 0.0, 0.0], [0.0, 0.0, 9.0]];
        let draws = [[0.0, 9.0, 0.0], [0.0, 9.0, 0.0]];
        let halves = [[5.0, 5.0, 0.0], [0.0, 5.0, 5.0]];
        assert!(loss(results, 0.0) < loss(draws, 0.0));
        assert!(loss(draws, 1.0) < loss(results, 1.0));
        assert!(loss(halves, 0.5) < loss(results, 0.5) && loss(halves, 0.5) < loss(draws, 0.5));
        // The blend is exact: w = 0.5 is the mean of the two targets' cross-entropies.
        let mean = (loss(results, 0.0) + loss(results, 1.0)) / 2.0;
        assert!((loss(results, 0.5) - mean).abs() < 1e-5);
    }
}
